// kube-proxy inside a real lab. EndpointSlices are written by the test (as the endpointslice
// controller would), so only kube-proxy's reaction is under test here.

import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import { createLab } from '../lab/lab';
import { serviceChain } from './chain-names';

// Whole-cluster runs of minutes of sim time; generous because CI shares the CPU.
const LAB_TEST_TIMEOUT_MS = 60_000;

function newLab(): SimLab {
  const lab = createLab({ seed: 3 });
  // long enough for kubeadm's CoreDNS pods to be ready behind kube-dns (3 service ports)
  lab.advance(5_000);
  return lab;
}

function admin(
  lab: SimLab,
  verb: 'create' | 'delete' | 'update',
  resource: string,
  body: Record<string, unknown> | undefined,
  name?: string,
): number {
  return lab.request('kubernetes-admin', { verb, resource, namespace: 'default', name, body }).code;
}

function createService(lab: SimLab, name: string, clusterIP: string): void {
  expect(
    admin(lab, 'create', 'services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name },
      spec: {
        clusterIP,
        selector: { app: name },
        ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
      },
    }),
  ).toBe(201);
}

function slice(
  name: string,
  service: string,
  endpoints: { ip: string; ready: boolean }[],
): Record<string, unknown> {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name, labels: { 'kubernetes.io/service-name': service } },
    addressType: 'IPv4',
    endpoints: endpoints.map((e) => ({ addresses: [e.ip], conditions: { ready: e.ready } })),
    ports: [{ name: '', port: 8080, protocol: 'TCP' }],
  };
}

describe('kube-proxy in a lab', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('should write the kubernetes Service rule on every node at start', () => {
    const lab = newLab();
    for (const host of lab.nodes()) {
      expect(host.iptables.save({ table: 'nat' })).toContain(
        '-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y',
      );
      expect(host.iptables.resolve('10.96.0.1', 443)).toMatchObject({
        outcome: 'dnat',
        ip: '172.18.0.2',
        port: 6443,
      });
    }
  });

  it('should send ClusterIP traffic only to ready endpoints, each with an equal share', () => {
    const lab = newLab();
    createService(lab, 'web', '10.96.100.10');
    admin(
      lab,
      'create',
      'endpointslices',
      slice('web-abcde', 'web', [
        { ip: '10.244.1.4', ready: true },
        { ip: '10.244.2.4', ready: true },
        { ip: '10.244.3.4', ready: true },
        { ip: '10.244.3.9', ready: false },
      ]),
    );
    lab.advance(200);
    const r = lab.node('node-2')!.iptables.resolve('10.96.100.10', 80);
    expect(r.outcome).toBe('dnat');
    if (r.outcome !== 'dnat') return;
    expect(r.candidates.map((c) => `${c.ip}:${c.port}`)).toEqual([
      '10.244.1.4:8080',
      '10.244.2.4:8080',
      '10.244.3.4:8080',
    ]);
    expect(r.path).toContain(serviceChain('default/web', 'tcp'));
    expect(lab.node('node-2')!.iptables.save()).toContain(
      '-m statistic --mode random --probability 0.33333333349',
    );
    const sync = lab
      .trace()
      .filter((e) => e.component === 'kube-proxy' && e.node === 'node-2')
      .at(-1);
    expect(sync).toMatchObject({
      verb: 'sync-rules',
      // kubernetes:https (1 endpoint), web:80 (3 ready), kube-dns dns/dns-tcp/metrics (2 each)
      data: { servicePorts: 5, endpoints: 10, noEndpoints: 0 },
    });
  });

  it('should REJECT (connection refused) a Service whose endpoints are all not ready', () => {
    const lab = newLab();
    createService(lab, 'empty', '10.96.100.20');
    admin(
      lab,
      'create',
      'endpointslices',
      slice('empty-abcde', 'empty', [{ ip: '10.244.1.5', ready: false }]),
    );
    lab.advance(200);
    const host = lab.node('node-1')!;
    expect(host.iptables.resolve('10.96.100.20', 80)).toMatchObject({
      outcome: 'rejected',
      error: 'connection refused',
    });
    expect(host.iptables.save({ table: 'filter' })).toContain(
      '--comment "default/empty has no endpoints"',
    );
  });

  it("should freeze a node's rules while its kube-proxy is stopped and catch up when it starts again", () => {
    const lab = newLab();
    createService(lab, 'web', '10.96.100.10');
    admin(
      lab,
      'create',
      'endpointslices',
      slice('web-abcde', 'web', [{ ip: '10.244.1.4', ready: true }]),
    );
    lab.advance(200);
    expect(lab.stopProcess({ component: 'kube-proxy', node: 'node-1' })).toBe(true);
    const frozen = lab.node('node-1')!.iptables.save();
    expect(admin(lab, 'delete', 'services', undefined, 'web')).toBe(200);
    lab.advance(60_000);
    expect(lab.node('node-1')!.iptables.save()).toBe(frozen);
    expect(lab.node('node-1')!.iptables.resolve('10.96.100.10', 80)).toMatchObject({
      outcome: 'dnat',
      ip: '10.244.1.4',
    });
    expect(lab.node('node-2')!.iptables.resolve('10.96.100.10', 80)).toMatchObject({
      outcome: 'unroutable',
      error: 'timeout',
    });
    expect(lab.startProcess({ component: 'kube-proxy', node: 'node-1' })).toBe(true);
    lab.advance(1_000);
    expect(lab.node('node-1')!.iptables.resolve('10.96.100.10', 80).outcome).toBe('unroutable');
  });

  it('should keep the rules (and keep answering) while the apiserver is down', () => {
    const lab = newLab();
    createService(lab, 'web', '10.96.100.10');
    admin(
      lab,
      'create',
      'endpointslices',
      slice('web-abcde', 'web', [{ ip: '10.244.1.4', ready: true }]),
    );
    lab.advance(200);
    const before = lab.node('node-3')!.iptables.save();
    expect(lab.stopProcess({ component: 'kube-apiserver' })).toBe(true);
    lab.advance(90_000);
    expect(lab.node('node-3')!.iptables.save()).toBe(before);
  });
});
