// The endpointslice controller (k/k pkg/controller/endpointslice): the scalable successor of
// Endpoints, and what kube-proxy reads in v1.32. Each Service with a selector gets slices named
// `<service>-<5 chars>` (generateName), labelled kubernetes.io/service-name, owned by the Service,
// with every pod that has an IP and its conditions: ready, serving, terminating.

import type { WatchEvent } from '../client/api-client';
import type { EndpointSlice, OwnerReference, Pod, Service } from '../model';
import { stableStringify } from '../shared/hash';
import { mapSelectorMatches } from '../shared/labels';
import type { CurrentObjects, ObservedChange } from '../runtime/component';
import type { Pass } from './base-controller';
import {
  BaseController,
  isOk,
  keyOf,
  lookup,
  refOf,
  splitKey,
  type SyncResult,
} from './base-controller';
import {
  byNamespace,
  byNamespacedLabel,
  byTargetPod,
  Index,
  LazyIndex,
  selectorIndexValue,
} from './indexer';
import {
  computeSliceGroups,
  derivedLabels,
  MANAGED_BY,
  MANAGED_BY_LABEL,
  podChangeConcernsServices,
  SERVICE_NAME_LABEL,
  serviceHasSelector,
  type SliceEndpoint,
  type SlicePort,
} from './service-endpoints';

export class EndpointSliceController extends BaseController {
  readonly controllerName = 'endpointslice';
  readonly eventSource = 'endpoint-slice-controller';
  readonly periodMs = 5_000;
  private readonly podsByLabel = new LazyIndex(byNamespacedLabel, () => this.informer('pods'));
  private readonly servicesByNs = new Index(byNamespace);
  private readonly slicesByPod = new Index(byTargetPod);
  private readonly slicesByService = new Index((o) => {
    const svc = o.metadata.labels?.[SERVICE_NAME_LABEL];
    return svc && o.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY
      ? [`${o.metadata.namespace}/${svc}`]
      : [];
  });

  constructor() {
    super(['services', 'pods', 'endpointslices']);
  }

  protected override observe(resource: string, events: WatchEvent[]): void {
    if (resource === 'pods') this.podsByLabel.apply(events);
    else if (resource === 'services') this.servicesByNs.apply(events);
    else {
      this.slicesByPod.apply(events);
      this.slicesByService.apply(events);
    }
  }

  /** Only pods a Service selects, before or after the change, concern it. */
  override wakeOn({ resource, object, prev }: ObservedChange, current: CurrentObjects): boolean {
    return resource !== 'pods' || podChangeConcernsServices(object, prev, current);
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    const obj = ev.object;
    if (resource === 'services') return [keyOf(obj)];
    if (resource === 'endpointslices') {
      const svc = obj.metadata.labels?.[SERVICE_NAME_LABEL];
      return svc && obj.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY
        ? [`${obj.metadata.namespace}/${svc}`]
        : [];
    }
    // most pod events concern no Service: the few keys are deduplicated in an array rather than
    // through a Set made for each event
    const keys: string[] = [];
    // the indexes' own sorted arrays, read before the next apply
    for (const sliceKey of this.slicesByPod.sortedKeys(keyOf(obj))) {
      const { namespace, name } = splitKey(sliceKey);
      const svc = this.informer<EndpointSlice>('endpointslices').get(namespace, name)?.metadata
        .labels?.[SERVICE_NAME_LABEL];
      if (svc) pushNew(keys, `${namespace}/${svc}`);
    }
    const services = this.informer<Service>('services');
    for (const serviceKey of this.servicesByNs.sortedKeys(obj.metadata.namespace ?? '')) {
      const svc = services.getByKey(serviceKey);
      if (svc && mapSelectorMatches(svc.spec.selector, obj.metadata.labels))
        pushNew(keys, keyOf(svc));
    }
    return keys;
  }

  protected allKeys(): string[] {
    return this.informer<Service>('services').list().map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const { namespace, name } = splitKey(key);
    const svc = this.informer<Service>('services').get(namespace, name);
    // Slices of a deleted Service are removed by the garbage collector (ownerReferences).
    if (!svc || svc.metadata.deletionTimestamp || !serviceHasSelector(svc)) return 'done';
    const existing = lookup(
      this.informer<EndpointSlice>('endpointslices'),
      this.slicesByService.keys(key),
    ).sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    const groups = computeSliceGroups(svc, this.podsFor(svc));
    // A Service without endpoints still gets one (empty) placeholder slice.
    const desired = groups.length
      ? groups
      : [{ ports: [] as SlicePort[], endpoints: [] as SliceEndpoint[] }];
    const labels = derivedLabels(svc, true);
    let ok = true;
    for (let i = 0; i < desired.length; i++) {
      const want = desired[i] as { ports: SlicePort[]; endpoints: SliceEndpoint[] };
      const have = existing[i];
      const summary = describe(want.endpoints);
      if (!have) {
        const body: EndpointSlice = {
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          metadata: {
            generateName: `${name}-`,
            namespace,
            labels,
            ownerReferences: [ownerRefTo(svc)],
          },
          addressType: 'IPv4',
          endpoints: want.endpoints,
          ports: want.ports,
        };
        const res = pass.write(
          { verb: 'create', resource: 'endpointslices', namespace, body },
          { kind: 'EndpointSlice', namespace, name: `${name}-` },
          `Creating EndpointSlice ${name}-<random> for Service ${name}: ${summary}`,
          cause,
        );
        ok &&= isOk(res);
        continue;
      }
      if (
        stableStringify(have.endpoints ?? []) === stableStringify(want.endpoints) &&
        stableStringify(have.ports ?? []) === stableStringify(want.ports) &&
        stableStringify(have.metadata.labels ?? {}) === stableStringify(labels)
      ) {
        continue;
      }
      const res = pass.write(
        {
          verb: 'update',
          resource: 'endpointslices',
          namespace,
          name: have.metadata.name,
          body: {
            ...have,
            metadata: { ...have.metadata, labels },
            endpoints: want.endpoints,
            ports: want.ports,
          },
        },
        refOf(have),
        `Updating EndpointSlice ${have.metadata.name} of Service ${name}: ${summary}`,
        cause,
      );
      ok &&= isOk(res);
    }
    for (const extra of existing.slice(desired.length)) {
      const res = pass.write(
        { verb: 'delete', resource: 'endpointslices', namespace, name: extra.metadata.name },
        refOf(extra),
        `Deleting EndpointSlice ${extra.metadata.name}: Service ${name} needs fewer slices`,
        cause,
      );
      ok &&= isOk(res) || res.code === 404;
    }
    return ok ? 'done' : 'retry';
  }

  private podsFor(svc: Service): Pod[] {
    const selector = svc.spec.selector ?? {};
    const value = selectorIndexValue(svc.metadata.namespace ?? '', selector);
    if (value === undefined) return [];
    return lookup(this.informer<Pod>('pods'), this.podsByLabel.sortedKeys(value)).filter((p) =>
      mapSelectorMatches(selector, p.metadata.labels),
    );
  }
}

function ownerRefTo(svc: Service): OwnerReference {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    name: svc.metadata.name as string,
    uid: svc.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
}

function describe(endpoints: SliceEndpoint[]): string {
  const ready = endpoints.filter((e) => e.conditions?.ready).length;
  return `${endpoints.length} endpoints, ${ready} ready`;
}

function pushNew(keys: string[], key: string): void {
  if (!keys.includes(key)) keys.push(key);
}
