// The root-ca-certificate publisher (k/k pkg/controller/certificates/rootcacertpublisher): every
// namespace gets a ConfigMap kube-root-ca.crt holding the cluster CA (kube-controller-manager's
// --root-ca-file), which the projected service-account volume of every pod mounts as ca.crt.
// Deleted or edited, it comes back as it was.

import type { WatchEvent } from '../client/api-client';
import type { ConfigMap, Namespace } from '../model';
import { pem } from '../node/node-files';
import type { Pass } from './base-controller';
import { BaseController, isOk, keyOf, type SyncResult } from './base-controller';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/** /etc/kubernetes/pki/ca.crt as kubeadm wrote it on the control plane (node-files.ts). */
const CA_CRT = pem('CERTIFICATE', 'crt:ca', 780);

export class RootCaPublisher extends BaseController {
  readonly controllerName = 'root-ca-cert-publisher';
  readonly eventSource = 'root-ca-cert-publisher';
  readonly periodMs = 30_000;

  constructor() {
    super(['namespaces', 'configmaps']);
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    if (resource === 'namespaces') return ev.type === 'DELETED' ? [] : [keyOf(ev.object)];
    return ev.object.metadata.name === ROOT_CA_CONFIGMAP
      ? [ev.object.metadata.namespace as string]
      : [];
  }

  protected allKeys(): string[] {
    return this.informer<Namespace>('namespaces').list().map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const ns = this.informer<Namespace>('namespaces').get(undefined, key);
    if (!ns || ns.metadata.deletionTimestamp || ns.status?.phase === 'Terminating') return 'done';
    const cur = this.informer<ConfigMap>('configmaps').get(key, ROOT_CA_CONFIGMAP);
    const data = { 'ca.crt': CA_CRT };
    const annotations = { 'kubernetes.io/description': DESCRIPTION };
    if (!cur) {
      const body: ConfigMap = {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: ROOT_CA_CONFIGMAP, namespace: key, annotations },
        data,
      };
      const res = pass.write(
        { verb: 'create', resource: 'configmaps', namespace: key, body },
        { kind: 'ConfigMap', namespace: key, name: ROOT_CA_CONFIGMAP },
        `Publishing the cluster CA as ConfigMap ${ROOT_CA_CONFIGMAP} in namespace ${key}`,
        cause,
      );
      return isOk(res) || res.code === 409 ? 'done' : 'retry';
    }
    const same =
      Object.keys(cur.data ?? {}).length === 1 &&
      cur.data?.['ca.crt'] === CA_CRT &&
      cur.metadata.annotations?.['kubernetes.io/description'] === DESCRIPTION;
    if (same) return 'done';
    const res = pass.write(
      {
        verb: 'update',
        resource: 'configmaps',
        namespace: key,
        name: ROOT_CA_CONFIGMAP,
        body: {
          ...cur,
          metadata: {
            ...cur.metadata,
            annotations: { ...(cur.metadata.annotations ?? {}), ...annotations },
          },
          data,
        },
      },
      { kind: 'ConfigMap', namespace: key, name: ROOT_CA_CONFIGMAP },
      `Restoring ConfigMap ${ROOT_CA_CONFIGMAP} in namespace ${key} to the cluster CA`,
      cause,
    );
    return isOk(res) || res.code === 404 ? 'done' : 'retry';
  }
}
