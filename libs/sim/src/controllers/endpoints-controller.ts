// The endpoints controller (k/k pkg/controller/endpoint): for each Service with a selector, an
// Endpoints object of the same name listing the pods' IPs and ports — ready pods under
// `addresses`, the others under `notReadyAddresses`. A pod whose readinessProbe fails moves to
// notReadyAddresses and so out of the Service's traffic, without being restarted.

import type { WatchEvent } from '../client/api-client';
import type { Endpoints, Pod, Service } from '../model';
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
  computeSubsets,
  derivedLabels,
  podChangeConcernsServices,
  serviceHasSelector,
} from './service-endpoints';

export class EndpointsController extends BaseController {
  readonly controllerName = 'endpoints';
  readonly eventSource = 'endpoint-controller';
  readonly periodMs = 5_000;
  private readonly podsByLabel = new LazyIndex(byNamespacedLabel, () => this.informer('pods'));
  private readonly servicesByNs = new Index(byNamespace);
  private readonly endpointsByPod = new Index(byTargetPod);

  constructor() {
    super(['services', 'pods', 'endpoints']);
  }

  protected override observe(resource: string, events: WatchEvent[]): void {
    if (resource === 'pods') this.podsByLabel.apply(events);
    else if (resource === 'services') this.servicesByNs.apply(events);
    else this.endpointsByPod.apply(events);
  }

  /** Only pods a Service selects, before or after the change, concern it. */
  override wakeOn({ resource, object, prev }: ObservedChange, current: CurrentObjects): boolean {
    return resource !== 'pods' || podChangeConcernsServices(object, prev, current);
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    const obj = ev.object;
    if (resource !== 'pods') return [keyOf(obj)];
    const ns = obj.metadata.namespace ?? '';
    // the index's own sorted arrays, read before the next apply: most pod events concern no Service,
    // so the few keys are deduplicated in an array rather than through a Set made for each event
    const keys = this.endpointsByPod.sortedKeys(keyOf(obj)).slice();
    const services = this.informer<Service>('services');
    for (const serviceKey of this.servicesByNs.sortedKeys(ns)) {
      const svc = services.getByKey(serviceKey);
      if (svc && mapSelectorMatches(svc.spec.selector, obj.metadata.labels)) {
        const key = keyOf(svc);
        if (!keys.includes(key)) keys.push(key);
      }
    }
    return keys;
  }

  protected allKeys(): string[] {
    return this.informer<Service>('services').list().map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const { namespace, name } = splitKey(key);
    const svc = this.informer<Service>('services').get(namespace, name);
    const current = this.informer<Endpoints>('endpoints').get(namespace, name);
    if (!svc) {
      // The Service is gone: its Endpoints go too (they carry no ownerReference).
      if (!current) return 'done';
      const res = pass.write(
        { verb: 'delete', resource: 'endpoints', namespace, name },
        refOf(current),
        `Deleting Endpoints ${name}: Service ${name} was deleted`,
        cause,
      );
      return isOk(res) || res.code === 404 ? 'done' : 'retry';
    }
    if (!serviceHasSelector(svc)) return 'done'; // endpoints of selector-less Services are the user's
    const pods = this.podsFor(svc);
    const subsets = computeSubsets(svc, pods);
    const labels = derivedLabels(svc, false);
    const desired: Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name, namespace, ...(Object.keys(labels).length ? { labels } : {}) },
      ...(subsets.length ? { subsets } : {}),
    };
    const ready = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
    const notReady = subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0);
    const summary = `${ready} ready, ${notReady} not ready`;
    if (!current) {
      const res = pass.write(
        { verb: 'create', resource: 'endpoints', namespace, body: desired },
        { kind: 'Endpoints', namespace, name },
        `Creating Endpoints ${name} for Service ${name}: ${summary}`,
        cause,
      );
      return isOk(res) || res.code === 409 ? 'done' : 'retry';
    }
    if (
      stableStringify(current.subsets ?? []) === stableStringify(desired.subsets ?? []) &&
      stableStringify(current.metadata.labels ?? {}) === stableStringify(labels)
    ) {
      return 'done';
    }
    const body: Endpoints = {
      ...current,
      metadata: { ...current.metadata, labels },
      subsets: desired.subsets,
    };
    if (!desired.subsets) delete body.subsets;
    const res = pass.write(
      { verb: 'update', resource: 'endpoints', namespace, name, body },
      refOf(current),
      `Updating Endpoints ${name}: ${summary}`,
      cause,
    );
    return isOk(res) ? 'done' : 'retry';
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
