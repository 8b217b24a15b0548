// NodeUnschedulable (pkg/scheduler/framework/plugins/nodeunschedulable): a cordoned node
// (spec.unschedulable) takes no new pods, unless the pod tolerates the
// node.kubernetes.io/unschedulable:NoSchedule taint (DaemonSet pods do).

import type { FilterPlugin, Status } from '../framework/plugin-types';
import { SUCCESS, unresolvable } from '../framework/plugin-types';
import { tolerationsTolerateTaint } from './taint-toleration.plugin';

export const NODE_UNSCHEDULABLE = 'NodeUnschedulable';
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

export const nodeUnschedulablePlugin: FilterPlugin = {
  name: NODE_UNSCHEDULABLE,
  events: ['NodeAdd', 'NodeTaint', 'UnscheduledPodUpdate'],
  filter(pod, node): Status {
    if (!node.unschedulable) return SUCCESS;
    const tolerated = tolerationsTolerateTaint(pod.spec.tolerations, {
      key: TAINT_NODE_UNSCHEDULABLE,
      effect: 'NoSchedule',
    });
    return tolerated ? SUCCESS : unresolvable(ERR_REASON_UNSCHEDULABLE);
  },
};
