// kube-controller-manager: one process, many controllers. Each controller is its own reconcile
// loop with its own period, all under the identity system:kube-controller-manager; stopping the
// process (the lab stops every component named kube-controller-manager) stops all of them.

import type { Component } from '../runtime/component';
import { DaemonSetController } from './daemonset-controller';
import { DeploymentController } from './deployment-controller';
import { EndpointSliceController } from './endpointslice-controller';
import { EndpointsController } from './endpoints-controller';
import { GarbageCollector } from './garbage-collector';
import { JobController } from './job-controller';
import { NamespaceController } from './namespace-controller';
import { NodeIpamController } from './node-ipam-controller';
import { NodeLifecycleController } from './node-lifecycle-controller';
import { PersistentVolumeBinderController } from './persistentvolume-binder';
import { PodGcController } from './pod-gc-controller';
import { ReplicaSetController } from './replicaset-controller';
import { RootCaPublisher } from './root-ca-publisher';
import { ServiceAccountController } from './serviceaccount-controller';
import { TaintEvictionController } from './taint-eviction-controller';
import { TtlAfterFinishedController } from './ttl-after-finished-controller';

/** The controllers, in the order kube-controller-manager starts them. */
export function createControllerManager(): Component[] {
  return [
    new ServiceAccountController(),
    new NamespaceController(),
    new NodeIpamController(),
    new NodeLifecycleController(),
    new TaintEvictionController(),
    new DeploymentController(),
    new ReplicaSetController(),
    new DaemonSetController(),
    new JobController(),
    new EndpointsController(),
    new EndpointSliceController(),
    new GarbageCollector(),
    new PodGcController(),
    new TtlAfterFinishedController(),
    new RootCaPublisher(),
    // appended last: a controller's wake latency derives from its index here, so an insertion
    // would shift the timing of every later controller (and the trace of every existing lab)
    new PersistentVolumeBinderController(),
  ];
}

export type { BaseController } from './base-controller';
export { KCM_IDENTITY } from './base-controller';
export { NODE_MONITOR_GRACE_MS, NODE_MONITOR_PERIOD_MS } from './node-lifecycle-controller';
