// Objects a v1.32 apiserver creates for itself at startup, besides namespaces and RBAC: the two
// system PriorityClasses (scheduling bootstrap) and one local APIService per served group/version
// (kube-aggregator's autoregister controller), so `kubectl get pc` and `get apiservices` look real.

import type { KubeObject } from '../model';
import { RESOURCES } from '../model/resources';

export const SYSTEM_PRIORITY_CLASSES: Record<string, number> = {
  'system-cluster-critical': 2000000000,
  'system-node-critical': 2000001000,
};

function priorityClass(name: string, value: number, description: string): KubeObject {
  return {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value,
    globalDefault: false,
    description,
    preemptionPolicy: 'PreemptLowerPriority',
  } as KubeObject;
}

/** Group priorities of kube-apiserver's default APIService registration (aggregator.go). */
const GROUP_PRIORITY: Record<string, [number, number]> = {
  '': [18000, 1],
  'admissionregistration.k8s.io': [16700, 15],
  'apiextensions.k8s.io': [16700, 15],
  'apiregistration.k8s.io': [18000, 15],
  apps: [17800, 15],
  'authentication.k8s.io': [17700, 15],
  'authorization.k8s.io': [17600, 15],
  autoscaling: [17500, 15],
  batch: [17400, 15],
  'certificates.k8s.io': [17300, 15],
  'coordination.k8s.io': [16500, 15],
  'discovery.k8s.io': [16200, 15],
  'events.k8s.io': [17750, 15],
  'flowcontrol.apiserver.k8s.io': [16100, 20],
  'networking.k8s.io': [17200, 15],
  'node.k8s.io': [16300, 15],
  policy: [17100, 15],
  'rbac.authorization.k8s.io': [17000, 15],
  'scheduling.k8s.io': [16600, 15],
  'storage.k8s.io': [16800, 15],
};

function apiService(group: string, version: string): KubeObject {
  const [groupPriorityMinimum, versionPriority] = GROUP_PRIORITY[group] ?? [15000, 15];
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: {
      name: `${version}.${group}`,
      labels: { 'kube-aggregator.kubernetes.io/automanaged': 'onstart' },
    },
    spec: {
      ...(group ? { group } : {}),
      version,
      groupPriorityMinimum,
      versionPriority,
    },
    status: {
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'Local',
          message: 'Local APIServices are always available',
        },
      ],
    },
  } as KubeObject;
}

export function builtinClusterObjects(): KubeObject[] {
  const gvs = new Map<string, [string, string]>();
  for (const r of RESOURCES) gvs.set(`${r.group}/${r.version}`, [r.group, r.version]);
  // served groups without a simulated resource kind still have their APIService
  for (const g of ['authentication.k8s.io', 'events.k8s.io']) gvs.set(`${g}/v1`, [g, 'v1']);
  return [
    priorityClass(
      'system-cluster-critical',
      SYSTEM_PRIORITY_CLASSES['system-cluster-critical'] as number,
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
    ),
    priorityClass(
      'system-node-critical',
      SYSTEM_PRIORITY_CLASSES['system-node-critical'] as number,
      'Used for system critical pods that must not be moved from their current node.',
    ),
    ...[...gvs.values()]
      .sort(([ga, va], [gb, vb]) => (ga + va < gb + vb ? -1 : 1))
      .map(([g, v]) => apiService(g, v)),
  ];
}
