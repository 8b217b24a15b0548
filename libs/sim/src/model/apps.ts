import type { Condition, KubeObject, LabelSelector } from './meta';
import type { PodTemplateSpec } from './core';

export interface DeploymentStrategy {
  type?: 'RollingUpdate' | 'Recreate';
  rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
}

export interface Deployment extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'Deployment';
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplateSpec;
    strategy?: DeploymentStrategy;
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    progressDeadlineSeconds?: number;
    paused?: boolean;
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    conditions?: Condition[];
    collisionCount?: number;
  };
}

export interface ReplicaSet extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'ReplicaSet';
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplateSpec;
    minReadySeconds?: number;
  };
  status?: {
    replicas: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    conditions?: Condition[];
  };
}

export interface DaemonSetUpdateStrategy {
  type?: 'RollingUpdate' | 'OnDelete';
  rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string };
}

/** apps/v1 DaemonSet: one pod per eligible node (kube-proxy, CNI agents, log shippers). */
export interface DaemonSet extends KubeObject {
  apiVersion: 'apps/v1';
  kind: 'DaemonSet';
  spec: {
    selector: LabelSelector;
    template: PodTemplateSpec;
    updateStrategy?: DaemonSetUpdateStrategy;
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: {
    currentNumberScheduled: number;
    numberMisscheduled: number;
    desiredNumberScheduled: number;
    numberReady: number;
    observedGeneration?: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
    numberUnavailable?: number;
    collisionCount?: number;
    conditions?: Condition[];
  };
}
