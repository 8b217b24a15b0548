// Chain names exactly as kube-proxy computes them (pkg/proxy/iptables/proxier.go):
// prefix + base32(sha256(servicePortName + protocol))[:16], and for an endpoint the ip:port is
// appended before hashing. Same inputs, same names as on a real node.

import { base32Std, sha256 } from '../node/sha256';

/** proxy.ServicePortName.String(): `ns/name` plus `:portName` when the port is named. */
export function servicePortName(namespace: string, name: string, portName?: string): string {
  return `${namespace}/${name}${portName ? `:${portName}` : ''}`;
}

export function portProtoHash(spn: string, protocol: string): string {
  return base32Std(sha256(spn + protocol.toLowerCase())).slice(0, 16);
}

export function serviceChain(spn: string, protocol: string): string {
  return `KUBE-SVC-${portProtoHash(spn, protocol)}`;
}

export function localServiceChain(spn: string, protocol: string): string {
  return `KUBE-SVL-${portProtoHash(spn, protocol)}`;
}

export function externalChain(spn: string, protocol: string): string {
  return `KUBE-EXT-${portProtoHash(spn, protocol)}`;
}

export function endpointChain(spn: string, protocol: string, endpoint: string): string {
  return `KUBE-SEP-${base32Std(sha256(spn + protocol.toLowerCase() + endpoint)).slice(0, 16)}`;
}
