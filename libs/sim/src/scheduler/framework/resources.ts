// Resource arithmetic of the scheduler (k8s.io/component-helpers/resource PodRequests and
// framework.Resource): CPU in millicores, memory and ephemeral storage in bytes, extended
// resources as integer counts. Pods are accounted by *requests*, never by limits or usage.

import type { Container, Pod, ResourceList } from '../../model';
import { intValue, milliCpu } from '../../shared/quantity';

export interface Resources {
  milliCpu: number;
  memory: number;
  ephemeralStorage: number;
  /** extended resources, e.g. `nvidia.com/gpu` */
  scalar: Record<string, number>;
}

/** schedutil.DefaultMilliCPURequest / DefaultMemoryRequest: the "non-zero" defaults for scoring. */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

export function emptyResources(): Resources {
  return { milliCpu: 0, memory: 0, ephemeralStorage: 0, scalar: {} };
}

export function fromResourceList(list: ResourceList | undefined): Resources {
  const r = emptyResources();
  for (const [name, q] of Object.entries(list ?? {})) {
    if (name === 'cpu') r.milliCpu = milliCpu(q);
    else if (name === 'memory') r.memory = intValue(q);
    else if (name === 'ephemeral-storage') r.ephemeralStorage = intValue(q);
    else if (name !== 'pods') r.scalar[name] = intValue(q);
  }
  return r;
}

export function addResources(a: Resources, b: Resources): Resources {
  const scalar = { ...a.scalar };
  for (const [k, v] of Object.entries(b.scalar)) scalar[k] = (scalar[k] ?? 0) + v;
  return {
    milliCpu: a.milliCpu + b.milliCpu,
    memory: a.memory + b.memory,
    ephemeralStorage: a.ephemeralStorage + b.ephemeralStorage,
    scalar,
  };
}

function maxResources(a: Resources, b: Resources): Resources {
  const scalar = { ...a.scalar };
  for (const [k, v] of Object.entries(b.scalar)) scalar[k] = Math.max(scalar[k] ?? 0, v);
  return {
    milliCpu: Math.max(a.milliCpu, b.milliCpu),
    memory: Math.max(a.memory, b.memory),
    ephemeralStorage: Math.max(a.ephemeralStorage, b.ephemeralStorage),
    scalar,
  };
}

export interface PodRequestOptions {
  /**
   * NonMissingContainerRequests: a container that does not state a cpu / memory request is
   * counted with 100m / 200Mi, so that many request-less pods do not all land on one node.
   */
  nonMissingDefaults?: boolean;
}

function containerRequests(c: Container, opts: PodRequestOptions): Resources {
  // The apiserver defaults requests to limits when only limits are given; do the same here so a
  // pod written with limits only is accounted as the real scheduler would see it.
  const list: ResourceList = { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) };
  const r = fromResourceList(list);
  if (opts.nonMissingDefaults) {
    if (!('cpu' in list)) r.milliCpu = DEFAULT_MILLI_CPU_REQUEST;
    if (!('memory' in list)) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

/**
 * resourcehelper.PodRequests: the sum of the app containers, plus restartable (sidecar) init
 * containers, and at least the largest init container (init containers run one at a time).
 */
export function podRequests(pod: Pod, opts: PodRequestOptions = {}): Resources {
  let reqs = emptyResources();
  for (const c of pod.spec.containers ?? []) reqs = addResources(reqs, containerRequests(c, opts));
  let sidecars = emptyResources();
  let initMax = emptyResources();
  for (const ic of pod.spec.initContainers ?? []) {
    let r = containerRequests(ic, opts);
    if (ic.restartPolicy === 'Always') {
      reqs = addResources(reqs, r);
      sidecars = addResources(sidecars, r);
      r = sidecars;
    } else {
      r = addResources(r, sidecars);
    }
    initMax = maxResources(initMax, r);
  }
  return maxResources(reqs, initMax);
}

export function hasAnyRequest(r: Resources): boolean {
  return (
    r.milliCpu > 0 ||
    r.memory > 0 ||
    r.ephemeralStorage > 0 ||
    Object.values(r.scalar).some((v) => v > 0)
  );
}
