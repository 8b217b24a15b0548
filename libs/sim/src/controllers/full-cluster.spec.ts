// The controllers with every real component around them: scheduler, kubelets, kube-proxy.

import { describe, expect, it } from 'vitest';
import { createLab } from '../lab/lab';
import type { SimLab } from '../lab/lab';
import type { Deployment, Endpoints, KubeEvent, Node, Pod } from '../model';
import { ADMIN, createObj, deployment, get, kcmErrors, list } from './lab-harness.test';

function running(lab: SimLab): Pod[] {
  return list<Pod>(lab, 'pods').filter(
    (p) =>
      !p.metadata.deletionTimestamp &&
      p.status?.phase === 'Running' &&
      p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
  );
}

describe('kube-controller-manager in a full cluster', { timeout: 120_000 }, () => {
  it('should take a 3-replica Deployment to 3/3 ready in about 2 s and fill the Service endpoints', () => {
    const lab = createLab();
    lab.advance(15_000); // nodes register, get their pod CIDRs, become Ready
    for (const n of ['control-plane', 'node-1', 'node-2', 'node-3']) {
      expect(get<Node>(lab, 'nodes', n, undefined)?.spec.podCIDR).toMatch(/^10\.244\.\d\.0\/24$/);
    }
    const t0 = lab.now;
    createObj(lab, 'deployments', deployment('my-app', 3));
    createObj(lab, 'services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'my-app', namespace: 'default' },
      spec: { selector: { app: 'my-app' }, ports: [{ port: 80, targetPort: 80 }] },
    });
    let readyAt = -1;
    for (let t = 0; t < 10_000; t += 100) {
      lab.advance(100);
      if (running(lab).length === 3) {
        readyAt = lab.now - t0;
        break;
      }
    }
    expect(readyAt).toBeGreaterThan(0);
    expect(readyAt).toBeLessThanOrEqual(3000);
    lab.advance(500);
    const d = get<Deployment>(lab, 'deployments', 'my-app') as Deployment;
    expect(d.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 3,
    });
    const ep = get<Endpoints>(lab, 'endpoints', 'my-app');
    expect(ep?.subsets?.[0]?.addresses).toHaveLength(3);
    for (const a of ep?.subsets?.[0]?.addresses ?? [])
      expect(a.ip).toMatch(/^10\.244\.[123]\.\d+$/);
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should evict the pods of a node whose kubelet stopped and run them on the other nodes', () => {
    const lab = createLab();
    lab.advance(15_000);
    createObj(lab, 'deployments', deployment('web', 3));
    lab.advance(5_000);
    expect(running(lab)).toHaveLength(3);
    const onNode2 = running(lab).filter((p) => p.spec.nodeName === 'node-2');
    expect(lab.stopProcess({ component: 'kubelet', node: 'node-2' })).toBe(true);
    lab.advance(60_000);
    const ready = get<Node>(lab, 'nodes', 'node-2', undefined)?.status?.conditions?.find(
      (c) => c.type === 'Ready',
    );
    expect(ready?.status).toBe('Unknown');
    lab.advance(320_000);
    const pods = running(lab);
    expect(pods).toHaveLength(3);
    expect(pods.filter((p) => p.spec.nodeName === 'node-2')).toEqual([]);
    if (onNode2.length > 0) {
      const evicted = list<KubeEvent>(lab, 'events').filter(
        (e) => e.reason === 'TaintManagerEviction',
      );
      expect(evicted.map((e) => e.message)).toEqual(
        expect.arrayContaining(
          onNode2.map((p) => `Marking for deletion Pod default/${p.metadata.name}`),
        ),
      );
    }
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should take an unready pod out of the endpoints without restarting it', () => {
    const lab = createLab();
    lab.advance(15_000);
    createObj(lab, 'deployments', deployment('web', 2));
    createObj(lab, 'services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http' }] },
    });
    lab.advance(5_000);
    const ep = get<Endpoints>(lab, 'endpoints', 'web');
    expect(ep?.subsets?.[0]?.addresses).toHaveLength(2);
    expect(ep?.subsets?.[0]?.ports).toEqual([{ port: 80, protocol: 'TCP' }]);
    expect(lab.request(ADMIN, 'get', 'endpointslices', { namespace: 'default' })).toBeDefined();
  });
});
