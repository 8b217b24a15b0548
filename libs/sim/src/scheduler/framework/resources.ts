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
  if (!list) return r;
  for (const name of Object.keys(list)) setQuantity(r, name, list[name]);
  return r;
}

function setQuantity(r: Resources, name: string, q: string | undefined): void {
  if (name === 'cpu') r.milliCpu = milliCpu(q);
  else if (name === 'memory') r.memory = intValue(q);
  else if (name === 'ephemeral-storage') r.ephemeralStorage = intValue(q);
  else if (name !== 'pods') r.scalar[name] = intValue(q);
}

export function addResources(a: Resources, b: Resources): Resources {
  const scalar = { ...a.scalar };
  // for-in over own keys: Object.entries' order, without its pairs (most pods have no scalar)
  for (const k in b.scalar) {
    if (hasOwn(b.scalar, k)) scalar[k] = (scalar[k] ?? 0) + (b.scalar[k] as number);
  }
  return {
    milliCpu: a.milliCpu + b.milliCpu,
    memory: a.memory + b.memory,
    ephemeralStorage: a.ephemeralStorage + b.ephemeralStorage,
    scalar,
  };
}

function maxResources(a: Resources, b: Resources): Resources {
  const scalar = { ...a.scalar };
  for (const k in b.scalar) {
    if (hasOwn(b.scalar, k)) scalar[k] = Math.max(scalar[k] ?? 0, b.scalar[k] as number);
  }
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
  // pod written with limits only is accounted as the real scheduler would see it. The limits
  // with the requests over them, in that merged list's order, without making the list.
  const limits = c.resources?.limits;
  const requests = c.resources?.requests;
  const r = emptyResources();
  if (limits) {
    for (const name of Object.keys(limits)) {
      setQuantity(r, name, requests && hasOwn(requests, name) ? requests[name] : limits[name]);
    }
  }
  if (requests) {
    for (const name of Object.keys(requests)) {
      if (!limits || !hasOwn(limits, name)) setQuantity(r, name, requests[name]);
    }
  }
  if (opts.nonMissingDefaults) {
    if (!isListed('cpu', limits, requests)) r.milliCpu = DEFAULT_MILLI_CPU_REQUEST;
    if (!isListed('memory', limits, requests)) r.memory = DEFAULT_MEMORY_REQUEST;
  }
  return r;
}

function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

function isListed(
  name: string,
  limits: ResourceList | undefined,
  requests: ResourceList | undefined,
): boolean {
  return (!!limits && hasOwn(limits, name)) || (!!requests && hasOwn(requests, name));
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
