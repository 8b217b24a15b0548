import type { KubeObject } from './meta';

export interface EndpointSlice extends KubeObject {
  apiVersion: 'discovery.k8s.io/v1';
  kind: 'EndpointSlice';
  addressType: 'IPv4' | 'IPv6' | 'FQDN';
  endpoints: {
    addresses: string[];
    conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean };
    nodeName?: string;
    targetRef?: { kind: string; namespace?: string; name: string; uid?: string };
  }[];
  ports?: { name?: string; port?: number; protocol?: 'TCP' | 'UDP' | 'SCTP' }[];
}
