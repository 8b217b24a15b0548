import { describe, expect, it } from 'vitest';
import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../model';
import { buildSnapshot, type Snapshot, type VolumeListers } from '../framework/node-info';
import { formatFitError } from '../framework/fit-error';
import { scheduleOne } from '../framework/schedule-one';
import { runPreemption } from '../framework/preemption';
import { createRng } from '../../runtime/rng';
import { DEFAULT_PROFILE } from './default-plugins';
import { defaultLabNodes, makeNode, makePod } from '../testing/factories';
import { delayedBindings, volumeBindingPlugin } from './volume-binding.plugin';

function claim(
  name: string,
  o: {
    cls?: string;
    volumeName?: string;
    bound?: boolean;
    phase?: 'Pending' | 'Bound' | 'Lost';
  } = {},
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      ...(o.bound ? { annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } } : {}),
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      ...(o.cls !== undefined ? { storageClassName: o.cls } : {}),
      ...(o.volumeName ? { volumeName: o.volumeName } : {}),
    },
    status: { phase: o.phase ?? (o.bound ? 'Bound' : 'Pending') },
  };
}

function volume(
  name: string,
  o: { cls?: string; onNode?: string; claim?: string; phase?: 'Available' | 'Bound' } = {},
): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      ...(o.cls !== undefined ? { storageClassName: o.cls } : {}),
      ...(o.claim
        ? { claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: o.claim } }
        : {}),
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
        : {}),
    },
    status: { phase: o.phase ?? 'Available' },
  };
}

function storageClass(
  name: string,
  mode: 'Immediate' | 'WaitForFirstConsumer',
  provisioner = 'example.com/csi',
): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    volumeBindingMode: mode,
  };
}

function listers(
  claims: PersistentVolumeClaim[],
  volumes: PersistentVolume[],
  classes: StorageClass[],
): VolumeListers {
  return {
    claim: (ns, n) => claims.find((c) => c.metadata.namespace === ns && c.metadata.name === n),
    volume: (n) => volumes.find((v) => v.metadata.name === n),
    storageClass: (n) => classes.find((c) => c.metadata.name === n),
    volumes: () => volumes,
  };
}

function podWithClaims(name: string, ...claims: string[]): Pod {
  return makePod(name, {
    spec: {
      volumes: claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } })),
    },
  });
}

const WFFC_LOCAL = storageClass(
  'local-storage',
  'WaitForFirstConsumer',
  'kubernetes.io/no-provisioner',
);
const WFFC_CSI = storageClass('csi-wffc', 'WaitForFirstConsumer');
const IMMEDIATE = storageClass('standard', 'Immediate');

describe('VolumeBinding PreFilter', () => {
  const cases: {
    name: string;
    pod: Pod;
    claims?: PersistentVolumeClaim[];
    classes?: StorageClass[];
    want: string;
    reasons?: string[];
  }[] = [
    { name: 'should skip a pod without claims', pod: makePod('p'), want: 'Skip' },
    {
      name: 'should reject a pod whose claim does not exist',
      pod: podWithClaims('p', 'data'),
      want: 'UnschedulableAndUnresolvable',
      reasons: ['persistentvolumeclaim "data" not found'],
    },
    {
      name: 'should reject an unbound claim without a class',
      pod: podWithClaims('p', 'data'),
      claims: [claim('data')],
      want: 'UnschedulableAndUnresolvable',
      reasons: ['pod has unbound immediate PersistentVolumeClaims'],
    },
    {
      name: 'should reject an unbound claim of an Immediate class',
      pod: podWithClaims('p', 'data'),
      claims: [claim('data', { cls: 'standard' })],
      classes: [IMMEDIATE],
      want: 'UnschedulableAndUnresolvable',
      reasons: ['pod has unbound immediate PersistentVolumeClaims'],
    },
    {
      name: 'should treat a claim of an unknown class as Immediate',
      pod: podWithClaims('p', 'data'),
      claims: [claim('data', { cls: 'missing' })],
      want: 'UnschedulableAndUnresolvable',
      reasons: ['pod has unbound immediate PersistentVolumeClaims'],
    },
    {
      name: 'should reject a lost claim',
      pod: podWithClaims('p', 'data'),
      claims: [claim('data', { volumeName: 'gone', phase: 'Lost', bound: true })],
      want: 'UnschedulableAndUnresolvable',
      reasons: ['persistentvolumeclaim "data" bound to non-existent persistentvolume "gone"'],
    },
    {
      name: 'should pass a bound claim',
      pod: podWithClaims('p', 'data'),
      claims: [claim('data', { volumeName: 'pv-1', bound: true })],
      want: 'Success',
    },
    {
      name: 'should pass an unbound WaitForFirstConsumer claim',
      pod: podWithClaims('p', 'data'),
      claims: [claim('data', { cls: 'csi-wffc' })],
      classes: [WFFC_CSI],
      want: 'Success',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const snap = buildSnapshot([makeNode('n')], [], {
        volumes: listers(c.claims ?? [], [], c.classes ?? []),
      });
      const r = volumeBindingPlugin.preFilter!(c.pod, snap);
      expect(r.status.code).toBe(c.want);
      if (c.reasons) expect(r.status).toEqual({ code: c.want, reasons: c.reasons });
    });
  }
});

describe('VolumeBinding Filter', () => {
  const cases: {
    name: string;
    claims: PersistentVolumeClaim[];
    volumes: PersistentVolume[];
    classes?: StorageClass[];
    node: string;
    reasons: string[];
  }[] = [
    {
      name: 'should pass the node a bound local volume lives on',
      claims: [claim('data', { volumeName: 'local-1', bound: true })],
      volumes: [volume('local-1', { onNode: 'node-1', claim: 'data', phase: 'Bound' })],
      node: 'node-1',
      reasons: [],
    },
    {
      name: 'should reject other nodes for a bound local volume',
      claims: [claim('data', { volumeName: 'local-1', bound: true })],
      volumes: [volume('local-1', { onNode: 'node-1', claim: 'data', phase: 'Bound' })],
      node: 'node-2',
      reasons: ['node(s) had volume node affinity conflict'],
    },
    {
      name: 'should reject every node when the bound volume is gone',
      claims: [claim('data', { volumeName: 'local-1', bound: true })],
      volumes: [],
      node: 'node-1',
      reasons: ['node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)'],
    },
    {
      name: 'should pass a delayed claim on the node of an available local volume',
      claims: [claim('data', { cls: 'local-storage' })],
      volumes: [volume('local-1', { cls: 'local-storage', onNode: 'node-2' })],
      classes: [WFFC_LOCAL],
      node: 'node-2',
      reasons: [],
    },
    {
      name: 'should reject a delayed claim where no local volume is and none can be provisioned',
      claims: [claim('data', { cls: 'local-storage' })],
      volumes: [volume('local-1', { cls: 'local-storage', onNode: 'node-2' })],
      classes: [WFFC_LOCAL],
      node: 'node-1',
      reasons: ["node(s) didn't find available persistent volumes to bind"],
    },
    {
      name: 'should pass a delayed claim a provisioner can serve on any node',
      claims: [claim('data', { cls: 'csi-wffc' })],
      volumes: [],
      classes: [WFFC_CSI],
      node: 'node-1',
      reasons: [],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const snap = buildSnapshot(defaultLabNodes(), [], {
        volumes: listers(c.claims, c.volumes, c.classes ?? []),
      });
      const pod = podWithClaims('p', ...c.claims.map((x) => x.metadata.name ?? ''));
      const pre = volumeBindingPlugin.preFilter!(pod, snap);
      expect(pre.status.code).toBe('Success');
      const s = volumeBindingPlugin.filter(pod, snap.get(c.node)!, pre.state, snap);
      if (c.reasons.length === 0) expect(s).toEqual({ code: 'Success' });
      else expect(s).toEqual({ code: 'UnschedulableAndUnresolvable', reasons: c.reasons });
    });
  }
});

describe('VolumeBinding in the scheduling cycle', () => {
  function fitError(pod: Pod, snap: Snapshot): string {
    const out = scheduleOne({
      pod,
      snapshot: snap,
      profile: DEFAULT_PROFILE,
      rng: createRng(1),
      t: 0,
      attempt: 1,
      startIndex: 0,
    });
    expect(out.result.kind).toBe('unschedulable');
    if (out.result.kind !== 'unschedulable') return '';
    const diagnosis = out.result.diagnosis;
    diagnosis.postFilterMsg = runPreemption(pod, snap, diagnosis, DEFAULT_PROFILE).message;
    return formatFitError(snap.nodes.length, diagnosis);
  }

  it('should print the PreFilter message for an unbound immediate claim', () => {
    const snap = buildSnapshot(defaultLabNodes(), [], {
      volumes: listers([claim('data')], [], []),
    });
    expect(fitError(podWithClaims('p', 'data'), snap)).toBe(
      '0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
    );
  });

  it('should print the missing claim as the PreFilter message', () => {
    const snap = buildSnapshot(defaultLabNodes(), [], { volumes: listers([], [], []) });
    expect(fitError(podWithClaims('p', 'x'), snap)).toBe(
      '0/4 nodes are available: persistentvolumeclaim "x" not found. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
    );
  });

  it('should count the node affinity conflict per node in the histogram', () => {
    const snap = buildSnapshot(
      [...defaultLabNodes().filter((n) => n.metadata.name !== 'node-1')],
      [],
      {
        volumes: listers(
          [claim('data', { volumeName: 'local-1', bound: true })],
          [volume('local-1', { onNode: 'node-1', claim: 'data', phase: 'Bound' })],
          [],
        ),
      },
    );
    expect(fitError(podWithClaims('p', 'data'), snap)).toBe(
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
  });

  it('should pick the local volume for the chosen node and provision otherwise', () => {
    const nodes: Node[] = defaultLabNodes();
    const l = listers(
      [claim('a', { cls: 'local-storage' }), claim('b', { cls: 'csi-wffc' })],
      [volume('local-1', { cls: 'local-storage', onNode: 'node-2' })],
      [WFFC_LOCAL, WFFC_CSI],
    );
    const node2 = nodes.find((n) => n.metadata.name === 'node-2')!;
    const got = delayedBindings([l.claim('default', 'a')!, l.claim('default', 'b')!], node2, l);
    expect(got?.map((b) => [b.kind, b.claim.metadata.name])).toEqual([
      ['static', 'a'],
      ['provision', 'b'],
    ]);
  });
});
