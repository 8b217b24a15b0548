// Known fields per kind, for `fieldValidation=Strict` (what kubectl create/apply send since
// v1.27): a misspelt field is an error instead of being silently dropped. The schema covers the
// objects learners write by hand; anything it does not describe is accepted as is.

type Schema = { [field: string]: Schema | 'leaf' | 'map' | [Schema] | ['leaf'] };

const L = 'leaf' as const;
const M = 'map' as const;

const META: Schema = {
  name: L,
  generateName: L,
  namespace: L,
  uid: L,
  resourceVersion: L,
  generation: L,
  creationTimestamp: L,
  deletionTimestamp: L,
  deletionGracePeriodSeconds: L,
  labels: M,
  annotations: M,
  ownerReferences: M,
  finalizers: [L],
  managedFields: M,
  selfLink: L,
};

const PROBE: Schema = {
  httpGet: { path: L, port: L, host: L, scheme: L, httpHeaders: M },
  tcpSocket: { port: L, host: L },
  exec: { command: [L] },
  grpc: { port: L, service: L },
  initialDelaySeconds: L,
  timeoutSeconds: L,
  periodSeconds: L,
  successThreshold: L,
  failureThreshold: L,
  terminationGracePeriodSeconds: L,
};

const CONTAINER: Schema = {
  name: L,
  image: L,
  command: [L],
  args: [L],
  workingDir: L,
  ports: [{ name: L, containerPort: L, hostPort: L, hostIP: L, protocol: L }],
  env: [{ name: L, value: L, valueFrom: M }],
  envFrom: M,
  resources: { requests: M, limits: M, claims: M },
  volumeMounts: [
    {
      name: L,
      mountPath: L,
      readOnly: L,
      subPath: L,
      subPathExpr: L,
      mountPropagation: L,
      recursiveReadOnly: L,
    },
  ],
  volumeDevices: M,
  livenessProbe: PROBE,
  readinessProbe: PROBE,
  startupProbe: PROBE,
  lifecycle: M,
  terminationMessagePath: L,
  terminationMessagePolicy: L,
  imagePullPolicy: L,
  securityContext: M,
  stdin: L,
  stdinOnce: L,
  tty: L,
  restartPolicy: L,
  resizePolicy: M,
};

const POD_SPEC: Schema = {
  containers: [CONTAINER],
  initContainers: [CONTAINER],
  ephemeralContainers: M,
  volumes: M,
  restartPolicy: L,
  terminationGracePeriodSeconds: L,
  activeDeadlineSeconds: L,
  dnsPolicy: L,
  dnsConfig: M,
  nodeSelector: M,
  serviceAccountName: L,
  serviceAccount: L,
  automountServiceAccountToken: L,
  nodeName: L,
  hostNetwork: L,
  hostPID: L,
  hostIPC: L,
  shareProcessNamespace: L,
  securityContext: M,
  imagePullSecrets: M,
  hostname: L,
  subdomain: L,
  affinity: M,
  schedulerName: L,
  tolerations: M,
  hostAliases: M,
  priorityClassName: L,
  priority: L,
  readinessGates: M,
  runtimeClassName: L,
  enableServiceLinks: L,
  preemptionPolicy: L,
  overhead: M,
  topologySpreadConstraints: M,
  setHostnameAsFQDN: L,
  os: M,
  hostUsers: L,
  schedulingGates: M,
  resourceClaims: M,
};

const TEMPLATE: Schema = { metadata: META, spec: POD_SPEC };
const SELECTOR: Schema = { matchLabels: M, matchExpressions: M };

const SCHEMAS: Record<string, Schema> = {
  Pod: { apiVersion: L, kind: L, metadata: META, spec: POD_SPEC, status: M },
  Deployment: {
    apiVersion: L,
    kind: L,
    metadata: META,
    spec: {
      replicas: L,
      selector: SELECTOR,
      template: TEMPLATE,
      strategy: { type: L, rollingUpdate: { maxSurge: L, maxUnavailable: L } },
      minReadySeconds: L,
      revisionHistoryLimit: L,
      paused: L,
      progressDeadlineSeconds: L,
    },
    status: M,
  },
  DaemonSet: {
    apiVersion: L,
    kind: L,
    metadata: META,
    spec: {
      selector: SELECTOR,
      template: TEMPLATE,
      updateStrategy: { type: L, rollingUpdate: { maxSurge: L, maxUnavailable: L } },
      minReadySeconds: L,
      revisionHistoryLimit: L,
    },
    status: M,
  },
  ReplicaSet: {
    apiVersion: L,
    kind: L,
    metadata: META,
    spec: { replicas: L, selector: SELECTOR, template: TEMPLATE, minReadySeconds: L },
    status: M,
  },
  Job: {
    apiVersion: L,
    kind: L,
    metadata: META,
    spec: {
      parallelism: L,
      completions: L,
      activeDeadlineSeconds: L,
      backoffLimit: L,
      backoffLimitPerIndex: L,
      maxFailedIndexes: L,
      selector: SELECTOR,
      manualSelector: L,
      template: TEMPLATE,
      ttlSecondsAfterFinished: L,
      completionMode: L,
      suspend: L,
      podFailurePolicy: M,
      successPolicy: M,
      podReplacementPolicy: L,
      managedBy: L,
    },
    status: M,
  },
  Service: {
    apiVersion: L,
    kind: L,
    metadata: META,
    spec: {
      type: L,
      selector: M,
      ports: [{ name: L, protocol: L, appProtocol: L, port: L, targetPort: L, nodePort: L }],
      clusterIP: L,
      clusterIPs: [L],
      externalIPs: [L],
      sessionAffinity: L,
      sessionAffinityConfig: M,
      loadBalancerIP: L,
      loadBalancerSourceRanges: [L],
      loadBalancerClass: L,
      externalName: L,
      externalTrafficPolicy: L,
      internalTrafficPolicy: L,
      healthCheckNodePort: L,
      publishNotReadyAddresses: L,
      ipFamilies: [L],
      ipFamilyPolicy: L,
      allocateLoadBalancerNodePorts: L,
      trafficDistribution: L,
    },
    status: M,
  },
  ConfigMap: { apiVersion: L, kind: L, metadata: META, data: M, binaryData: M, immutable: L },
  Secret: { apiVersion: L, kind: L, metadata: META, data: M, stringData: M, type: L, immutable: L },
  Namespace: { apiVersion: L, kind: L, metadata: META, spec: M, status: M },
};

/** Unknown field paths in `obj`, in upstream's notation (`spec.template.spec.containers[0].imagee`). */
export function unknownFields(kind: string, obj: unknown): string[] {
  const schema = SCHEMAS[kind];
  if (!schema) return [];
  const out: string[] = [];
  walk(schema, obj, '', out);
  return out;
}

function walk(schema: Schema, value: unknown, path: string, out: string[]): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  for (const key of Object.keys(value as object)) {
    const field = path ? `${path}.${key}` : key;
    const sub = schema[key];
    if (sub === undefined) {
      out.push(field);
      continue;
    }
    const v = (value as Record<string, unknown>)[key];
    if (sub === L || sub === M) continue;
    if (Array.isArray(sub)) {
      const item = sub[0];
      if (item === L || !Array.isArray(v)) continue;
      v.forEach((x, i) => walk(item, x, `${field}[${i}]`, out));
      continue;
    }
    walk(sub, v, field, out);
  }
}

/** Removes unknown fields in place (what decoding into the Go struct does). */
export function pruneUnknown(kind: string, obj: unknown): void {
  const schema = SCHEMAS[kind];
  if (schema) prune(schema, obj);
}

function prune(schema: Schema, value: unknown): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  const rec = value as Record<string, unknown>;
  for (const key of Object.keys(rec)) {
    const sub = schema[key];
    if (sub === undefined) {
      delete rec[key];
      continue;
    }
    if (sub === L || sub === M) continue;
    const v = rec[key];
    if (Array.isArray(sub)) {
      const item = sub[0];
      if (item !== L && Array.isArray(v)) for (const x of v) prune(item, x);
      continue;
    }
    prune(sub, v);
  }
}
