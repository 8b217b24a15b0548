import type { Condition, KubeObject, LabelSelector, Labels, ObjectMeta } from './meta';

export type Quantity = string;
export type ResourceList = Record<string, Quantity>;

export interface ResourceRequirements {
  requests?: ResourceList;
  limits?: ResourceList;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
    fieldRef?: { fieldPath: string };
  };
}

export interface Probe {
  httpGet?: { path?: string; port: number | string; scheme?: 'HTTP' | 'HTTPS' };
  tcpSocket?: { port: number | string };
  exec?: { command: string[] };
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: ContainerPort[];
  env?: EnvVar[];
  resources?: ResourceRequirements;
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  restartPolicy?: 'Always';
  terminationMessagePath?: string;
  terminationMessagePolicy?: string;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: {
      weight: number;
      preference: NodeSelectorTerm;
    }[];
  };
  /** carried through as written (the simulated scheduler has no InterPodAffinity plugin) */
  podAffinity?: Record<string, unknown>;
  podAntiAffinity?: Record<string, unknown>;
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector;
}

export interface Volume {
  name: string;
  emptyDir?: Record<string, unknown>;
  configMap?: { name: string };
  secret?: { secretName: string };
  persistentVolumeClaim?: { claimName: string };
  hostPath?: { path: string; type?: string };
  projected?: Record<string, unknown>;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  nodeName?: string;
  nodeSelector?: Labels;
  affinity?: Affinity;
  tolerations?: Toleration[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds?: number;
  dnsPolicy?: string;
  serviceAccountName?: string;
  serviceAccount?: string;
  schedulerName?: string;
  securityContext?: Record<string, unknown>;
  priority?: number;
  priorityClassName?: string;
  enableServiceLinks?: boolean;
  preemptionPolicy?: string;
  hostNetwork?: boolean;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}
export interface ContainerStateRunning {
  startedAt?: string;
}
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodStatus {
  phase?: PodPhase;
  conditions?: Condition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
  qosClass?: 'Guaranteed' | 'Burstable' | 'BestEffort';
  nominatedNodeName?: string;
}

export interface Pod extends KubeObject {
  apiVersion: 'v1';
  kind: 'Pod';
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: PodStatus;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

export interface NodeAddress {
  type: 'InternalIP' | 'ExternalIP' | 'Hostname';
  address: string;
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  conditions?: Condition[];
  addresses?: NodeAddress[];
  nodeInfo?: {
    machineID: string;
    systemUUID: string;
    bootID: string;
    kernelVersion: string;
    osImage: string;
    containerRuntimeVersion: string;
    kubeletVersion: string;
    kubeProxyVersion: string;
    operatingSystem: string;
    architecture: string;
  };
  images?: { names: string[]; sizeBytes: number }[];
  daemonEndpoints?: { kubeletEndpoint: { Port: number } };
}

export interface Node extends KubeObject {
  apiVersion: 'v1';
  kind: 'Node';
  spec: {
    podCIDR?: string;
    podCIDRs?: string[];
    taints?: Taint[];
    unschedulable?: boolean;
    providerID?: string;
  };
  status?: NodeStatus;
}

export interface ServicePort {
  name?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port: number;
  targetPort?: number | string;
  nodePort?: number;
}

export interface Service extends KubeObject {
  apiVersion: 'v1';
  kind: 'Service';
  spec: {
    type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
    selector?: Labels;
    ports?: ServicePort[];
    clusterIP?: string;
    clusterIPs?: string[];
    externalIPs?: string[];
    externalName?: string;
    sessionAffinity?: 'None' | 'ClientIP';
    internalTrafficPolicy?: 'Cluster' | 'Local';
    externalTrafficPolicy?: 'Cluster' | 'Local';
    ipFamilies?: string[];
    ipFamilyPolicy?: string;
  };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

export interface EndpointAddress {
  ip: string;
  nodeName?: string;
  targetRef?: { kind: string; namespace?: string; name: string; uid?: string };
}

export interface EndpointPort {
  name?: string;
  port: number;
  protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export interface Endpoints extends KubeObject {
  apiVersion: 'v1';
  kind: 'Endpoints';
  subsets?: {
    addresses?: EndpointAddress[];
    notReadyAddresses?: EndpointAddress[];
    ports?: EndpointPort[];
  }[];
}

export interface Namespace extends KubeObject {
  apiVersion: 'v1';
  kind: 'Namespace';
  spec?: { finalizers?: string[] };
  status?: { phase?: 'Active' | 'Terminating' };
}

export interface Secret extends KubeObject {
  apiVersion: 'v1';
  kind: 'Secret';
  type?: string;
  /** base64 in JSON, exactly as the API transports it. */
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

export interface ConfigMap extends KubeObject {
  apiVersion: 'v1';
  kind: 'ConfigMap';
  data?: Record<string, string>;
}

export interface ServiceAccount extends KubeObject {
  apiVersion: 'v1';
  kind: 'ServiceAccount';
}

export interface LimitRange extends KubeObject {
  apiVersion: 'v1';
  kind: 'LimitRange';
  spec: {
    limits: {
      type: 'Container' | 'Pod';
      default?: ResourceList;
      defaultRequest?: ResourceList;
      max?: ResourceList;
      min?: ResourceList;
    }[];
  };
}

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface KubeEvent extends KubeObject {
  apiVersion: 'v1';
  kind: 'Event';
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  source: { component?: string; host?: string };
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  type: 'Normal' | 'Warning';
  reportingComponent?: string;
  reportingInstance?: string;
}

export interface Binding extends KubeObject {
  apiVersion: 'v1';
  kind: 'Binding';
  target: ObjectReference;
}
