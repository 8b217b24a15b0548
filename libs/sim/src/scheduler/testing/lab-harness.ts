// Runs the real lab with this scheduler wired in. Until every kubelet registers its own Node, the
// harness registers missing Nodes as the admin would (same shape the kubelet posts: capacity,
// allocatable, labels, taints, cached images), so scheduler tests do not depend on kubelet work.

import type { LabOptions } from '../../lab/lab-types';
import type { SimLab } from '../../lab/lab';
import { createLab } from '../../lab/lab';
import { componentFactories } from '../../lab/components';
import type { Node, Pod } from '../../model';
import { createScheduler, type Scheduler } from '..';

export const ADMIN = 'kubernetes-admin';

export function createSchedulerLab(options: LabOptions = {}): SimLab {
  componentFactories.createScheduler = () => createScheduler();
  const lab = createLab(options);
  lab.advance(200);
  lab.options.nodes.forEach((spec, i) => {
    if (lab.peek('nodes', undefined, spec.name)) return;
    const capacity = { cpu: '2', memory: '4Gi', pods: '110', ...(spec.capacity ?? {}) };
    const node: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: spec.name,
        labels: {
          'kubernetes.io/hostname': spec.name,
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          ...(spec.labels ?? {}),
        },
      },
      spec: {
        podCIDR: `10.244.${i}.0/24`,
        ...(spec.taints && spec.taints.length > 0 ? { taints: spec.taints } : {}),
      },
      status: {
        capacity,
        allocatable: capacity,
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
        images: (spec.cachedImages ?? ['registry.k8s.io/pause:3.10', 'nginx:1.27']).map((n) => ({
          names: [n],
          sizeBytes: 70 * 1024 * 1024,
        })),
      },
    };
    const res = lab.request(ADMIN, { verb: 'create', resource: 'nodes', body: node });
    if (res.code !== 201) throw new Error(`node ${spec.name}: ${JSON.stringify(res.body)}`);
    const created = res.body as Node;
    if (!created.status?.allocatable) {
      lab.request(ADMIN, {
        verb: 'update',
        resource: 'nodes',
        name: spec.name,
        subresource: 'status',
        body: { ...created, status: node.status },
      });
    }
  });
  lab.advance(100);
  return lab;
}

export function schedulerOf(lab: SimLab): Scheduler {
  return lab.scheduler as unknown as Scheduler;
}

export function podManifest(
  name: string,
  o: {
    cpu?: string;
    memory?: string;
    labels?: Record<string, string>;
    spec?: Partial<Pod['spec']>;
  } = {},
): Pod {
  const requests: Record<string, string> = {};
  if (o.cpu) requests['cpu'] = o.cpu;
  if (o.memory) requests['memory'] = o.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: o.labels ?? { app: name } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'nginx:1.27',
          ...(Object.keys(requests).length ? { resources: { requests } } : {}),
        },
      ],
      ...(o.spec ?? {}),
    },
  };
}

export function createPod(lab: SimLab, pod: Pod): void {
  const res = lab.request(ADMIN, {
    verb: 'create',
    resource: 'pods',
    namespace: 'default',
    body: pod,
  });
  if (res.code !== 201) throw new Error(`pod ${pod.metadata.name}: ${JSON.stringify(res.body)}`);
}

export function getPod(lab: SimLab, name: string): Pod {
  return lab.peek('pods', 'default', name) as Pod;
}
