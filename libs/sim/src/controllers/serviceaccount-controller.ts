// The serviceaccount controller (k/k pkg/controller/serviceaccount): every namespace gets a
// `default` ServiceAccount, which is what pods run as when they name none.

import type { WatchEvent } from '../client/api-client';
import type { Namespace, ServiceAccount } from '../model';
import type { Pass } from './base-controller';
import { BaseController, isOk, keyOf, type SyncResult } from './base-controller';

export class ServiceAccountController extends BaseController {
  readonly controllerName = 'serviceaccount';
  readonly eventSource = 'service-account-controller';
  readonly periodMs = 10_000;

  constructor() {
    super(['namespaces', 'serviceaccounts']);
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    if (resource === 'namespaces') return ev.type === 'DELETED' ? [] : [keyOf(ev.object)];
    return ev.type === 'DELETED' && ev.object.metadata.name === 'default'
      ? [ev.object.metadata.namespace as string]
      : [];
  }

  protected allKeys(): string[] {
    return this.informer<Namespace>('namespaces').list().map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const ns = this.informer<Namespace>('namespaces').get(undefined, key);
    if (!ns || ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return 'done';
    if (this.informer<ServiceAccount>('serviceaccounts').get(key, 'default')) return 'done';
    const body: ServiceAccount = {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace: key },
    };
    const res = pass.write(
      { verb: 'create', resource: 'serviceaccounts', namespace: key, body },
      { kind: 'ServiceAccount', namespace: key, name: 'default' },
      `Creating ServiceAccount default in namespace ${key}`,
      cause,
    );
    return isOk(res) || res.code === 409 ? 'done' : 'retry';
  }
}
