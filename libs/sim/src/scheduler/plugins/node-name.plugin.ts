// NodeName (pkg/scheduler/framework/plugins/nodename): a pod that already names its node only
// fits that node. The scheduler only picks up pods with an empty nodeName, so in practice this
// plugin matters when preemption re-runs the filters.

import type { FilterPlugin, Status } from '../framework/plugin-types';
import { SUCCESS, unresolvable } from '../framework/plugin-types';

export const NODE_NAME = 'NodeName';
export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

export const nodeNamePlugin: FilterPlugin = {
  name: NODE_NAME,
  events: ['NodeAdd'],
  filter(pod, node): Status {
    const wanted = pod.spec.nodeName;
    return !wanted || wanted === node.name ? SUCCESS : unresolvable(ERR_REASON_NODE_NAME);
  },
};
