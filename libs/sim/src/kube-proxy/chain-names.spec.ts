import { describe, expect, it } from 'vitest';
import {
  endpointChain,
  externalChain,
  portProtoHash,
  serviceChain,
  servicePortName,
} from './chain-names';

describe('kube-proxy chain names', () => {
  it.each([
    ['default', 'kubernetes', 'https', 'TCP', 'KUBE-SVC-NPX46M4PTMTKRN6Y'],
    ['kube-system', 'kube-dns', 'dns', 'UDP', 'KUBE-SVC-TCOU7JCQXEZGVUNU'],
    ['kube-system', 'kube-dns', 'dns-tcp', 'TCP', 'KUBE-SVC-ERIFXISQEP7F7OF4'],
    ['kube-system', 'kube-dns', 'metrics', 'TCP', 'KUBE-SVC-JD5MR3NA4I4DYORP'],
  ])('should name %s/%s:%s %s like a real node when hashed', (ns, name, port, proto, chain) => {
    expect(serviceChain(servicePortName(ns, name, port), proto)).toBe(chain);
  });

  it('should leave the port name out when the service port is unnamed', () => {
    expect(servicePortName('default', 'web')).toBe('default/web');
    expect(servicePortName('default', 'web', 'http')).toBe('default/web:http');
  });

  it('should share the hash between SVC and EXT chains and differ for endpoints when built', () => {
    const spn = 'default/web';
    expect(externalChain(spn, 'tcp').slice('KUBE-EXT-'.length)).toBe(portProtoHash(spn, 'tcp'));
    expect(endpointChain(spn, 'tcp', '10.244.1.2:80')).toMatch(/^KUBE-SEP-[A-Z2-7]{16}$/);
    expect(endpointChain(spn, 'tcp', '10.244.1.2:80')).not.toBe(
      endpointChain(spn, 'tcp', '10.244.1.3:80'),
    );
  });
});
