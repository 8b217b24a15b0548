import type { KubeObject } from './meta';

export interface Lease extends KubeObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  spec: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
    leaseTransitions?: number;
  };
}
