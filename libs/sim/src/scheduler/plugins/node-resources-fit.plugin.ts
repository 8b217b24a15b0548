// NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go): Filter checks that the
// pod's requests fit in allocatable minus what bound pods already requested, reporting every
// missing resource; Score is the LeastAllocated strategy (cpu and memory, weight 1 each), which
// favours emptier nodes and so spreads replicas.

import type { Pod } from '../../model';
import type { FilterPlugin, ScorePlugin, Status } from '../framework/plugin-types';
import { MAX_NODE_SCORE, SUCCESS, unschedulable } from '../framework/plugin-types';
import type { NodeInfo } from '../framework/node-info';
import { sumsOf } from '../framework/node-info';
import type { Resources } from '../framework/resources';
import { hasAnyRequest, podRequests } from '../framework/resources';

export const NODE_RESOURCES_FIT = 'NodeResourcesFit';
export const ERR_REASON_TOO_MANY_PODS = 'Too many pods';

export function insufficientReason(resource: string): string {
  return `Insufficient ${resource}`;
}

/** fitsRequest: reasons in upstream order (pods, cpu, memory, ephemeral-storage, extended). */
export function insufficientResources(req: Resources, node: NodeInfo): string[] {
  const reasons: string[] = [];
  if (node.pods.length + 1 > node.allowedPodNumber) reasons.push(ERR_REASON_TOO_MANY_PODS);
  if (!hasAnyRequest(req)) return reasons;
  const a = node.allocatable;
  const r = node.requested;
  if (req.milliCpu > 0 && req.milliCpu > a.milliCpu - r.milliCpu) {
    reasons.push(insufficientReason('cpu'));
  }
  if (req.memory > 0 && req.memory > a.memory - r.memory) {
    reasons.push(insufficientReason('memory'));
  }
  if (req.ephemeralStorage > 0 && req.ephemeralStorage > a.ephemeralStorage - r.ephemeralStorage) {
    reasons.push(insufficientReason('ephemeral-storage'));
  }
  // most pods request no extended resources: no key list to build and sort for every node
  if (isEmptyRecord(req.scalar)) return reasons;
  for (const name of Object.keys(req.scalar).sort()) {
    const q = req.scalar[name] ?? 0;
    if (q === 0) continue;
    if (q > (a.scalar[name] ?? 0) - (r.scalar[name] ?? 0)) reasons.push(insufficientReason(name));
  }
  return reasons;
}

/** Whether insufficientResources finds nothing, without building its list (run per node). */
function fitsRequest(req: Resources, node: NodeInfo): boolean {
  // the node's flat numbers for pods, cpu and memory; its objects only for the rarer resources
  if (node.numPods + 1 > node.allowedPodNumber) return false;
  if (!hasAnyRequest(req)) return true;
  if (req.milliCpu > 0 && req.milliCpu > node.allocatableMilliCpu - node.requestedMilliCpu)
    return false;
  if (req.memory > 0 && req.memory > node.allocatableMemory - node.requestedMemory) return false;
  if (
    req.ephemeralStorage > 0 &&
    req.ephemeralStorage > node.allocatable.ephemeralStorage - node.requested.ephemeralStorage
  )
    return false;
  return isEmptyRecord(req.scalar) || insufficientResources(req, node).length === 0;
}

function isEmptyRecord(o: Record<string, unknown>): boolean {
  for (const key in o) if (Object.prototype.hasOwnProperty.call(o, key)) return false;
  return true;
}

/** leastRequestedScore: (capacity - requested) * 100 / capacity, integer division. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** LeastAllocated over cpu and memory with equal weights, on non-zero (defaulted) requests. */
export function leastAllocatedScore(pod: Pod, node: NodeInfo, podNonZero?: Resources): number {
  const req = podNonZero ?? podRequests(pod, { nonMissingDefaults: true });
  // cpu then memory, unrolled: this runs for every feasible node of every cycle
  let sum = 0;
  let weights = 0;
  const cpuAlloc = node.allocatableMilliCpu;
  if (cpuAlloc !== 0) {
    sum += leastRequestedScore(node.nonZeroMilliCpu + req.milliCpu, cpuAlloc);
    weights += 1;
  }
  const memoryAlloc = node.allocatableMemory;
  if (memoryAlloc !== 0) {
    sum += leastRequestedScore(node.nonZeroMemory + req.memory, memoryAlloc);
    weights += 1;
  }
  return weights === 0 ? 0 : Math.trunc(sum / weights);
}

export const nodeResourcesFitPlugin: FilterPlugin<Resources> & ScorePlugin<Resources> = {
  name: NODE_RESOURCES_FIT,
  events: ['NodeAdd', 'NodeAllocatable', 'AssignedPodDelete', 'UnscheduledPodUpdate'],
  preFilter(pod) {
    // the pod's sums as the cache keeps them (computed once per pod, not once per cycle)
    return { status: SUCCESS, state: sumsOf(pod).req };
  },
  filter(pod, node, state): Status {
    const req = state ?? podRequests(pod);
    if (fitsRequest(req, node)) return SUCCESS;
    return unschedulable(...insufficientResources(req, node));
  },
  preScore(pod) {
    return { skip: false, state: sumsOf(pod).nonZero };
  },
  score(pod, node, state) {
    return leastAllocatedScore(pod, node, state);
  },
};
