// NodeResourcesBalancedAllocation (noderesources/balanced_allocation.go): prefers nodes whose cpu
// and memory would be used in equal proportion after placing the pod: 100 * (1 - std), where for
// two resources std = |fcpu - fmem| / 2. v1.32 scores on the real requests (no 100m/200Mi
// defaults) and still scores best-effort pods (the skip arrived in v1.33).

import type { ScorePlugin } from '../framework/plugin-types';
import { MAX_NODE_SCORE } from '../framework/plugin-types';
import type { Resources } from '../framework/resources';
import { podRequests } from '../framework/resources';
import { sumsOf } from '../framework/node-info';

export const NODE_RESOURCES_BALANCED_ALLOCATION = 'NodeResourcesBalancedAllocation';

export function balancedResourceScore(requested: number[], allocatable: number[]): number {
  const fractions: number[] = [];
  let total = 0;
  requested.forEach((req, i) => {
    const alloc = allocatable[i] ?? 0;
    if (alloc === 0) return;
    const f = Math.min(req / alloc, 1);
    total += f;
    fractions.push(f);
  });
  let std = 0;
  if (fractions.length === 2) {
    std = Math.abs(((fractions[0] as number) - (fractions[1] as number)) / 2);
  } else if (fractions.length > 2) {
    const mean = total / fractions.length;
    std = Math.sqrt(fractions.reduce((s, f) => s + (f - mean) * (f - mean), 0) / fractions.length);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/**
 * balancedResourceScore for cpu and memory, without its arrays (it runs for every feasible node
 * of every cycle): the same arithmetic, in the same order.
 */
function balancedCpuMemoryScore(
  cpu: number,
  cpuAlloc: number,
  memory: number,
  memoryAlloc: number,
): number {
  // fewer than two fractions: no spread at all
  if ((cpuAlloc ?? 0) === 0 || (memoryAlloc ?? 0) === 0) return Math.trunc(MAX_NODE_SCORE);
  const fcpu = Math.min(cpu / cpuAlloc, 1);
  const fmem = Math.min(memory / memoryAlloc, 1);
  return Math.trunc((1 - Math.abs((fcpu - fmem) / 2)) * MAX_NODE_SCORE);
}

export const balancedAllocationPlugin: ScorePlugin<Resources> = {
  name: NODE_RESOURCES_BALANCED_ALLOCATION,
  preScore(pod) {
    return { skip: false, state: sumsOf(pod).req };
  },
  score(pod, node, state) {
    const req = state ?? podRequests(pod);
    return balancedCpuMemoryScore(
      node.requestedMilliCpu + req.milliCpu,
      node.allocatableMilliCpu,
      node.requestedMemory + req.memory,
      node.allocatableMemory,
    );
  },
};
