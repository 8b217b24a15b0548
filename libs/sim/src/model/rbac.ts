import type { KubeObject } from './meta';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Role extends KubeObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'Role' | 'ClusterRole';
  rules?: PolicyRule[];
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
  apiGroup?: string;
}

export interface RoleBinding extends KubeObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'RoleBinding' | 'ClusterRoleBinding';
  subjects?: Subject[];
  roleRef: { apiGroup: string; kind: 'Role' | 'ClusterRole'; name: string };
}

export interface SelfSubjectAccessReview extends KubeObject {
  apiVersion: 'authorization.k8s.io/v1';
  kind: 'SelfSubjectAccessReview';
  spec: {
    resourceAttributes?: {
      namespace?: string;
      verb?: string;
      group?: string;
      resource?: string;
      subresource?: string;
      name?: string;
    };
    nonResourceAttributes?: { path?: string; verb?: string };
  };
  status?: { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}
