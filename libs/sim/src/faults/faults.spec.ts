import { describe, expect, it } from 'vitest';
import { createLab } from '../lab/lab';
import type { Status } from '../model';
import {
  applyFault,
  breakUserCredentials,
  corruptObject,
  deleteObject,
  etcdMemberDown,
  etcdMemberUp,
  stopComponent,
} from './faults';

const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });

describe('faults', () => {
  it('should record each fault in the trace', () => {
    const lab = createLab({ etcdMembers: 3 });
    const r = etcdMemberDown(lab, 'etcd-2');
    expect(r.ok).toBe(true);
    const ev = lab.trace().find((e) => e.seq === r.traceSeq)!;
    expect(ev).toMatchObject({ component: 'etcd', verb: 'fault.etcdMemberDown', node: 'etcd-2' });
    expect(ev.message).toBe('Fault injected: etcd member etcd-2 down (2/3 healthy, quorum kept)');
    expect(etcdMemberUp(lab, 'etcd-2').ok).toBe(true);
  });

  it('should make the user get 401 Unauthorized when their credentials are broken', () => {
    const lab = createLab();
    breakUserCredentials(lab, 'kubernetes-admin');
    const r = lab.request('kubernetes-admin', {
      verb: 'get',
      resource: 'namespaces',
      name: 'default',
    });
    expect(r.code).toBe(401);
  });

  it('should make reads fail with 500 InternalError when a stored object is corrupted', () => {
    const lab = createLab();
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: cm('c'),
    });
    expect(corruptObject(lab, 'configmaps', 'default', 'c').ok).toBe(true);
    const r = lab.request('kubernetes-admin', {
      verb: 'get',
      resource: 'configmaps',
      namespace: 'default',
      name: 'c',
    });
    expect(r.code).toBe(500);
    expect((r.body as Status).reason).toBe('InternalError');
    expect((r.body as Status).message).toMatch(/^Internal error occurred: /);
  });

  it('should remove an object bypassing finalizers when it is deleted straight from etcd', () => {
    const lab = createLab();
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'configmaps',
      namespace: 'default',
      body: { ...cm('c'), metadata: { name: 'c', finalizers: ['x/y'] } },
    });
    expect(deleteObject(lab, 'configmaps', 'default', 'c').ok).toBe(true);
    expect(lab.peek('configmaps', 'default', 'c')).toBeUndefined();
  });

  it('should stop a node daemon through systemd when a component fault is applied', () => {
    const lab = createLab();
    stopComponent(lab, { component: 'kube-proxy', node: 'node-1' });
    expect(lab.node('node-1')?.systemd.isActive('kube-proxy')).toBe(false);
    expect(
      applyFault(lab, { type: 'startComponent', ref: { component: 'kube-proxy', node: 'node-1' } })
        .ok,
    ).toBe(true);
    expect(lab.node('node-1')?.systemd.isActive('kube-proxy')).toBe(true);
  });
});
