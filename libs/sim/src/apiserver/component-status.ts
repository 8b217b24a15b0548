// ComponentStatus (v1, deprecated since v1.19 but still served by v1.32): not stored anywhere;
// every get/list probes the scheduler's and controller-manager's /healthz and etcd, and answers
// with a Warning header. The lab tells the apiserver which processes are up.

import type { KubeObject } from '../model';

export const COMPONENT_STATUS_WARNING = 'v1 ComponentStatus is deprecated in v1.19+';

export interface ComponentHealth {
  scheduler: boolean;
  controllerManager: boolean;
  /** etcd members that answer a health check (etcd-0, etcd-1, ... in --etcd-servers order) */
  etcd: boolean[];
}

function status(name: string, ok: boolean, error: string): KubeObject {
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name },
    conditions: [
      ok
        ? { type: 'Healthy', status: 'True', message: 'ok' }
        : { type: 'Healthy', status: 'False', error },
    ],
  } as KubeObject;
}

const refused = (port: number) =>
  `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`;

/** In the apiserver's order: scheduler, controller-manager, then each etcd server. */
export function componentStatuses(h: ComponentHealth): KubeObject[] {
  return [
    status('scheduler', h.scheduler, refused(10259)),
    status('controller-manager', h.controllerManager, refused(10257)),
    ...h.etcd.map((ok, i) => status(`etcd-${i}`, ok, 'context deadline exceeded')),
  ];
}
