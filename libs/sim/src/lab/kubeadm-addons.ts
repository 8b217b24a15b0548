// What `kubeadm init` creates through the apiserver after the control plane is up (phases
// upload-config, bootstrap-token RBAC and addon): the kubeadm-config and kubelet-config
// ConfigMaps, and the two addons, kube-proxy (a DaemonSet: one pod per node) and CoreDNS (a
// Deployment of 2 behind the kube-dns Service at 10.96.0.10). They are ordinary objects: the
// DaemonSet and Deployment controllers create the pods, the scheduler binds them, the kubelets
// run them, exactly like a learner's own workloads.

import type { ApiResponse } from '../client/api-client';
import type { LabRequest } from './lab-types';

export const KUBE_VERSION = 'v1.32.5';
export const KUBE_DNS_IP = '10.96.0.10';
const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.11.3';
const KUBE_PROXY_IMAGE = `registry.k8s.io/kube-proxy:${KUBE_VERSION}`;
const RBAC = 'rbac.authorization.k8s.io';

const COREFILE = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30 {
       disable success cluster.local
       disable denial cluster.local
    }
    loop
    reload
    loadbalance
}
`;

function kubeProxyConfig(clusterCIDR: string): string {
  return `apiVersion: kubeproxy.config.k8s.io/v1alpha1
bindAddress: 0.0.0.0
bindAddressHardFail: false
clientConnection:
  acceptContentTypes: ""
  burst: 0
  contentType: ""
  kubeconfig: /var/lib/kube-proxy/kubeconfig.conf
  qps: 0
clusterCIDR: ${clusterCIDR}
configSyncPeriod: 0s
conntrack:
  maxPerCore: null
  min: null
  tcpBeLiberal: false
  tcpCloseWaitTimeout: null
  tcpEstablishedTimeout: null
  udpStreamTimeout: 0s
  udpTimeout: 0s
detectLocal:
  bridgeInterface: ""
  interfaceNamePrefix: ""
detectLocalMode: ""
enableProfiling: false
healthzBindAddress: ""
hostnameOverride: ""
iptables:
  localhostNodePorts: null
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 0s
  syncPeriod: 0s
ipvs:
  excludeCIDRs: null
  minSyncPeriod: 0s
  scheduler: ""
  strictARP: false
  syncPeriod: 0s
  tcpFinTimeout: 0s
  tcpTimeout: 0s
  udpTimeout: 0s
kind: KubeProxyConfiguration
logging:
  flushFrequency: 0
  options:
    json:
      infoBufferSize: "0"
    text:
      infoBufferSize: "0"
  verbosity: 0
metricsBindAddress: ""
mode: ""
nftables:
  masqueradeAll: false
  masqueradeBit: null
  minSyncPeriod: 0s
  syncPeriod: 0s
nodePortAddresses: null
oomScoreAdj: null
portRange: ""
showHiddenMetricsForVersion: ""
winkernel:
  enableDSR: false
  forwardHealthCheckVip: false
  networkName: ""
  rootHnsEndpointName: ""
  sourceVip: ""`;
}

function kubeProxyKubeconfig(server: string): string {
  return `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt
    server: ${server}
  name: default
contexts:
- context:
    cluster: default
    namespace: default
    user: default
  name: default
current-context: default
users:
- name: default
  user:
    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token`;
}

function clusterConfiguration(endpoint: string, podSubnet: string): string {
  return `apiServer: {}
apiVersion: kubeadm.k8s.io/v1beta4
caCertificateValidityPeriod: 87600h0m0s
certificateValidityPeriod: 8760h0m0s
certificatesDir: /etc/kubernetes/pki
clusterName: kubernetes
controlPlaneEndpoint: ${endpoint}
controllerManager: {}
dns: {}
encryptionAlgorithm: RSA-2048
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: ${KUBE_VERSION}
networking:
  dnsDomain: cluster.local
  podSubnet: ${podSubnet}
  serviceSubnet: 10.96.0.0/12
proxy: {}
scheduler: {}
`;
}

const KUBELET_CONFIGURATION = `apiVersion: kubelet.config.k8s.io/v1beta1
authentication:
  anonymous:
    enabled: false
  webhook:
    cacheTTL: 0s
    enabled: true
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
authorization:
  mode: Webhook
  webhook:
    cacheAuthorizedTTL: 0s
    cacheUnauthorizedTTL: 0s
cgroupDriver: systemd
clusterDNS:
- ${KUBE_DNS_IP}
clusterDomain: cluster.local
containerRuntimeEndpoint: ""
cpuManagerReconcilePeriod: 0s
crashLoopBackOff: {}
evictionPressureTransitionPeriod: 0s
fileCheckFrequency: 0s
healthzBindAddress: 127.0.0.1
healthzPort: 10248
httpCheckFrequency: 0s
imageMaximumGCAge: 0s
imageMinimumGCAge: 0s
kind: KubeletConfiguration
logging:
  flushFrequency: 0
  options:
    json:
      infoBufferSize: "0"
    text:
      infoBufferSize: "0"
  verbosity: 0
memorySwap: {}
nodeStatusReportFrequency: 0s
nodeStatusUpdateFrequency: 0s
rotateCertificates: true
runtimeRequestTimeout: 0s
shutdownGracePeriod: 0s
shutdownGracePeriodCriticalPods: 0s
staticPodPath: /etc/kubernetes/manifests
streamingConnectionIdleTimeout: 0s
syncFrequency: 0s
volumeStatsAggPeriod: 0s
`;

function configMap(namespace: string, name: string, data: Record<string, string>): LabRequest {
  return {
    verb: 'create',
    resource: 'configmaps',
    namespace,
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data },
  };
}

function serviceAccount(name: string): LabRequest {
  return {
    verb: 'create',
    resource: 'serviceaccounts',
    namespace: 'kube-system',
    body: {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name, namespace: 'kube-system' },
    },
  };
}

function clusterRoleBinding(name: string, role: string, subjects: unknown[]): LabRequest {
  return {
    verb: 'create',
    resource: 'clusterrolebindings',
    body: {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
      subjects,
    },
  };
}

const SA = (name: string) => ({ kind: 'ServiceAccount', name, namespace: 'kube-system' });

function kubeProxyDaemonSet(): LabRequest {
  return {
    verb: 'create',
    resource: 'daemonsets',
    namespace: 'kube-system',
    body: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        name: 'kube-proxy',
        namespace: 'kube-system',
        labels: { 'k8s-app': 'kube-proxy' },
      },
      spec: {
        selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
        updateStrategy: { type: 'RollingUpdate' },
        template: {
          metadata: { labels: { 'k8s-app': 'kube-proxy' } },
          spec: {
            priorityClassName: 'system-node-critical',
            containers: [
              {
                name: 'kube-proxy',
                image: KUBE_PROXY_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                command: [
                  '/usr/local/bin/kube-proxy',
                  '--config=/var/lib/kube-proxy/config.conf',
                  '--hostname-override=$(NODE_NAME)',
                ],
                securityContext: { privileged: true },
                volumeMounts: [
                  { mountPath: '/var/lib/kube-proxy', name: 'kube-proxy' },
                  { mountPath: '/run/xtables.lock', name: 'xtables-lock' },
                  { mountPath: '/lib/modules', name: 'lib-modules', readOnly: true },
                ],
                env: [
                  {
                    name: 'NODE_NAME',
                    valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } },
                  },
                ],
              },
            ],
            hostNetwork: true,
            serviceAccountName: 'kube-proxy',
            volumes: [
              { name: 'kube-proxy', configMap: { name: 'kube-proxy', defaultMode: 420 } },
              {
                name: 'xtables-lock',
                hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' },
              },
              { name: 'lib-modules', hostPath: { path: '/lib/modules', type: '' } },
            ],
            tolerations: [{ operator: 'Exists' }],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
          },
        },
      },
    },
  };
}

function corednsDeployment(): LabRequest {
  return {
    verb: 'create',
    resource: 'deployments',
    namespace: 'kube-system',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'coredns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
      spec: {
        replicas: 2,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        selector: { matchLabels: { 'k8s-app': 'kube-dns' } },
        template: {
          metadata: { labels: { 'k8s-app': 'kube-dns' } },
          spec: {
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: 'coredns',
            affinity: {
              podAntiAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 100,
                    podAffinityTerm: {
                      labelSelector: {
                        matchExpressions: [
                          { key: 'k8s-app', operator: 'In', values: ['kube-dns'] },
                        ],
                      },
                      topologyKey: 'kubernetes.io/hostname',
                    },
                  },
                ],
              },
            },
            tolerations: [
              { key: 'CriticalAddonsOnly', operator: 'Exists' },
              { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            containers: [
              {
                name: 'coredns',
                image: COREDNS_IMAGE,
                imagePullPolicy: 'IfNotPresent',
                resources: {
                  limits: { memory: '170Mi' },
                  requests: { cpu: '100m', memory: '70Mi' },
                },
                args: ['-conf', '/etc/coredns/Corefile'],
                volumeMounts: [
                  { name: 'config-volume', mountPath: '/etc/coredns', readOnly: true },
                ],
                ports: [
                  { containerPort: 53, name: 'dns', protocol: 'UDP' },
                  { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                  { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
                ],
                securityContext: {
                  allowPrivilegeEscalation: false,
                  capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] },
                  readOnlyRootFilesystem: true,
                },
                livenessProbe: {
                  httpGet: { path: '/health', port: 8080, scheme: 'HTTP' },
                  initialDelaySeconds: 60,
                  timeoutSeconds: 5,
                  successThreshold: 1,
                  failureThreshold: 5,
                },
                readinessProbe: { httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' } },
              },
            ],
            dnsPolicy: 'Default',
            volumes: [
              {
                name: 'config-volume',
                configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] },
              },
            ],
          },
        },
      },
    },
  };
}

function kubeDnsService(): LabRequest {
  return {
    verb: 'create',
    resource: 'services',
    namespace: 'kube-system',
    body: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'kube-dns',
        namespace: 'kube-system',
        labels: {
          'k8s-app': 'kube-dns',
          'kubernetes.io/cluster-service': 'true',
          'kubernetes.io/name': 'CoreDNS',
        },
        annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
      },
      spec: {
        clusterIP: KUBE_DNS_IP,
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
          { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
        ],
        selector: { 'k8s-app': 'kube-dns' },
      },
    },
  };
}

export interface AddonsInput {
  /** https://<control-plane IP>:6443 */
  server: string;
  /** <control-plane IP>:6443 */
  controlPlaneEndpoint: string;
  podSubnet: string;
  /** base64 of /etc/kubernetes/pki/ca.crt */
  caData: string;
}

/** The requests kubeadm sends, in its order, as kubernetes-admin. */
export function kubeadmAddonRequests(input: AddonsInput): LabRequest[] {
  return [
    // upload-config
    configMap('kube-system', 'kubeadm-config', {
      ClusterConfiguration: clusterConfiguration(input.controlPlaneEndpoint, input.podSubnet),
    }),
    configMap('kube-system', 'kubelet-config', { kubelet: KUBELET_CONFIGURATION }),
    // bootstrap-token: the public cluster-info that joining nodes read anonymously
    configMap('kube-public', 'cluster-info', {
      kubeconfig: `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: ${input.caData}
    server: ${input.server}
  name: ""
contexts: null
current-context: ""
kind: Config
preferences: {}
users: null
`,
    }),
    // addon/coredns
    serviceAccount('coredns'),
    {
      verb: 'create',
      resource: 'clusterroles',
      body: {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRole',
        metadata: { name: 'system:coredns' },
        rules: [
          {
            apiGroups: [''],
            resources: ['endpoints', 'services', 'pods', 'namespaces'],
            verbs: ['list', 'watch'],
          },
          {
            apiGroups: ['discovery.k8s.io'],
            resources: ['endpointslices'],
            verbs: ['list', 'watch'],
          },
        ],
      },
    },
    clusterRoleBinding('system:coredns', 'system:coredns', [SA('coredns')]),
    configMap('kube-system', 'coredns', { Corefile: COREFILE }),
    corednsDeployment(),
    kubeDnsService(),
    // addon/kube-proxy
    serviceAccount('kube-proxy'),
    clusterRoleBinding('kubeadm:node-proxier', 'system:node-proxier', [SA('kube-proxy')]),
    configMap('kube-system', 'kube-proxy', {
      'config.conf': kubeProxyConfig(input.podSubnet),
      'kubeconfig.conf': kubeProxyKubeconfig(input.server),
    }),
    kubeProxyDaemonSet(),
  ];
}

/** Sends every request; a failure is a bug in the bootstrap, so it throws. */
export function installKubeadmAddons(
  send: (req: LabRequest) => ApiResponse,
  input: AddonsInput,
): void {
  for (const req of kubeadmAddonRequests(input)) {
    const res = send(req);
    if (res.code < 200 || res.code >= 300)
      throw new Error(
        `kubeadm addon bootstrap: ${req.verb} ${req.resource} failed: ${JSON.stringify(res.body)}`,
      );
  }
}
