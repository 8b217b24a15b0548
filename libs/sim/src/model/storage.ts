// PersistentVolume, PersistentVolumeClaim (core/v1) and StorageClass (storage.k8s.io/v1), with the
// fields the persistentvolume-binder reads and writes.

import type { NodeSelectorTerm, ResourceList } from './core';
import type { KubeObject, LabelSelector } from './meta';

export type PersistentVolumeAccessMode =
  'ReadWriteOnce' | 'ReadOnlyMany' | 'ReadWriteMany' | 'ReadWriteOncePod';

export type PersistentVolumeReclaimPolicy = 'Retain' | 'Delete' | 'Recycle';
export type PersistentVolumePhase = 'Pending' | 'Available' | 'Bound' | 'Released' | 'Failed';
export type PersistentVolumeClaimPhase = 'Pending' | 'Bound' | 'Lost';
export type PersistentVolumeMode = 'Filesystem' | 'Block';

export interface PersistentVolumeClaimRef {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface PersistentVolumeSpec {
  capacity?: ResourceList;
  accessModes?: PersistentVolumeAccessMode[];
  claimRef?: PersistentVolumeClaimRef;
  persistentVolumeReclaimPolicy?: PersistentVolumeReclaimPolicy;
  storageClassName?: string;
  volumeMode?: PersistentVolumeMode;
  volumeAttributesClassName?: string;
  mountOptions?: string[];
  nodeAffinity?: { required?: { nodeSelectorTerms: NodeSelectorTerm[] } };
  hostPath?: { path: string; type?: string };
  local?: { path: string; fsType?: string };
  nfs?: { server: string; path: string; readOnly?: boolean };
  csi?: { driver: string; volumeHandle: string; [field: string]: unknown };
  [source: string]: unknown;
}

export interface PersistentVolumeStatus {
  phase?: PersistentVolumePhase;
  message?: string;
  reason?: string;
  lastPhaseTransitionTime?: string;
}

export interface PersistentVolume extends KubeObject {
  apiVersion: 'v1';
  kind: 'PersistentVolume';
  spec: PersistentVolumeSpec;
  status?: PersistentVolumeStatus;
}

export interface PersistentVolumeClaimSpec {
  accessModes?: PersistentVolumeAccessMode[];
  selector?: LabelSelector;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  volumeName?: string;
  storageClassName?: string;
  volumeMode?: PersistentVolumeMode;
  volumeAttributesClassName?: string;
  dataSource?: { apiGroup?: string; kind: string; name: string };
}

export interface PersistentVolumeClaimStatus {
  phase?: PersistentVolumeClaimPhase;
  accessModes?: PersistentVolumeAccessMode[];
  capacity?: ResourceList;
  conditions?: { type: string; status: string; lastTransitionTime?: string; reason?: string }[];
}

export interface PersistentVolumeClaim extends KubeObject {
  apiVersion: 'v1';
  kind: 'PersistentVolumeClaim';
  spec: PersistentVolumeClaimSpec;
  status?: PersistentVolumeClaimStatus;
}

export interface StorageClass extends KubeObject {
  apiVersion: 'storage.k8s.io/v1';
  kind: 'StorageClass';
  provisioner: string;
  parameters?: Record<string, string>;
  reclaimPolicy?: 'Retain' | 'Delete';
  volumeBindingMode?: 'Immediate' | 'WaitForFirstConsumer';
  allowVolumeExpansion?: boolean;
  mountOptions?: string[];
}
