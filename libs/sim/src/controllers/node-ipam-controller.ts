// The node IPAM controller (k/k pkg/controller/nodeipam, range allocator): carves the cluster pod
// CIDR 10.244.0.0/16 into one /24 per node and writes it to spec.podCIDR. The CNI plugin on the
// node then hands pod IPs out of that range, which is why a pod's IP tells you its node.

import type { WatchEvent } from '../client/api-client';
import type { Node } from '../model';
import type { Pass } from './base-controller';
import { BaseController, isOk, refOf, type SyncResult } from './base-controller';
import { creationMs } from './deployment-util';

const CLUSTER_CIDR_PREFIX = '10.244';
const MAX_NODES = 256;
const CONTROL_PLANE_LABEL = 'node-role.kubernetes.io/control-plane';

export function cidrIndex(cidr: string | undefined): number | undefined {
  const m = cidr?.match(/^10\.244\.(\d+)\.0\/24$/);
  return m ? Number(m[1]) : undefined;
}

/** Order in which unassigned nodes get a range: control-plane first, then by registration. */
export function allocationOrder(a: Node, b: Node): number {
  const cp = (n: Node): number => (n.metadata.labels?.[CONTROL_PLANE_LABEL] !== undefined ? 0 : 1);
  if (cp(a) !== cp(b)) return cp(a) - cp(b);
  const t = creationMs(a) - creationMs(b);
  if (t !== 0) return t;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

/** Pure allocation: node name → CIDR for every node that has none, lowest free /24 first. */
export function planCidrs(nodes: Node[]): Map<string, string> {
  const used = new Set<number>();
  for (const n of nodes) {
    const i = cidrIndex(n.spec?.podCIDR);
    if (i !== undefined) used.add(i);
  }
  const plan = new Map<string, string>();
  let next = 0;
  for (const n of nodes.filter((x) => !x.spec?.podCIDR).sort(allocationOrder)) {
    while (used.has(next)) next++;
    if (next >= MAX_NODES) break;
    used.add(next);
    plan.set(n.metadata.name as string, `${CLUSTER_CIDR_PREFIX}.${next}.0/24`);
  }
  return plan;
}

export class NodeIpamController extends BaseController {
  readonly controllerName = 'nodeipam';
  readonly eventSource = 'cidrAllocator';
  readonly periodMs = 10_000;

  constructor() {
    super(['nodes']);
  }

  protected keysFor(_resource: string, ev: WatchEvent): string[] {
    return ev.type === 'DELETED' || (ev.object as Node).spec?.podCIDR ? [] : ['*'];
  }

  protected allKeys(): string[] {
    return ['*'];
  }

  protected syncKey(_key: string, pass: Pass, cause: number | undefined): SyncResult {
    const nodes = this.informer<Node>('nodes').list();
    const plan = planCidrs(nodes);
    let ok = true;
    for (const node of nodes
      .filter((n) => plan.has(n.metadata.name as string))
      .sort(allocationOrder)) {
      const cidr = plan.get(node.metadata.name as string) as string;
      const res = pass.write(
        {
          verb: 'patch',
          resource: 'nodes',
          name: node.metadata.name,
          patchType: 'merge',
          body: { spec: { podCIDR: cidr, podCIDRs: [cidr] } },
        },
        refOf(node),
        `Assigning pod CIDR ${cidr} to Node ${node.metadata.name}`,
        cause,
      );
      if (!isOk(res)) {
        ok = false;
        break; // keep the order: a later node must not take this node's range
      }
    }
    return ok ? 'done' : 'retry';
  }
}
