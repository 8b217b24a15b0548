// kube-scheduler: the fifth station. It sees pods without a node, filters and scores the nodes,
// and writes one field — spec.nodeName, through the pods/binding subresource. The kubelet on
// that node does the rest.

import type { Component } from '../runtime/component';
import type { Scheduler as SchedulerView } from './scheduler.component';
import { KubeScheduler } from './scheduler.component';

export type {
  SchedulingDecision,
  NodeDecision,
  FilterVerdict,
  ScoreEntry,
} from './framework/decision';
export { formatFitError } from './framework/fit-error';
export { DEFAULT_PROFILE } from './plugins/default-plugins';

export interface Scheduler extends Component, SchedulerView {}

export function createScheduler(): Scheduler {
  return new KubeScheduler();
}
