// NodePorts (pkg/scheduler/framework/plugins/nodeports): a hostPort can be taken once per node
// (per protocol and host IP; 0.0.0.0 conflicts with every IP).

import type { FilterPlugin, Status } from '../framework/plugin-types';
import { SKIP, SUCCESS, unschedulable } from '../framework/plugin-types';
import type { HostPort } from '../framework/node-info';
import { podHostPorts } from '../framework/node-info';

export const NODE_PORTS = 'NodePorts';
export const ERR_REASON_PORTS = "node(s) didn't have free ports for the requested pod ports";

function conflicts(a: HostPort, b: HostPort): boolean {
  if (a.port !== b.port || a.protocol !== b.protocol) return false;
  return a.ip === b.ip || a.ip === '0.0.0.0' || b.ip === '0.0.0.0';
}

export const nodePortsPlugin: FilterPlugin<HostPort[]> = {
  name: NODE_PORTS,
  events: ['NodeAdd', 'AssignedPodDelete'],
  preFilter(pod) {
    const wanted = podHostPorts(pod);
    return wanted.length === 0 ? { status: SKIP } : { status: SUCCESS, state: wanted };
  },
  filter(pod, node, state): Status {
    const wanted = state ?? podHostPorts(pod);
    const clash = wanted.some((w) => node.usedPorts.some((u) => conflicts(w, u)));
    return clash ? unschedulable(ERR_REASON_PORTS) : SUCCESS;
  },
};
