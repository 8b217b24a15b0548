// Test data factories for scheduler tests: nodes and pods in their official shapes, with only the
// fields a test cares about spelled out.

import type { Container, Node, Pod, PodSpec, Taint } from '../../model';
import { buildSnapshot, type Snapshot } from '../framework/node-info';

export interface NodeOptions {
  cpu?: string;
  memory?: string;
  pods?: string;
  labels?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
}

export function makeNode(name: string, o: NodeOptions = {}): Node {
  const allocatable = { cpu: o.cpu ?? '2', memory: o.memory ?? '4Gi', pods: o.pods ?? '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...(o.labels ?? {}) },
    },
    spec: {
      ...(o.taints ? { taints: o.taints } : {}),
      ...(o.unschedulable ? { unschedulable: true } : {}),
    },
    status: { capacity: { ...allocatable }, allocatable, images: o.images ?? [] },
  };
}

export const CONTROL_PLANE_TAINT: Taint = {
  key: 'node-role.kubernetes.io/control-plane',
  effect: 'NoSchedule',
};

/** The default lab topology: a tainted control-plane plus node-1..node-3, 2 CPU / 4Gi each. */
export function defaultLabNodes(): Node[] {
  return [
    makeNode('control-plane', {
      labels: { 'node-role.kubernetes.io/control-plane': '' },
      taints: [CONTROL_PLANE_TAINT],
    }),
    makeNode('node-1'),
    makeNode('node-2'),
    makeNode('node-3'),
  ];
}

export interface PodOptions {
  namespace?: string;
  cpu?: string;
  memory?: string;
  image?: string;
  nodeName?: string;
  labels?: Record<string, string>;
  priority?: number;
  hostPort?: number;
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed';
  spec?: Partial<PodSpec>;
  containers?: Container[];
  ownerReplicaSet?: string;
}

export function makePod(name: string, o: PodOptions = {}): Pod {
  const requests: Record<string, string> = {};
  if (o.cpu) requests['cpu'] = o.cpu;
  if (o.memory) requests['memory'] = o.memory;
  const container: Container = {
    name: 'app',
    image: o.image ?? 'nginx:1.27',
    ...(Object.keys(requests).length > 0 ? { resources: { requests } } : {}),
    ...(o.hostPort ? { ports: [{ containerPort: 80, hostPort: o.hostPort }] } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: `uid-${name}`,
      labels: o.labels ?? {},
      ...(o.ownerReplicaSet
        ? {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                name: o.ownerReplicaSet,
                uid: `uid-${o.ownerReplicaSet}`,
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: {
      containers: o.containers ?? [container],
      schedulerName: 'default-scheduler',
      ...(o.nodeName ? { nodeName: o.nodeName } : {}),
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.spec ?? {}),
    },
    status: { phase: o.phase ?? 'Pending' },
  };
}

export function snapshotOf(nodes: Node[], pods: Pod[] = []): Snapshot {
  return buildSnapshot(nodes, pods);
}
