import { describe, expect, it } from 'vitest';
import type { SimLab } from '../lab/lab';
import type { Endpoints, EndpointSlice, Pod, Service } from '../model';
import { computeSubsets, findPort } from './service-endpoints';
import {
  ADMIN,
  createObj,
  deployment,
  get,
  kcmErrors,
  list,
  newLab,
  runPods,
  setPodStatus,
  useControllerOnlyLab,
} from './lab-harness.test';

function svc(name: string, targetPort: number | string = 80): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { app: name },
      ports: [{ name: 'web', port: 80, targetPort, protocol: 'TCP' }],
    },
  };
}

function pod(
  name: string,
  ip: string,
  ready: boolean,
  ports = [{ containerPort: 8080, name: 'http' }],
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}` },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'x', ports }] },
    status: {
      phase: 'Running',
      podIP: ip,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
    },
  };
}

describe('endpoints subsets', () => {
  it('should put ready pods in addresses and the others in notReadyAddresses', () => {
    const subsets = computeSubsets(svc('web'), [
      pod('b', '10.244.1.3', true),
      pod('a', '10.244.1.2', true),
      pod('c', '10.244.2.2', false),
    ]);
    expect(subsets).toEqual([
      {
        addresses: [
          {
            ip: '10.244.1.2',
            nodeName: 'node-1',
            targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' },
          },
          {
            ip: '10.244.1.3',
            nodeName: 'node-1',
            targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: 'uid-b' },
          },
        ],
        notReadyAddresses: [
          {
            ip: '10.244.2.2',
            nodeName: 'node-1',
            targetRef: { kind: 'Pod', namespace: 'default', name: 'c', uid: 'uid-c' },
          },
        ],
        ports: [{ name: 'web', port: 80, protocol: 'TCP' }],
      },
    ]);
  });

  it.each([
    { targetPort: 9090, want: 9090 },
    { targetPort: 'http', want: 8080 },
    { targetPort: 'metrics', want: undefined },
  ])('should resolve targetPort $targetPort to $want', ({ targetPort, want }) => {
    expect(findPort(pod('a', '1.1.1.1', true), { port: 80, targetPort })).toBe(want);
  });

  it('should leave out pods without an IP and terminating pods', () => {
    const noIp = pod('a', '', true);
    const terminating = {
      ...pod('b', '10.0.0.2', true),
      metadata: { name: 'b', namespace: 'default', deletionTimestamp: '2026-01-05T09:00:00Z' },
    };
    expect(computeSubsets(svc('web'), [noIp, terminating])).toEqual([]);
  });
});

function eps(lab: SimLab, name: string): Endpoints | undefined {
  return get<Endpoints>(lab, 'endpoints', name);
}

describe('endpoints and endpointslice controllers in a lab', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should list only ready pods as addresses, following readiness both ways', () => {
    const lab = newLab();
    createObj(lab, 'deployments', deployment('web', 3));
    createObj(lab, 'services', svc('web', 'http'));
    lab.advance(500);
    expect(eps(lab, 'web')?.subsets).toBeUndefined();
    runPods(lab, { ready: false });
    lab.advance(500);
    expect(eps(lab, 'web')?.subsets?.[0]?.addresses).toBeUndefined();
    expect(eps(lab, 'web')?.subsets?.[0]?.notReadyAddresses).toHaveLength(3);
    const pods = list<Pod>(lab, 'pods');
    setPodStatus(lab, pods[0] as Pod, { ready: true, ip: pods[0]?.status?.podIP });
    lab.advance(500);
    const subset = eps(lab, 'web')?.subsets?.[0];
    expect(subset?.addresses?.map((a) => a.targetRef?.name)).toEqual([pods[0]?.metadata.name]);
    expect(subset?.ports).toEqual([{ name: 'web', port: 80, protocol: 'TCP' }]);
    // a failing readinessProbe takes it out again, without any restart
    setPodStatus(lab, pods[0] as Pod, { ready: false, ip: pods[0]?.status?.podIP });
    lab.advance(500);
    expect(eps(lab, 'web')?.subsets?.[0]?.addresses).toBeUndefined();

    const slices = list<EndpointSlice>(lab, 'endpointslices');
    expect(slices).toHaveLength(1);
    const slice = slices[0] as EndpointSlice;
    expect(slice.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(slice.metadata.labels).toMatchObject({
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Service',
      name: 'web',
      controller: true,
    });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'web', port: 80, protocol: 'TCP' }]);
    expect(slice.endpoints).toHaveLength(3);
    for (const e of slice.endpoints)
      expect(e.conditions).toEqual({ ready: false, serving: false, terminating: false });
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should keep an empty placeholder slice for a Service without pods and delete Endpoints with the Service', () => {
    const lab = newLab();
    createObj(lab, 'services', svc('lonely'));
    lab.advance(500);
    const slices = list<EndpointSlice>(lab, 'endpointslices');
    expect(slices).toHaveLength(1);
    expect(slices[0]?.endpoints ?? []).toEqual([]);
    expect(eps(lab, 'lonely')).toBeDefined();
    lab.request(ADMIN, 'delete', 'services', { namespace: 'default', name: 'lonely' });
    lab.advance(1000);
    expect(eps(lab, 'lonely')).toBeUndefined();
    expect(list<EndpointSlice>(lab, 'endpointslices')).toEqual([]);
  });

  it('should not touch the Endpoints of a Service without selector', () => {
    const lab = newLab();
    const s = svc('external');
    delete s.spec.selector;
    createObj(lab, 'services', s);
    lab.advance(500);
    expect(eps(lab, 'external')).toBeUndefined();
    expect(list<EndpointSlice>(lab, 'endpointslices')).toEqual([]);
  });
});
