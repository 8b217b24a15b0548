import { describe, expect, it } from 'vitest';
import { restoreLab } from '../lab/lab';
import type { KubeEvent, KubeObject, PersistentVolumeClaim } from '../model';
import {
  ADMIN,
  createPod,
  createSchedulerLab,
  getPod,
  podManifest,
  schedulerOf,
} from './testing/lab-harness';

const UNBOUND_IMMEDIATE =
  '0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.';

type Lab = ReturnType<typeof createSchedulerLab>;

function create(lab: Lab, resource: string, body: KubeObject, namespace?: string): void {
  const res = lab.request(ADMIN, { verb: 'create', resource, namespace, body });
  if (res.code !== 201) throw new Error(`${resource}: ${JSON.stringify(res.body)}`);
}

function claimManifest(name: string, storageClassName?: string): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      ...(storageClassName !== undefined ? { storageClassName } : {}),
    },
  };
}

function volumeManifest(name: string, o: { onNode?: string; cls?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: o.cls ?? '',
      ...(o.onNode
        ? {
            local: { path: '/mnt/disks/vol1' },
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: 'kubernetes.io/hostname', operator: 'In', values: [o.onNode] },
                    ],
                  },
                ],
              },
            },
          }
        : { hostPath: { path: '/data' } }),
    },
  } as KubeObject;
}

function podUsing(name: string, claim: string) {
  return podManifest(name, {
    spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }] },
  });
}

function failedScheduling(lab: Lab, pod: string): string | undefined {
  return (lab.peekAll('events', 'default') as KubeEvent[])
    .filter((e) => e.involvedObject.name === pod && e.reason === 'FailedScheduling')
    .at(-1)?.message;
}

describe('VolumeBinding in a lab', { timeout: 60_000 }, () => {
  it('should keep a pod Pending while its immediate claim has no volume, then schedule it once bound', () => {
    const lab = createSchedulerLab({ seed: 5 });
    create(lab, 'persistentvolumeclaims', claimManifest('data', ''), 'default');
    createPod(lab, podUsing('db', 'data'));
    lab.advance(2_000);
    expect(getPod(lab, 'db').spec.nodeName).toBeUndefined();
    expect(failedScheduling(lab, 'db')).toBe(UNBOUND_IMMEDIATE);
    const cond = getPod(lab, 'db').status?.conditions?.find((c) => c.type === 'PodScheduled');
    expect(cond?.message).toBe(UNBOUND_IMMEDIATE);
    expect(schedulerOf(lab).decisionFor('default', 'db')?.preFilter).toContainEqual({
      plugin: 'VolumeBinding',
      verdict: 'fail',
      reasons: ['pod has unbound immediate PersistentVolumeClaims'],
    });

    create(lab, 'persistentvolumes', volumeManifest('pv-1'));
    lab.advance(20_000);
    const claim = lab.peek('persistentvolumeclaims', 'default', 'data') as PersistentVolumeClaim;
    expect(claim.status?.phase).toBe('Bound');
    expect(getPod(lab, 'db').spec.nodeName).toMatch(/^node-/);
  });

  it('should continue identically after a restore while the pod waits for its claim', () => {
    const lab = createSchedulerLab({ seed: 5 });
    create(lab, 'persistentvolumeclaims', claimManifest('data', ''), 'default');
    createPod(lab, podUsing('db', 'data'));
    lab.advance(2_000);
    const copy = restoreLab(lab.serialize());
    const since = lab.trace().at(-1)?.seq ?? 0;
    for (const l of [lab, copy]) {
      create(l, 'persistentvolumes', volumeManifest('pv-1'));
      l.advance(20_000);
    }
    expect(getPod(copy, 'db').spec.nodeName).toBe(getPod(lab, 'db').spec.nodeName);
    expect(getPod(lab, 'db').spec.nodeName).toMatch(/^node-/);
    // only the scheduler's steps: the PV controller re-reports a claim event after a restore
    const scheduler = (l: Lab) =>
      l
        .trace(since)
        .filter((e) => e.component === 'kube-scheduler')
        .map(({ t, verb, message, data }) => ({ t, verb, message, data }));
    expect(scheduler(copy)).toEqual(scheduler(lab));
    expect(scheduler(lab).map((e) => e.verb)).toContain('bind');
  });

  it('should name a missing claim in the FitError', () => {
    const lab = createSchedulerLab();
    createPod(lab, podUsing('db', 'x'));
    lab.advance(1_000);
    expect(failedScheduling(lab, 'db')).toBe(
      '0/4 nodes are available: persistentvolumeclaim "x" not found. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
    );
  });

  it('should only place a pod on the node of its bound local volume', () => {
    const lab = createSchedulerLab({ seed: 9 });
    create(lab, 'persistentvolumes', volumeManifest('local-1', { onNode: 'node-3' }));
    create(lab, 'persistentvolumeclaims', claimManifest('data', ''), 'default');
    lab.advance(20_000);
    createPod(lab, podUsing('db', 'data'));
    lab.advance(1_000);
    expect(getPod(lab, 'db').spec.nodeName).toBe('node-3');
    const decision = schedulerOf(lab).decisionFor('default', 'db');
    const node1 = decision?.nodes.find((n) => n.node === 'node-1');
    expect(node1?.filters.find((f) => f.plugin === 'VolumeBinding')).toMatchObject({
      verdict: 'fail',
      reasons: ['node(s) had volume node affinity conflict'],
    });
  });

  it('should record a skipped VolumeBinding for pods without claims', () => {
    const lab = createSchedulerLab();
    createPod(lab, podManifest('web'));
    lab.advance(500);
    const decision = schedulerOf(lab).decisionFor('default', 'web');
    expect(decision?.preFilter).toContainEqual({ plugin: 'VolumeBinding', verdict: 'skip' });
  });
});

describe('VolumeBinding with WaitForFirstConsumer in a lab', { timeout: 60_000 }, () => {
  function storageClass(name: string, provisioner: string): KubeObject {
    return {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name },
      provisioner,
      volumeBindingMode: 'WaitForFirstConsumer',
    } as KubeObject;
  }

  it('should bind the local volume of the chosen node and then the pod', () => {
    const lab = createSchedulerLab({ seed: 2 });
    create(lab, 'storageclasses', storageClass('local-storage', 'kubernetes.io/no-provisioner'));
    create(
      lab,
      'persistentvolumes',
      volumeManifest('local-2', { onNode: 'node-2', cls: 'local-storage' }),
    );
    create(lab, 'persistentvolumeclaims', claimManifest('data', 'local-storage'), 'default');
    lab.advance(20_000);
    createPod(lab, podUsing('db', 'data'));
    lab.advance(20_000);
    const claim = lab.peek('persistentvolumeclaims', 'default', 'data') as PersistentVolumeClaim;
    expect(claim.spec.volumeName).toBe('local-2');
    expect(getPod(lab, 'db').spec.nodeName).toBe('node-2');
  });

  it('should annotate the claim with the selected node and keep the pod Pending without a provisioner', () => {
    const lab = createSchedulerLab({ seed: 2 });
    create(lab, 'storageclasses', storageClass('csi-wffc', 'example.com/csi'));
    create(lab, 'persistentvolumeclaims', claimManifest('data', 'csi-wffc'), 'default');
    lab.advance(1_000);
    createPod(lab, podUsing('db', 'data'));
    lab.advance(20_000);
    const claim = lab.peek('persistentvolumeclaims', 'default', 'data') as PersistentVolumeClaim;
    const selected = claim.metadata.annotations?.['volume.kubernetes.io/selected-node'];
    expect(selected).toMatch(/^node-/);
    expect(claim.status?.phase).toBe('Pending');
    const pod = getPod(lab, 'db');
    expect(pod.spec.nodeName).toBeUndefined();
    expect(pod.status?.phase).toBe('Pending');
    expect(schedulerOf(lab).decisionFor('default', 'db')?.node).toBe(selected);
  });
});
