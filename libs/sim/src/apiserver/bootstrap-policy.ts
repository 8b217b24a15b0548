// What a fresh kubeadm cluster has before anyone applies anything: the four system namespaces,
// the `kubernetes` Service, and the bootstrap RBAC policy (cluster-admin for system:masters, the
// control-plane components' roles, self-reviews for everyone authenticated).

import type { KubeObject, PolicyRule, Role, RoleBinding } from '../model';

const RBAC = 'rbac.authorization.k8s.io/v1';
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];

function clusterRole(name: string, rules: PolicyRule[], labels?: Record<string, string>): Role {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRole',
    metadata: {
      name,
      labels: labels ?? { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    rules,
  };
}

function clusterRoleBinding(
  name: string,
  role: string,
  subject: RoleBinding['subjects'],
): RoleBinding {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: {
      name,
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: subject,
  };
}

const WORKLOADS: PolicyRule[] = [
  {
    apiGroups: [''],
    resources: [
      'pods',
      'pods/log',
      'pods/status',
      'services',
      'endpoints',
      'configmaps',
      'secrets',
      'serviceaccounts',
      'events',
      'limitranges',
      'persistentvolumeclaims',
      'podtemplates',
    ],
    verbs: [],
  },
  {
    apiGroups: ['apps'],
    resources: [
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'daemonsets',
      'daemonsets/status',
    ],
    verbs: [],
  },
  { apiGroups: ['batch'], resources: ['jobs', 'jobs/status'], verbs: [] },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: [] },
  {
    apiGroups: ['networking.k8s.io'],
    resources: ['ingresses', 'ingresses/status', 'networkpolicies'],
    verbs: [],
  },
];

function withVerbs(rules: PolicyRule[], verbs: string[], exclude: string[] = []): PolicyRule[] {
  return rules.map((r) => ({
    ...r,
    resources: (r.resources ?? []).filter((x) => !exclude.includes(x)),
    verbs,
  }));
}

export function bootstrapClusterRoles(): Role[] {
  return [
    clusterRole('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    clusterRole('admin', [
      ...withVerbs(WORKLOADS, [...READ, ...WRITE]),
      {
        apiGroups: ['rbac.authorization.k8s.io'],
        resources: ['roles', 'rolebindings'],
        verbs: [...READ, ...WRITE],
      },
      { apiGroups: [''], resources: ['pods/exec', 'pods/eviction'], verbs: ['create'] },
    ]),
    clusterRole('edit', [
      ...withVerbs(WORKLOADS, [...READ, ...WRITE]),
      { apiGroups: [''], resources: ['pods/exec', 'pods/eviction'], verbs: ['create'] },
    ]),
    clusterRole('view', [
      ...withVerbs(WORKLOADS, READ, ['secrets']),
      { apiGroups: [''], resources: ['namespaces'], verbs: READ },
    ]),
    clusterRole('system:basic-user', [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
    ]),
    clusterRole('system:discovery', [
      {
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
        verbs: ['get'],
      },
    ]),
    clusterRole('system:kube-scheduler', [
      {
        apiGroups: ['', 'events.k8s.io'],
        resources: ['events'],
        verbs: ['create', 'patch', 'update'],
      },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        verbs: ['create', 'get', 'update'],
      },
      {
        apiGroups: [''],
        resources: [
          'nodes',
          'namespaces',
          'services',
          'pods',
          'replicationcontrollers',
          'persistentvolumeclaims',
          'persistentvolumes',
        ],
        verbs: READ,
      },
      { apiGroups: [''], resources: ['pods'], verbs: ['delete'] },
      { apiGroups: [''], resources: ['bindings', 'pods/binding'], verbs: ['create'] },
      { apiGroups: [''], resources: ['pods/status'], verbs: ['patch', 'update'] },
      { apiGroups: ['apps'], resources: ['replicasets', 'statefulsets'], verbs: READ },
      { apiGroups: ['policy'], resources: ['poddisruptionbudgets'], verbs: READ },
    ]),
    // bootstrappolicy's role for the scheduler's VolumeBinding plugin: it reads storage classes
    // and reserves volumes and claims (selected-node, claimRef) before binding a pod
    clusterRole('system:volume-scheduler', [
      {
        apiGroups: [''],
        resources: ['persistentvolumes'],
        verbs: ['get', 'list', 'patch', 'update', 'watch'],
      },
      { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: READ },
      {
        apiGroups: [''],
        resources: ['persistentvolumeclaims'],
        verbs: ['get', 'list', 'patch', 'update', 'watch'],
      },
    ]),
    // kubeadm runs the controller-manager with broad rights (its per-controller service accounts
    // are folded into one identity here).
    clusterRole('system:kube-controller-manager', [
      {
        apiGroups: [
          '',
          'apps',
          'batch',
          'discovery.k8s.io',
          'coordination.k8s.io',
          'events.k8s.io',
          'networking.k8s.io',
        ],
        resources: ['*'],
        verbs: ['*'],
      },
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['*'], verbs: READ },
      // the persistentvolume-binder reads StorageClasses (system:controller:persistent-volume-binder)
      { apiGroups: ['storage.k8s.io'], resources: ['storageclasses'], verbs: READ },
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews'],
        verbs: ['create'],
      },
    ]),
    clusterRole('system:node', [
      {
        apiGroups: [''],
        resources: ['nodes', 'nodes/status'],
        verbs: [...READ, 'create', 'update', 'patch', 'delete'],
      },
      {
        apiGroups: [''],
        resources: ['pods', 'services', 'endpoints', 'configmaps', 'secrets'],
        verbs: READ,
      },
      {
        apiGroups: [''],
        resources: ['pods', 'pods/status'],
        verbs: ['create', 'delete', 'update', 'patch'],
      },
      {
        apiGroups: ['', 'events.k8s.io'],
        resources: ['events'],
        verbs: ['create', 'patch', 'update'],
      },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        verbs: ['get', 'create', 'update', 'patch', 'delete'],
      },
    ]),
    clusterRole('system:node-proxier', [
      { apiGroups: [''], resources: ['services', 'endpoints', 'nodes'], verbs: READ },
      { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: READ },
      {
        apiGroups: ['', 'events.k8s.io'],
        resources: ['events'],
        verbs: ['create', 'patch', 'update'],
      },
    ]),
  ];
}

export function bootstrapClusterRoleBindings(): RoleBinding[] {
  const G = 'rbac.authorization.k8s.io';
  return [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [
      { apiGroup: G, kind: 'Group', name: 'system:masters' },
    ]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [
      { apiGroup: G, kind: 'Group', name: 'system:authenticated' },
    ]),
    clusterRoleBinding('system:discovery', 'system:discovery', [
      { apiGroup: G, kind: 'Group', name: 'system:authenticated' },
    ]),
    clusterRoleBinding('system:kube-scheduler', 'system:kube-scheduler', [
      { apiGroup: G, kind: 'User', name: 'system:kube-scheduler' },
    ]),
    clusterRoleBinding('system:volume-scheduler', 'system:volume-scheduler', [
      { apiGroup: G, kind: 'User', name: 'system:kube-scheduler' },
    ]),
    clusterRoleBinding('system:kube-controller-manager', 'system:kube-controller-manager', [
      { apiGroup: G, kind: 'User', name: 'system:kube-controller-manager' },
    ]),
    clusterRoleBinding('system:node', 'system:node', [
      { apiGroup: G, kind: 'Group', name: 'system:nodes' },
    ]),
    clusterRoleBinding('system:node-proxier', 'system:node-proxier', [
      { apiGroup: G, kind: 'User', name: 'system:kube-proxy' },
    ]),
  ];
}

export const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

export function bootstrapNamespaces(): KubeObject[] {
  return SYSTEM_NAMESPACES.map((name) => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }));
}

export function kubernetesService(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
    },
    status: { loadBalancer: {} },
  };
}

/** The apiserver's own Endpoints for `kubernetes` (maintained by the apiserver, not a controller). */
export function kubernetesEndpoints(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' },
    },
    subsets: [
      {
        addresses: [{ ip: '172.18.0.2' }],
        ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
      },
    ],
  };
}
