// Which changes wake which component (Component.wakeOn): upstream, an informer's event handler
// drops the changes its controller does not act on, and a kubelet does not sync a pod for the
// echo of its own status write. A dropped change is still read by the component's next pass.

import { describe, expect, it } from 'vitest';
import { DaemonSetController } from '../controllers/daemonset-controller';
import { DeploymentController } from '../controllers/deployment-controller';
import { EndpointSliceController } from '../controllers/endpointslice-controller';
import { EndpointsController } from '../controllers/endpoints-controller';
import { GarbageCollector } from '../controllers/garbage-collector';
import { JobController } from '../controllers/job-controller';
import { NodeLifecycleController } from '../controllers/node-lifecycle-controller';
import { PodGcController } from '../controllers/pod-gc-controller';
import { TaintEvictionController } from '../controllers/taint-eviction-controller';
import { createKubelet } from '../kubelet';
import type { KubeObject, Node, Pod, Service } from '../model';
import { createNodeHost } from '../node';
import type { Component, CurrentObjects, ObservedChange } from '../runtime/component';

function pod(
  labels: Record<string, string>,
  extra: Partial<Pod['spec']> = {},
  owner?: string,
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      namespace: 'default',
      labels,
      ...(owner
        ? {
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: owner, name: 'o', uid: 'u', controller: true },
            ],
          }
        : {}),
    },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...extra },
  };
}

function change(
  object: KubeObject,
  type: ObservedChange['type'] = 'MODIFIED',
  prev?: KubeObject,
): ObservedChange {
  return { resource: 'pods', type, object, ...(prev ? { prev } : {}), own: false };
}

/** The apiserver's current objects, as a lab hands them to wakeOn. */
function cluster(objects: { resource: string; object: KubeObject }[]): CurrentObjects {
  return {
    get: (resource, namespace, name) =>
      objects.find(
        (o) =>
          o.resource === resource &&
          o.object.metadata.namespace === namespace &&
          o.object.metadata.name === name,
      )?.object,
    list: (resource, namespace) =>
      objects
        .filter(
          (o) =>
            o.resource === resource && (!namespace || o.object.metadata.namespace === namespace),
        )
        .map((o) => o.object),
  };
}

const empty = cluster([]);

/** Asks through the Component interface, as the lab does. */
function wakes(component: Component, c: ObservedChange, current: CurrentObjects = empty): boolean {
  return component.wakeOn?.(c, current) ?? true;
}

describe('wake filters (which changes wake a component)', () => {
  it('should wake the Deployment controller for pod deletions only', () => {
    const c = new DeploymentController();
    const p = pod({ app: 'web' }, { nodeName: 'node-1' }, 'ReplicaSet');
    expect(wakes(c, change(p, 'MODIFIED', p), empty)).toBe(false);
    expect(wakes(c, change(p, 'ADDED'), empty)).toBe(false);
    expect(wakes(c, change(p, 'DELETED'), empty)).toBe(true);
    expect(wakes(c, { ...change(p), resource: 'replicasets' }, empty)).toBe(true);
  });

  it('should wake the DaemonSet and Job controllers only for pods they own', () => {
    const ds = new DaemonSetController();
    const job = new JobController();
    const rsPod = pod({ app: 'web' }, {}, 'ReplicaSet');
    expect(wakes(ds, change(rsPod), empty)).toBe(false);
    expect(wakes(job, change(rsPod), empty)).toBe(false);
    expect(wakes(ds, change(pod({}, {}, 'DaemonSet')), empty)).toBe(true);
    expect(wakes(job, change(pod({}, {}, 'Job')), empty)).toBe(true);
    // orphaned by the change: the owner before it still cares
    expect(wakes(job, change(pod({}), 'MODIFIED', pod({}, {}, 'Job')), empty)).toBe(true);
  });

  it('should wake the pod GC only for a change that calls for a sweep', () => {
    const gc = new PodGcController();
    const terminating = pod({});
    terminating.metadata.deletionTimestamp = '2026-01-05T09:00:10Z';
    expect(wakes(gc, change(pod({}, { nodeName: 'node-1' })), empty)).toBe(false);
    expect(wakes(gc, change(terminating), empty)).toBe(true);
    const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: {} };
    expect(wakes(gc, { ...change(node, 'DELETED'), resource: 'nodes' }, empty)).toBe(true);
    expect(wakes(gc, { ...change(node, 'MODIFIED'), resource: 'nodes' }, empty)).toBe(false);
  });

  it('should wake the endpoints controllers for pods a Service selects, before or after the change', () => {
    const svc: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
    };
    const withService = cluster([{ resource: 'services', object: svc }]);
    for (const c of [new EndpointsController(), new EndpointSliceController()]) {
      expect(wakes(c, change(pod({ app: 'web' })), withService)).toBe(true);
      expect(wakes(c, change(pod({ app: 'db' })), withService)).toBe(false);
      expect(wakes(c, change(pod({ app: 'web' })), empty)).toBe(false);
      // relabelled out of the Service: it must leave the Endpoints
      expect(
        wakes(c, change(pod({ app: 'db' }), 'MODIFIED', pod({ app: 'web' })), withService),
      ).toBe(true);
    }
  });

  it('should wake the taint eviction controller only for pods of a node with NoExecute taints', () => {
    const c = new TaintEvictionController();
    const tainted: Node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-2' },
      spec: { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] },
    };
    const calm: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: {} };
    const nodes = cluster([
      { resource: 'nodes', object: tainted },
      { resource: 'nodes', object: calm },
    ]);
    expect(wakes(c, change(pod({}, { nodeName: 'node-1' })), nodes)).toBe(false);
    expect(wakes(c, change(pod({}, { nodeName: 'node-2' })), nodes)).toBe(true);
    expect(wakes(c, change(pod({})), nodes)).toBe(false);
  });

  it('should wake the garbage collector only when an owner is missing or an object goes', () => {
    const gc = new GarbageCollector();
    const rs: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'o', namespace: 'default', uid: 'u' },
    };
    const live = cluster([{ resource: 'replicasets', object: rs }]);
    const owned = pod({ app: 'web' }, { nodeName: 'node-1' }, 'ReplicaSet');
    expect(wakes(gc, change(owned, 'MODIFIED', owned), live)).toBe(false);
    expect(wakes(gc, change(owned, 'ADDED'), live)).toBe(false);
    expect(wakes(gc, change(owned, 'MODIFIED', owned), empty)).toBe(true);
    expect(wakes(gc, change(pod({}), 'MODIFIED'), empty)).toBe(false);
    expect(wakes(gc, change(owned, 'DELETED'), live)).toBe(true);
    const finalizing = {
      ...rs,
      metadata: {
        ...rs.metadata,
        deletionTimestamp: '2026-01-05T09:00:10Z',
        finalizers: ['foregroundDeletion'],
      },
    };
    expect(wakes(gc, { ...change(finalizing), resource: 'replicasets' }, live)).toBe(true);
  });

  it('should wake the node lifecycle controller only for pods of a node that is not Ready', () => {
    const c = new NodeLifecycleController();
    const node = (name: string, status: string): Node => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      spec: {},
      status: { conditions: [{ type: 'Ready', status }] },
    });
    const nodes = cluster([
      { resource: 'nodes', object: node('node-1', 'True') },
      { resource: 'nodes', object: node('node-2', 'Unknown') },
    ]);
    expect(wakes(c, change(pod({}, { nodeName: 'node-1' })), nodes)).toBe(false);
    expect(wakes(c, change(pod({}, { nodeName: 'node-2' })), nodes)).toBe(true);
    expect(wakes(c, change(pod({}, { nodeName: 'node-2' }), 'DELETED'), nodes)).toBe(false);
    expect(wakes(c, { ...change(node('node-1', 'True')), resource: 'nodes' }, nodes)).toBe(true);
  });

  it('should not wake a kubelet for its own pod status write coming back, but for anyone else’s', () => {
    const host = createNodeHost(
      {
        name: 'node-1',
        capacity: { cpu: '2', memory: '4Gi', pods: '110' },
        labels: {},
        taints: [],
      },
      {
        index: 1,
        startTime: '2026-01-05T09:00:00Z',
        internalIP: '172.18.0.3',
        podCIDRHint: '10.244.1.0/24',
      },
    );
    const kubelet = createKubelet(host);
    expect(kubelet?.wakeOn).toBeDefined();
    const mine = pod({}, { nodeName: 'node-1' });
    const wakeOn = (c: ObservedChange) => kubelet?.wakeOn?.(c, empty);
    expect(wakeOn({ ...change(mine, 'MODIFIED', mine), own: true })).toBe(false);
    expect(wakeOn(change(mine, 'MODIFIED', mine))).toBe(true);
    expect(wakeOn({ ...change(mine, 'DELETED'), own: true })).toBe(true);
    expect(wakeOn(change(pod({}, { nodeName: 'node-2' })))).toBe(false);
  });
});
