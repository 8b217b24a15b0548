// Pure functions shared by the endpoints and endpointslice controllers: which pods back a
// Service, on which port, and whether they may receive traffic. Only ready pods are listed as
// ready addresses: the article's chain readinessProbe → Endpoints → kube-proxy starts here.

import type {
  EndpointAddress,
  EndpointPort,
  Endpoints,
  EndpointSlice,
  KubeObject,
  Pod,
  Service,
  ServicePort,
} from '../model';
import { stableStringify } from '../shared/hash';
import type { CurrentObjects } from '../runtime/component';
import { mapSelectorMatches } from '../shared/labels';
import { isPodReady, isPodTerminal } from './pod-util';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';
export const MAX_ENDPOINTS_PER_SLICE = 100;

/**
 * Whether a pod change may concern a Service (upstream's pod handlers queue the Services that
 * select the pod before or after the change, getPodServiceMemberships). A Service that stopped
 * selecting it, or went away, wakes the controller by its own change.
 */
export function podChangeConcernsServices(
  pod: KubeObject,
  prev: KubeObject | undefined,
  current: CurrentObjects,
): boolean {
  // Two controllers ask this of every pod change, and each listing copies the namespace's
  // Services: a pod never changes namespace, so one listing serves both versions.
  const namespace = pod.metadata.namespace ?? '';
  const services = current.list('services', namespace) as readonly Service[];
  if (selectedByAny(services, pod)) return true;
  if (prev === undefined) return false;
  const prevNamespace = prev.metadata.namespace ?? '';
  return selectedByAny(
    prevNamespace === namespace
      ? services
      : (current.list('services', prevNamespace) as readonly Service[]),
    prev,
  );
}

function selectedByAny(services: readonly Service[], pod: KubeObject): boolean {
  for (let i = 0; i < services.length; i++)
    if (mapSelectorMatches((services[i] as Service).spec.selector, pod.metadata.labels))
      return true;
  return false;
}

/** FindPort: a numeric targetPort is used as is; a named one is looked up in the containers. */
export function findPort(pod: Pod, sp: ServicePort): number | undefined {
  const target = sp.targetPort ?? sp.port;
  const protocol = sp.protocol ?? 'TCP';
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  for (const c of pod.spec.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
    }
  }
  return undefined;
}

function ipCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function addressOf(pod: Pod): EndpointAddress {
  return {
    ip: pod.status?.podIP as string,
    ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
    targetRef: {
      kind: 'Pod',
      namespace: pod.metadata.namespace,
      name: pod.metadata.name as string,
      uid: pod.metadata.uid,
    },
  };
}

/** The `subsets` of a Service's Endpoints (syncService + RepackSubsets). */
export function computeSubsets(service: Service, pods: Pod[]): NonNullable<Endpoints['subsets']> {
  const ports = service.spec.ports ?? [];
  const headless = service.spec.clusterIP === 'None';
  // address key → { address, ready, ports }
  const entries = new Map<
    string,
    { addr: EndpointAddress; ready: boolean; ports: EndpointPort[] }
  >();
  for (const pod of pods) {
    if (!pod.status?.podIP || isPodTerminal(pod) || pod.metadata.deletionTimestamp) continue;
    const ready = isPodReady(pod);
    const key = `${pod.status.podIP}|${pod.metadata.uid}|${ready}`;
    const entry = entries.get(key) ?? { addr: addressOf(pod), ready, ports: [] };
    if (ports.length === 0) {
      if (!headless) continue;
    } else {
      for (const sp of ports) {
        const port = findPort(pod, sp);
        if (port === undefined) continue;
        entry.ports.push({
          ...(sp.name ? { name: sp.name } : {}),
          port,
          protocol: sp.protocol ?? 'TCP',
        });
      }
      if (entry.ports.length === 0) continue;
    }
    entries.set(key, entry);
  }
  // Group addresses with the same set of ports into one subset.
  const groups = new Map<
    string,
    { ports: EndpointPort[]; ready: EndpointAddress[]; notReady: EndpointAddress[] }
  >();
  for (const e of entries.values()) {
    const sortedPorts = [...e.ports].sort((a, b) =>
      stableStringify(a).localeCompare(stableStringify(b)),
    );
    const sig = stableStringify(sortedPorts);
    const g = groups.get(sig) ?? { ports: sortedPorts, ready: [], notReady: [] };
    (e.ready ? g.ready : g.notReady).push(e.addr);
    groups.set(sig, g);
  }
  return [...groups.keys()].sort().map((sig) => {
    const g = groups.get(sig) as {
      ports: EndpointPort[];
      ready: EndpointAddress[];
      notReady: EndpointAddress[];
    };
    return {
      ...(g.ready.length ? { addresses: g.ready.sort((a, b) => ipCompare(a.ip, b.ip)) } : {}),
      ...(g.notReady.length
        ? { notReadyAddresses: g.notReady.sort((a, b) => ipCompare(a.ip, b.ip)) }
        : {}),
      ...(g.ports.length ? { ports: g.ports } : {}),
    };
  });
}

export type SliceEndpoint = EndpointSlice['endpoints'][number];
export type SlicePort = NonNullable<EndpointSlice['ports']>[number];

/** Endpoints of a Service's EndpointSlices, grouped by port set and cut into slices of 100. */
export function computeSliceGroups(
  service: Service,
  pods: Pod[],
): { ports: SlicePort[]; endpoints: SliceEndpoint[] }[] {
  const svcPorts = service.spec.ports ?? [];
  const groups = new Map<string, { ports: SlicePort[]; endpoints: SliceEndpoint[] }>();
  for (const pod of pods) {
    if (!pod.status?.podIP || isPodTerminal(pod)) continue;
    const ports: SlicePort[] = [];
    for (const sp of svcPorts) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      ports.push({ name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' });
    }
    if (svcPorts.length > 0 && ports.length === 0) continue;
    const ready = isPodReady(pod);
    const terminating = Boolean(pod.metadata.deletionTimestamp);
    const ep: SliceEndpoint = {
      addresses: [pod.status.podIP],
      conditions: { ready: ready && !terminating, serving: ready, terminating },
      ...(pod.spec.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      targetRef: {
        kind: 'Pod',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name as string,
        uid: pod.metadata.uid,
      },
    };
    const sig = stableStringify(ports);
    const g = groups.get(sig) ?? { ports, endpoints: [] };
    g.endpoints.push(ep);
    groups.set(sig, g);
  }
  const out: { ports: SlicePort[]; endpoints: SliceEndpoint[] }[] = [];
  for (const sig of [...groups.keys()].sort()) {
    const g = groups.get(sig) as { ports: SlicePort[]; endpoints: SliceEndpoint[] };
    const eps = g.endpoints.sort((a, b) =>
      ipCompare(a.addresses[0] as string, b.addresses[0] as string),
    );
    for (let i = 0; i < eps.length; i += MAX_ENDPOINTS_PER_SLICE) {
      out.push({ ports: g.ports, endpoints: eps.slice(i, i + MAX_ENDPOINTS_PER_SLICE) });
    }
  }
  return out;
}

/** Labels the controllers put on Endpoints / EndpointSlices: the Service's, plus their own. */
export function derivedLabels(service: Service, forSlice: boolean): Record<string, string> {
  const labels: Record<string, string> = { ...(service.metadata.labels ?? {}) };
  if (service.spec.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  if (forSlice) {
    labels[SERVICE_NAME_LABEL] = service.metadata.name as string;
    labels[MANAGED_BY_LABEL] = MANAGED_BY;
  }
  return labels;
}

export function serviceHasSelector(service: Service): boolean {
  return (
    Object.keys(service.spec.selector ?? {}).length > 0 && service.spec.type !== 'ExternalName'
  );
}
