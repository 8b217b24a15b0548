// The resource registry: one entry per simulated API resource. It is the single place that knows
// a resource's group/version, kind, scope, short names and etcd prefix, so the apiserver, etcd
// keyspace, kubectl (`api-resources`, short names) and the UI all agree.

export interface ResourceInfo {
  /** plural lower-case name, e.g. `deployments` */
  resource: string;
  singular: string;
  kind: string;
  /** '' for the core group */
  group: string;
  version: string;
  namespaced: boolean;
  shortNames: string[];
  verbs: string[];
  /** etcd key prefix under /registry (FIDELITY.md §9: nodes -> minions, services -> services/specs) */
  etcdPrefix: string;
  categories?: string[];
}

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function info(
  resource: string,
  singular: string,
  kind: string,
  group: string,
  version: string,
  namespaced: boolean,
  shortNames: string[],
  extra: Partial<ResourceInfo> = {},
): ResourceInfo {
  return {
    resource,
    singular,
    kind,
    group,
    version,
    namespaced,
    shortNames,
    verbs: CRUD,
    etcdPrefix: resource,
    ...extra,
  };
}

export const RESOURCES: readonly ResourceInfo[] = [
  info('bindings', 'binding', 'Binding', '', 'v1', true, [], { verbs: ['create'] }),
  info('componentstatuses', 'componentstatus', 'ComponentStatus', '', 'v1', false, ['cs'], {
    verbs: ['get', 'list'],
  }),
  info('configmaps', 'configmap', 'ConfigMap', '', 'v1', true, ['cm']),
  info('endpoints', 'endpoints', 'Endpoints', '', 'v1', true, ['ep'], {
    etcdPrefix: 'services/endpoints',
  }),
  info('events', 'event', 'Event', '', 'v1', true, ['ev']),
  info('limitranges', 'limitrange', 'LimitRange', '', 'v1', true, ['limits']),
  info('namespaces', 'namespace', 'Namespace', '', 'v1', false, ['ns'], {
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  }),
  info('nodes', 'node', 'Node', '', 'v1', false, ['no'], { etcdPrefix: 'minions' }),
  info('persistentvolumeclaims', 'persistentvolumeclaim', 'PersistentVolumeClaim', '', 'v1', true, [
    'pvc',
  ]),
  info('persistentvolumes', 'persistentvolume', 'PersistentVolume', '', 'v1', false, ['pv']),
  info('pods', 'pod', 'Pod', '', 'v1', true, ['po'], { categories: ['all'] }),
  info('podtemplates', 'podtemplate', 'PodTemplate', '', 'v1', true, []),
  info('secrets', 'secret', 'Secret', '', 'v1', true, []),
  info('serviceaccounts', 'serviceaccount', 'ServiceAccount', '', 'v1', true, ['sa']),
  info('services', 'service', 'Service', '', 'v1', true, ['svc'], {
    etcdPrefix: 'services/specs',
    categories: ['all'],
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  }),
  info('daemonsets', 'daemonset', 'DaemonSet', 'apps', 'v1', true, ['ds'], {
    categories: ['all'],
  }),
  info('deployments', 'deployment', 'Deployment', 'apps', 'v1', true, ['deploy'], {
    categories: ['all'],
  }),
  info('replicasets', 'replicaset', 'ReplicaSet', 'apps', 'v1', true, ['rs'], {
    categories: ['all'],
  }),
  info(
    'selfsubjectaccessreviews',
    'selfsubjectaccessreview',
    'SelfSubjectAccessReview',
    'authorization.k8s.io',
    'v1',
    false,
    [],
    {
      verbs: ['create'],
    },
  ),
  info(
    'selfsubjectrulesreviews',
    'selfsubjectrulesreview',
    'SelfSubjectRulesReview',
    'authorization.k8s.io',
    'v1',
    false,
    [],
    {
      verbs: ['create'],
    },
  ),
  info('jobs', 'job', 'Job', 'batch', 'v1', true, [], { categories: ['all'] }),
  info('leases', 'lease', 'Lease', 'coordination.k8s.io', 'v1', true, []),
  info('endpointslices', 'endpointslice', 'EndpointSlice', 'discovery.k8s.io', 'v1', true, []),
  info(
    'clusterrolebindings',
    'clusterrolebinding',
    'ClusterRoleBinding',
    'rbac.authorization.k8s.io',
    'v1',
    false,
    [],
  ),
  info('apiservices', 'apiservice', 'APIService', 'apiregistration.k8s.io', 'v1', false, [], {
    categories: ['api-extensions'],
  }),
  info('ingressclasses', 'ingressclass', 'IngressClass', 'networking.k8s.io', 'v1', false, []),
  info('ingresses', 'ingress', 'Ingress', 'networking.k8s.io', 'v1', true, ['ing'], {
    etcdPrefix: 'ingress',
  }),
  info('networkpolicies', 'networkpolicy', 'NetworkPolicy', 'networking.k8s.io', 'v1', true, [
    'netpol',
  ]),
  info('runtimeclasses', 'runtimeclass', 'RuntimeClass', 'node.k8s.io', 'v1', false, []),
  info('priorityclasses', 'priorityclass', 'PriorityClass', 'scheduling.k8s.io', 'v1', false, [
    'pc',
  ]),
  info('storageclasses', 'storageclass', 'StorageClass', 'storage.k8s.io', 'v1', false, ['sc']),
  info('clusterroles', 'clusterrole', 'ClusterRole', 'rbac.authorization.k8s.io', 'v1', false, []),
  info('rolebindings', 'rolebinding', 'RoleBinding', 'rbac.authorization.k8s.io', 'v1', true, []),
  info('roles', 'role', 'Role', 'rbac.authorization.k8s.io', 'v1', true, []),
];

const byResource = new Map(RESOURCES.map((r) => [r.resource, r]));
const byKind = new Map(RESOURCES.map((r) => [r.kind, r]));

export function resourceInfo(resource: string): ResourceInfo | undefined {
  return byResource.get(resource);
}

export function resourceForKind(kind: string): ResourceInfo | undefined {
  return byKind.get(kind);
}

/** `apps/v1` or `v1` */
export function groupVersion(r: Pick<ResourceInfo, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** GroupResource string used in Status messages: `deployments.apps`, `pods`. */
export function groupResource(r: Pick<ResourceInfo, 'group' | 'resource'>): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

/** etcd key: /registry/<prefix>/<ns>/<name> or /registry/<prefix>/<name> (FIDELITY.md §9). */
export function etcdKey(r: ResourceInfo, namespace: string | undefined, name: string): string {
  return r.namespaced
    ? `/registry/${r.etcdPrefix}/${namespace ?? 'default'}/${name}`
    : `/registry/${r.etcdPrefix}/${name}`;
}
