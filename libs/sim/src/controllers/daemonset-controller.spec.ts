import { describe, expect, it } from 'vitest';
import type { DaemonSet, Node, Pod } from '../model';
import { createLab } from '../lab/lab';
import type { SimLab } from '../lab/lab';
import {
  daemonPodTolerations,
  nodeShouldRunDaemonPod,
  targetNodeName,
} from './daemonset-controller';

const ADMIN = 'kubernetes-admin';

function ds(name: string, extra: Record<string, unknown> = {}): DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'agent', image: 'nginx:1.27' }], ...extra },
      },
    },
  };
}

function node(name: string, taints: Node['spec']['taints'] = [], labels = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/os': 'linux', ...labels } },
    spec: { taints },
  };
}

function podsOf(lab: SimLab, name: string): Pod[] {
  return (lab.peekAll('pods', 'default') as Pod[]).filter(
    (p) => p.metadata.ownerReferences?.[0]?.name === name && !p.metadata.deletionTimestamp,
  );
}

describe('nodeShouldRunDaemonPod', () => {
  it('should skip a tainted node but keep a running pod when only NoSchedule is untolerated', () => {
    const d = ds('a');
    const tainted = node('n', [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(d, tainted)).toEqual({
      shouldRun: false,
      shouldContinueRunning: true,
    });
    const evicting = node('n', [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }]);
    expect(nodeShouldRunDaemonPod(d, evicting).shouldContinueRunning).toBe(false);
  });

  it('should run on cordoned and not-ready nodes when the default daemon tolerations apply', () => {
    const cordoned = node('n', [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]);
    expect(nodeShouldRunDaemonPod(ds('a'), cordoned).shouldRun).toBe(true);
    const notReady = node('n', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }]);
    expect(nodeShouldRunDaemonPod(ds('a'), notReady).shouldRun).toBe(true);
  });

  it('should honour the template nodeSelector when choosing nodes', () => {
    const d = ds('a', { nodeSelector: { disk: 'ssd' } });
    expect(nodeShouldRunDaemonPod(d, node('n')).shouldRun).toBe(false);
    expect(nodeShouldRunDaemonPod(d, node('n', [], { disk: 'ssd' })).shouldRun).toBe(true);
  });

  it('should add network-unavailable only for hostNetwork pods when adding daemon tolerations', () => {
    const keys = (spec: Parameters<typeof daemonPodTolerations>[0]) =>
      daemonPodTolerations(spec).map((t) => t.key);
    expect(keys({ containers: [] })).not.toContain('node.kubernetes.io/network-unavailable');
    expect(keys({ containers: [], hostNetwork: true })).toContain(
      'node.kubernetes.io/network-unavailable',
    );
  });
});

describe('daemonset controller in a lab', { timeout: 60_000 }, () => {
  it('should run one pod per node, pinned by matchFields and bound by the scheduler, when a DaemonSet is created', () => {
    const lab = createLab({ seed: 5 });
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'daemonsets',
      namespace: 'default',
      body: ds('agent'),
    });
    lab.advance(4_000);
    const pods = podsOf(lab, 'agent');
    // the control plane's NoSchedule taint is not tolerated: workers only
    expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const p of pods) {
      expect(p.metadata.name).toMatch(/^agent-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(targetNodeName(p)).toBe(p.spec.nodeName);
      expect(
        p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
          ?.nodeSelectorTerms[0]?.matchFields,
      ).toEqual([{ key: 'metadata.name', operator: 'In', values: [p.spec.nodeName] }]);
      expect(p.metadata.labels?.['pod-template-generation']).toBe('1');
      expect(p.status?.phase).toBe('Running');
    }
    const binds = lab.trace().filter((e) => e.component === 'kube-scheduler' && e.verb === 'bind');
    expect(binds.some((e) => e.object?.name === pods[0]?.metadata.name)).toBe(true);
    const d = lab.peek('daemonsets', 'default', 'agent') as DaemonSet;
    expect(d.status).toMatchObject({
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      numberReady: 3,
      updatedNumberScheduled: 3,
      numberAvailable: 3,
      numberMisscheduled: 0,
    });
    expect(d.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('1');
  });

  it('should replace a deleted daemon pod on the same node when it is deleted', () => {
    const lab = createLab({ seed: 6 });
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'daemonsets',
      namespace: 'default',
      body: ds('agent'),
    });
    lab.advance(4_000);
    const victim = podsOf(lab, 'agent').find((p) => p.spec.nodeName === 'node-2') as Pod;
    lab.request(ADMIN, {
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: victim.metadata.name,
      query: { gracePeriodSeconds: 0 },
    });
    lab.advance(4_000);
    const onNode2 = podsOf(lab, 'agent').filter((p) => p.spec.nodeName === 'node-2');
    expect(onNode2).toHaveLength(1);
    expect(onNode2[0]?.metadata.name).not.toBe(victim.metadata.name);
  });

  it('should roll pods one node at a time when the template changes', () => {
    const lab = createLab({ seed: 7 });
    lab.request(ADMIN, {
      verb: 'create',
      resource: 'daemonsets',
      namespace: 'default',
      body: ds('agent'),
    });
    lab.advance(4_000);
    const cur = lab.peek('daemonsets', 'default', 'agent') as DaemonSet;
    const next = JSON.parse(JSON.stringify(cur)) as DaemonSet;
    (next.spec.template.spec.containers[0] as { image: string }).image = 'nginx:1.26';
    lab.request(ADMIN, {
      verb: 'update',
      resource: 'daemonsets',
      namespace: 'default',
      name: 'agent',
      body: next,
    });
    let maxDown = 0;
    for (let i = 0; i < 60; i++) {
      lab.advance(500);
      const ready = podsOf(lab, 'agent').filter((p) =>
        p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      ).length;
      maxDown = Math.max(maxDown, 3 - ready);
    }
    expect(maxDown).toBe(1);
    const pods = podsOf(lab, 'agent');
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.spec.containers[0]?.image).toBe('nginx:1.26');
      expect(p.metadata.labels?.['pod-template-generation']).toBe('2');
    }
    const d = lab.peek('daemonsets', 'default', 'agent') as DaemonSet;
    expect(d.metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('2');
    expect(d.status).toMatchObject({ updatedNumberScheduled: 3, numberAvailable: 3 });
  });

  it('should show the kube-proxy pod not running when kube-proxy is stopped on its node', () => {
    const lab = createLab({ seed: 8 });
    lab.advance(3_000);
    lab.stopProcess({ component: 'kube-proxy', node: 'node-1' });
    // the simulated kubelet notices a container that died on its own at a full pod sync, which
    // can take a few of its 10 s periods (upstream PLEG relists every second)
    lab.advance(30_000);
    const pods = (lab.peekAll('pods', 'kube-system') as Pod[]).filter(
      (p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy',
    );
    expect(pods).toHaveLength(4);
    const onNode1 = pods.find((p) => p.spec.nodeName === 'node-1') as Pod;
    const cs = onNode1.status?.containerStatuses?.[0];
    expect(cs?.ready).toBe(false);
    expect(cs?.lastState?.terminated?.exitCode ?? cs?.state?.terminated?.exitCode).toBe(143);
    const others = pods.filter((p) => p !== onNode1);
    for (const p of others) expect(p.status?.containerStatuses?.[0]?.ready).toBe(true);
    lab.startProcess({ component: 'kube-proxy', node: 'node-1' });
    lab.advance(30_000);
    const after = lab.peek('pods', 'kube-system', onNode1.metadata.name as string) as Pod;
    expect(after.status?.containerStatuses?.[0]?.ready).toBe(true);
  });
});
