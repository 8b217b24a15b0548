import { describe, expect, it } from 'vitest';
import type { KubeEvent, Node, Pod } from '../model';
import {
  ADMIN,
  createPod,
  createSchedulerLab,
  getPod,
  podManifest,
  schedulerOf,
} from './testing/lab-harness';

const TEN_CPU_MESSAGE =
  '0/4 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 3 Insufficient cpu. preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.';

function eventsFor(lab: ReturnType<typeof createSchedulerLab>, pod: string): KubeEvent[] {
  return (lab.peekAll('events', 'default') as KubeEvent[]).filter(
    (e) => e.involvedObject.name === pod,
  );
}

describe('kube-scheduler in a lab', { timeout: 30_000 }, () => {
  it('should spread 3 replicas over node-1..3 and never use the tainted control-plane', () => {
    const lab = createSchedulerLab({ seed: 3 });
    for (const i of [0, 1, 2])
      createPod(
        lab,
        podManifest(`web-${i}`, { cpu: '250m', memory: '256Mi', labels: { app: 'web' } }),
      );
    lab.advance(500);
    const nodes = [0, 1, 2].map((i) => getPod(lab, `web-${i}`).spec.nodeName);
    expect([...nodes].sort()).toEqual(['node-1', 'node-2', 'node-3']);
    for (const i of [0, 1, 2]) {
      const ev = eventsFor(lab, `web-${i}`).find((e) => e.reason === 'Scheduled');
      expect(ev?.message).toBe(`Successfully assigned default/web-${i} to ${nodes[i]}`);
      expect(ev?.source.component).toBe('default-scheduler');
      expect(ev?.type).toBe('Normal');
    }
  });

  it('should keep a 10-CPU pod Pending with the exact FitError in event and condition', () => {
    const lab = createSchedulerLab();
    createPod(lab, podManifest('big', { cpu: '10' }));
    lab.advance(500);
    const pod = getPod(lab, 'big');
    expect(pod.spec.nodeName).toBeUndefined();
    const cond = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
    expect(cond).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: TEN_CPU_MESSAGE,
    });
    const ev = eventsFor(lab, 'big').find((e) => e.reason === 'FailedScheduling');
    expect(ev?.type).toBe('Warning');
    expect(ev?.message).toBe(TEN_CPU_MESSAGE);
    expect(schedulerOf(lab).decisionFor('default', 'big')?.outcome).toBe('unschedulable');
  });

  it('should retry when node allocatable changes and count the repeated FailedScheduling event', () => {
    const lab = createSchedulerLab();
    createPod(lab, podManifest('big', { cpu: '10' }));
    lab.advance(500);
    expect(eventsFor(lab, 'big').find((e) => e.reason === 'FailedScheduling')?.count).toBe(1);
    // a bigger node-1 that is still too small: NodeAllocatable wakes the pod, same message again
    const node = lab.peek('nodes', undefined, 'node-1') as Node;
    const allocatable = { ...(node.status?.allocatable ?? {}), cpu: '3' };
    const res = lab.request(ADMIN, {
      verb: 'update',
      resource: 'nodes',
      name: 'node-1',
      subresource: 'status',
      body: { ...node, status: { ...node.status, allocatable } },
    });
    expect(res.code).toBe(200);
    lab.advance(2500);
    const ev = eventsFor(lab, 'big').find((e) => e.reason === 'FailedScheduling');
    expect(ev?.count).toBeGreaterThanOrEqual(2);
    expect(ev?.message).toBe(TEN_CPU_MESSAGE);
    expect(ev?.lastTimestamp).not.toBe(ev?.firstTimestamp);
    expect(schedulerOf(lab).decisionFor('default', 'big')?.attempt).toBeGreaterThanOrEqual(2);
  });

  it('should place a nodeSelector disktype=ssd pod only on the labelled node', () => {
    const lab = createSchedulerLab({
      nodes: [
        { name: 'control-plane', controlPlane: true },
        { name: 'node-1' },
        { name: 'node-2', labels: { disktype: 'ssd' } },
        { name: 'node-3' },
      ],
    });
    for (const i of [0, 1, 2])
      createPod(lab, podManifest(`ssd-${i}`, { spec: { nodeSelector: { disktype: 'ssd' } } }));
    lab.advance(500);
    expect([0, 1, 2].map((i) => getPod(lab, `ssd-${i}`).spec.nodeName)).toEqual([
      'node-2',
      'node-2',
      'node-2',
    ]);
  });

  it('should skip a cordoned node when scheduling new pods', () => {
    const lab = createSchedulerLab();
    lab.request(ADMIN, {
      verb: 'patch',
      resource: 'nodes',
      name: 'node-1',
      patchType: 'merge',
      body: { spec: { unschedulable: true } },
    });
    lab.advance(100);
    for (const i of [0, 1, 2, 3, 4, 5]) createPod(lab, podManifest(`p-${i}`));
    lab.advance(1000);
    const placed = [0, 1, 2, 3, 4, 5].map((i) => getPod(lab, `p-${i}`).spec.nodeName);
    expect(placed.every((n) => n === 'node-2' || n === 'node-3')).toBe(true);
  });

  it('should emit filter, score and bind trace events caused by the pod creation', () => {
    const lab = createSchedulerLab();
    createPod(lab, podManifest('traced'));
    lab.advance(300);
    const mine = lab
      .trace()
      .filter((e) => e.component === 'kube-scheduler' && e.object?.name === 'traced');
    expect(mine.map((e) => e.verb)).toEqual(['filter', 'score', 'bind']);
    const causes = new Set(mine.map((e) => e.causedBy));
    expect(causes.size).toBe(1);
    const cause = lab.trace().find((e) => e.seq === [...causes][0]);
    expect(cause).toBeDefined();
    expect(cause?.object?.name).toBe('traced');
    expect(mine[2]!.t - mine[0]!.t).toBe(10);
  });

  it('should schedule a waiting pod when a node frees up after a pod is deleted', () => {
    const lab = createSchedulerLab({ nodes: [{ name: 'node-1' }] });
    createPod(lab, podManifest('hog', { cpu: '1500m' }));
    lab.advance(200);
    createPod(lab, podManifest('late', { cpu: '1' }));
    lab.advance(200);
    expect(getPod(lab, 'late').spec.nodeName).toBeUndefined();
    lab.request(ADMIN, {
      verb: 'delete',
      resource: 'pods',
      namespace: 'default',
      name: 'hog',
      query: { gracePeriodSeconds: 0 },
    });
    lab.advance(3000);
    expect(getPod(lab, 'late').spec.nodeName).toBe('node-1');
  });

  it('should preempt a lower-priority pod and then bind the preemptor to the nominated node', () => {
    const lab = createSchedulerLab({ nodes: [{ name: 'node-1' }] });
    createPod(lab, podManifest('low-a', { cpu: '800m', spec: { priority: 0 } }));
    createPod(lab, podManifest('low-b', { cpu: '800m', spec: { priority: 0 } }));
    lab.advance(3000);
    createPod(lab, podManifest('vip', { cpu: '1', spec: { priority: 1000 } }));
    lab.advance(300);
    const first = schedulerOf(lab)
      .decisions()
      .find((d) => d.name === 'vip');
    expect(first?.outcome).toBe('unschedulable');
    expect(first?.message).toBe('0/1 nodes are available: 1 Insufficient cpu.');
    expect(first?.postFilter).toMatchObject({
      nominatedNode: 'node-1',
      victims: ['default/low-b'],
    });
    expect(getPod(lab, 'vip').status?.nominatedNodeName).toBe('node-1');
    const preempted = eventsFor(lab, 'low-b').find((e) => e.reason === 'Preempted');
    expect(preempted?.message).toBe(
      `Preempted by pod ${getPod(lab, 'vip').metadata.uid} on node node-1`,
    );
    lab.advance(60_000);
    expect(getPod(lab, 'vip').spec.nodeName).toBe('node-1');
    expect(lab.peek('pods', 'default', 'low-b')).toBeUndefined();
    expect(getPod(lab, 'low-a').spec.nodeName).toBe('node-1');
  });

  it('should bind a pending pod after the apiserver comes back when it was down', () => {
    const lab = createSchedulerLab();
    createPod(lab, podManifest('patient'));
    lab.stopProcess({ component: 'kube-apiserver' });
    lab.advance(5000);
    expect(getPod(lab, 'patient').spec.nodeName).toBeUndefined();
    lab.startProcess({ component: 'kube-apiserver' });
    lab.advance(15_000);
    expect(getPod(lab, 'patient').spec.nodeName).toMatch(/^node-[123]$/);
  });

  it('should make the same decisions when the lab is serialized and restored mid-way', async () => {
    const { restoreLab } = await import('../lab/lab');
    const lab = createSchedulerLab({ seed: 11 });
    for (const i of [0, 1, 2, 3]) createPod(lab, podManifest(`r-${i}`));
    lab.advance(25);
    const copy = restoreLab(lab.serialize());
    lab.advance(1000);
    copy.advance(1000);
    const placed = (l: typeof lab) =>
      [0, 1, 2, 3].map((i) => (l.peek('pods', 'default', `r-${i}`) as Pod).spec.nodeName);
    expect(placed(copy)).toEqual(placed(lab));
    expect(placed(lab).every((n) => n && n !== 'control-plane')).toBe(true);
  });
});
