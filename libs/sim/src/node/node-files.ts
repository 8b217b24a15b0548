// The files a learner finds on a kubeadm node: static pod manifests on the control plane, the PKI
// (placeholder but PEM-shaped, deterministic), kubeconfigs and the kubelet's config.

import { sha256 } from './sha256';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    out += b === undefined ? '=' : B64[(n >> 6) & 63]!;
    out += c === undefined ? '=' : B64[n & 63]!;
  }
  return out;
}

/** Deterministic bytes: a sha256 chain seeded by `seed`. */
function bytesFor(seed: string, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let block = sha256(seed);
  for (let i = 0; i < length; i++) {
    if (i > 0 && i % 32 === 0) block = sha256(block);
    out[i] = block[i % 32] as number;
  }
  return out;
}

// Every lab's nodes carry the same certificates and keys (their bytes depend on the node and
// file names only), and hashing them out in JavaScript was a twentieth of booting a lab: each
// text is made once.
const TEXTS_MAX = 4096;
const base64Texts = new Map<string, string>();

/** base64 of bytesFor(seed, length), remembered. */
function deterministicBase64(seed: string, length: number): string {
  const key = `${seed}\u0000${length}`;
  let text = base64Texts.get(key);
  if (text === undefined) {
    text = base64(bytesFor(seed, length));
    if (base64Texts.size >= TEXTS_MAX) base64Texts.clear();
    base64Texts.set(key, text);
  }
  return text;
}

export function pem(label: string, seed: string, length: number): string {
  const lines = deterministicBase64(seed, length).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

const CERTS_CP = [
  'ca',
  'apiserver',
  'apiserver-kubelet-client',
  'apiserver-etcd-client',
  'front-proxy-ca',
  'front-proxy-client',
  'etcd/ca',
  'etcd/server',
  'etcd/peer',
  'etcd/healthcheck-client',
];

export interface FilesInput {
  node: string;
  internalIP: string;
  controlPlane: boolean;
  controlPlaneIP: string;
  podCIDR: string;
}

export function initialFiles(f: FilesInput): Record<string, string> {
  const files: Record<string, string> = {};
  const pki = '/etc/kubernetes/pki';
  if (f.controlPlane) {
    for (const c of CERTS_CP) {
      files[`${pki}/${c}.crt`] = pem('CERTIFICATE', `crt:${c}`, 780);
      files[`${pki}/${c}.key`] = pem('RSA PRIVATE KEY', `key:${c}`, 1190);
    }
    files[`${pki}/sa.key`] = pem('RSA PRIVATE KEY', 'key:sa', 1190);
    files[`${pki}/sa.pub`] = pem('PUBLIC KEY', 'pub:sa', 294);
    files['/etc/kubernetes/manifests/kube-apiserver.yaml'] = apiserverManifest(f.internalIP);
    files['/etc/kubernetes/manifests/etcd.yaml'] = etcdManifest(f.internalIP, f.node);
    files['/etc/kubernetes/manifests/kube-controller-manager.yaml'] = controllerManagerManifest();
    files['/etc/kubernetes/manifests/kube-scheduler.yaml'] = schedulerManifest();
    for (const [conf, user] of [
      ['admin.conf', 'kubernetes-admin'],
      ['super-admin.conf', 'kubernetes-super-admin'],
      ['controller-manager.conf', 'system:kube-controller-manager'],
      ['scheduler.conf', 'system:kube-scheduler'],
    ] as const) {
      files[`/etc/kubernetes/${conf}`] = kubeconfig(f.controlPlaneIP, user, `conf:${conf}`);
    }
  } else {
    files[`${pki}/ca.crt`] = pem('CERTIFICATE', 'crt:ca', 780);
    files['/etc/kubernetes/manifests/.keep'] = '';
  }
  files['/etc/kubernetes/kubelet.conf'] = kubeletConf(f.controlPlaneIP, f.node);
  files['/var/lib/kubelet/config.yaml'] = kubeletConfig();
  files['/var/lib/kubelet/pki/kubelet-client-current.pem'] =
    pem('CERTIFICATE', `crt:kubelet:${f.node}`, 600) +
    pem('EC PRIVATE KEY', `key:kubelet:${f.node}`, 121);
  files['/etc/cni/net.d/10-kindnet.conflist'] = cniConf(f.podCIDR);
  files['/etc/hostname'] = `${f.node}\n`;
  files['/etc/os-release'] =
    'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nVERSION="12 (bookworm)"\nVERSION_CODENAME=bookworm\nID=debian\n';
  return files;
}

function hostPathVolumes(vols: [string, string, string][]): { mounts: string; volumes: string } {
  const sorted = [...vols].sort((a, b) => (a[1] < b[1] ? -1 : 1));
  const mounts = sorted
    .map(
      ([name, path, ro]) =>
        `    - mountPath: ${path}\n      name: ${name}${ro === 'ro' ? '\n      readOnly: true' : ''}`,
    )
    .join('\n');
  const volumes = [...vols]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([name, path]) => {
      const type = path.endsWith('.conf') ? 'FileOrCreate' : 'DirectoryOrCreate';
      return `  - hostPath:\n      path: ${path}\n      type: ${type}\n    name: ${name}`;
    })
    .join('\n');
  return { mounts, volumes };
}

function probeBlock(
  kind: string,
  host: string,
  path: string,
  port: number,
  scheme: string,
  fail: number,
  delay: number,
  period: number,
): string {
  return [
    `    ${kind}:`,
    `      failureThreshold: ${fail}`,
    '      httpGet:',
    `        host: ${host}`,
    `        path: ${path}`,
    `        port: ${port}`,
    `        scheme: ${scheme}`,
    ...(delay ? [`      initialDelaySeconds: ${delay}`] : []),
    `      periodSeconds: ${period}`,
    '      timeoutSeconds: 15',
  ].join('\n');
}

function staticPod(
  name: string,
  annotations: string[],
  command: string[],
  image: string,
  probes: string[],
  cpu: string,
  vols: [string, string, string][],
): string {
  const { mounts, volumes } = hostPathVolumes(vols);
  return [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    ...(annotations.length ? ['  annotations:', ...annotations.map((a) => `    ${a}`)] : []),
    '  creationTimestamp: null',
    '  labels:',
    `    component: ${name}`,
    '    tier: control-plane',
    `  name: ${name}`,
    '  namespace: kube-system',
    'spec:',
    '  containers:',
    '  - command:',
    ...command.map((c) => `    - ${c}`),
    `    image: ${image}`,
    '    imagePullPolicy: IfNotPresent',
    probes[0] as string,
    `    name: ${name}`,
    ...probes.slice(1, -1),
    '    resources:',
    '      requests:',
    `        cpu: ${cpu}`,
    probes[probes.length - 1] as string,
    '    volumeMounts:',
    mounts,
    '  hostNetwork: true',
    '  priority: 2000001000',
    '  priorityClassName: system-node-critical',
    '  securityContext:',
    '    seccompProfile:',
    '      type: RuntimeDefault',
    '  volumes:',
    volumes,
    'status: {}',
    '',
  ].join('\n');
}

const CA_VOLS: [string, string, string][] = [
  ['ca-certs', '/etc/ssl/certs', 'ro'],
  ['etc-ca-certificates', '/etc/ca-certificates', 'ro'],
  ['usr-local-share-ca-certificates', '/usr/local/share/ca-certificates', 'ro'],
  ['usr-share-ca-certificates', '/usr/share/ca-certificates', 'ro'],
];

export function apiserverManifest(ip: string): string {
  const flags = [
    'kube-apiserver',
    `--advertise-address=${ip}`,
    '--allow-privileged=true',
    '--authorization-mode=Node,RBAC',
    '--client-ca-file=/etc/kubernetes/pki/ca.crt',
    '--enable-admission-plugins=NodeRestriction',
    '--enable-bootstrap-token-auth=true',
    '--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt',
    '--etcd-certfile=/etc/kubernetes/pki/apiserver-etcd-client.crt',
    '--etcd-keyfile=/etc/kubernetes/pki/apiserver-etcd-client.key',
    '--etcd-servers=https://127.0.0.1:2379',
    '--kubelet-client-certificate=/etc/kubernetes/pki/apiserver-kubelet-client.crt',
    '--kubelet-client-key=/etc/kubernetes/pki/apiserver-kubelet-client.key',
    '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
    '--proxy-client-cert-file=/etc/kubernetes/pki/front-proxy-client.crt',
    '--proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key',
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-username-headers=X-Remote-User',
    '--runtime-config=',
    '--secure-port=6443',
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    '--service-account-key-file=/etc/kubernetes/pki/sa.pub',
    '--service-account-signing-key-file=/etc/kubernetes/pki/sa.key',
    '--service-cluster-ip-range=10.96.0.0/12',
    '--tls-cert-file=/etc/kubernetes/pki/apiserver.crt',
    '--tls-private-key-file=/etc/kubernetes/pki/apiserver.key',
  ];
  return staticPod(
    'kube-apiserver',
    [`kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint: ${ip}:6443`],
    flags,
    'registry.k8s.io/kube-apiserver:v1.32.5',
    [
      probeBlock('livenessProbe', ip, '/livez', 6443, 'HTTPS', 8, 10, 10),
      probeBlock('readinessProbe', ip, '/readyz', 6443, 'HTTPS', 3, 0, 1),
      probeBlock('startupProbe', ip, '/livez', 6443, 'HTTPS', 24, 10, 10),
    ],
    '250m',
    [...CA_VOLS, ['k8s-certs', '/etc/kubernetes/pki', 'ro']],
  );
}

export function etcdManifest(ip: string, node: string): string {
  const flags = [
    'etcd',
    `--advertise-client-urls=https://${ip}:2379`,
    '--cert-file=/etc/kubernetes/pki/etcd/server.crt',
    '--client-cert-auth=true',
    '--data-dir=/var/lib/etcd',
    '--experimental-initial-corrupt-check=true',
    '--experimental-watch-progress-notify-interval=5s',
    `--initial-advertise-peer-urls=https://${ip}:2380`,
    `--initial-cluster=${node}=https://${ip}:2380`,
    '--key-file=/etc/kubernetes/pki/etcd/server.key',
    `--listen-client-urls=https://127.0.0.1:2379,https://${ip}:2379`,
    '--listen-metrics-urls=http://127.0.0.1:2381',
    `--listen-peer-urls=https://${ip}:2380`,
    `--name=${node}`,
    '--peer-cert-file=/etc/kubernetes/pki/etcd/peer.crt',
    '--peer-client-cert-auth=true',
    '--peer-key-file=/etc/kubernetes/pki/etcd/peer.key',
    '--peer-trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
    '--snapshot-count=10000',
    '--trusted-ca-file=/etc/kubernetes/pki/etcd/ca.crt',
  ];
  const manifest = staticPod(
    'etcd',
    [`kubeadm.kubernetes.io/etcd.advertise-client-urls: https://${ip}:2379`],
    flags,
    'registry.k8s.io/etcd:3.5.16-0',
    [
      probeBlock('livenessProbe', '127.0.0.1', '/livez', 2381, 'HTTP', 8, 10, 10),
      probeBlock('readinessProbe', '127.0.0.1', '/readyz', 2381, 'HTTP', 3, 0, 1),
      probeBlock('startupProbe', '127.0.0.1', '/readyz', 2381, 'HTTP', 24, 10, 10),
    ],
    '100m',
    [
      ['etcd-certs', '/etc/kubernetes/pki/etcd', 'rw'],
      ['etcd-data', '/var/lib/etcd', 'rw'],
    ],
  );
  return manifest.replace(
    '      requests:\n        cpu: 100m',
    '      requests:\n        cpu: 100m\n        memory: 100Mi',
  );
}

export function controllerManagerManifest(): string {
  const flags = [
    'kube-controller-manager',
    '--allocate-node-cidrs=true',
    '--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf',
    '--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf',
    '--bind-address=127.0.0.1',
    '--client-ca-file=/etc/kubernetes/pki/ca.crt',
    '--cluster-cidr=10.244.0.0/16',
    '--cluster-name=kubejourney',
    '--cluster-signing-cert-file=/etc/kubernetes/pki/ca.crt',
    '--cluster-signing-key-file=/etc/kubernetes/pki/ca.key',
    '--controllers=*,bootstrapsigner,tokencleaner',
    '--enable-hostpath-provisioner=true',
    '--kubeconfig=/etc/kubernetes/controller-manager.conf',
    '--leader-elect=true',
    '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
    '--root-ca-file=/etc/kubernetes/pki/ca.crt',
    '--service-account-private-key-file=/etc/kubernetes/pki/sa.key',
    '--service-cluster-ip-range=10.96.0.0/12',
    '--use-service-account-credentials=true',
  ];
  return staticPod(
    'kube-controller-manager',
    [],
    flags,
    'registry.k8s.io/kube-controller-manager:v1.32.5',
    [
      probeBlock('livenessProbe', '127.0.0.1', '/healthz', 10257, 'HTTPS', 8, 10, 10),
      probeBlock('startupProbe', '127.0.0.1', '/healthz', 10257, 'HTTPS', 24, 10, 10),
    ],
    '200m',
    [
      ...CA_VOLS,
      ['flexvolume-dir', '/usr/libexec/kubernetes/kubelet-plugins/volume/exec', 'rw'],
      ['k8s-certs', '/etc/kubernetes/pki', 'ro'],
      ['kubeconfig', '/etc/kubernetes/controller-manager.conf', 'ro'],
    ],
  );
}

export function schedulerManifest(): string {
  const flags = [
    'kube-scheduler',
    '--authentication-kubeconfig=/etc/kubernetes/scheduler.conf',
    '--authorization-kubeconfig=/etc/kubernetes/scheduler.conf',
    '--bind-address=127.0.0.1',
    '--kubeconfig=/etc/kubernetes/scheduler.conf',
    '--leader-elect=true',
  ];
  return staticPod(
    'kube-scheduler',
    [],
    flags,
    'registry.k8s.io/kube-scheduler:v1.32.5',
    [
      probeBlock('livenessProbe', '127.0.0.1', '/livez', 10259, 'HTTPS', 8, 10, 10),
      probeBlock('readinessProbe', '127.0.0.1', '/readyz', 10259, 'HTTPS', 3, 0, 1),
      probeBlock('startupProbe', '127.0.0.1', '/livez', 10259, 'HTTPS', 24, 10, 10),
    ],
    '100m',
    [['kubeconfig', '/etc/kubernetes/scheduler.conf', 'ro']],
  );
}

function kubeconfig(server: string, user: string, seed: string): string {
  return [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    `    certificate-authority-data: ${deterministicBase64('crt:ca', 780)}`,
    `    server: https://${server}:6443`,
    '  name: kubejourney',
    'contexts:',
    '- context:',
    '    cluster: kubejourney',
    `    user: ${user}`,
    `  name: ${user}@kubejourney`,
    `current-context: ${user}@kubejourney`,
    'kind: Config',
    'preferences: {}',
    'users:',
    `- name: ${user}`,
    '  user:',
    `    client-certificate-data: ${deterministicBase64(`${seed}:crt`, 600)}`,
    `    client-key-data: ${deterministicBase64(`${seed}:key`, 900)}`,
    '',
  ].join('\n');
}

function kubeletConf(server: string, node: string): string {
  return [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    `    certificate-authority-data: ${deterministicBase64('crt:ca', 780)}`,
    `    server: https://${server}:6443`,
    '  name: kubejourney',
    'contexts:',
    '- context:',
    '    cluster: kubejourney',
    `    user: system:node:${node}`,
    `  name: system:node:${node}@kubejourney`,
    `current-context: system:node:${node}@kubejourney`,
    'kind: Config',
    'preferences: {}',
    'users:',
    `- name: system:node:${node}`,
    '  user:',
    '    client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem',
    '    client-key: /var/lib/kubelet/pki/kubelet-client-current.pem',
    '',
  ].join('\n');
}

function kubeletConfig(): string {
  return [
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'authentication:',
    '  anonymous:',
    '    enabled: false',
    '  webhook:',
    '    cacheTTL: 0s',
    '    enabled: true',
    '  x509:',
    '    clientCAFile: /etc/kubernetes/pki/ca.crt',
    'authorization:',
    '  mode: Webhook',
    'cgroupDriver: systemd',
    'clusterDNS:',
    '- 10.96.0.10',
    'clusterDomain: cluster.local',
    'containerRuntimeEndpoint: unix:///run/containerd/containerd.sock',
    'evictionHard:',
    '  imagefs.available: 15%',
    '  memory.available: 100Mi',
    '  nodefs.available: 10%',
    'imageGCHighThresholdPercent: 85',
    'kind: KubeletConfiguration',
    'nodeStatusReportFrequency: 5m0s',
    'nodeStatusUpdateFrequency: 10s',
    'rotateCertificates: true',
    'staticPodPath: /etc/kubernetes/manifests',
    'syncFrequency: 1m0s',
    '',
  ].join('\n');
}

function cniConf(podCIDR: string): string {
  return `{
\t"cniVersion": "0.3.1",
\t"name": "kindnet",
\t"plugins": [
\t{
\t\t"type": "ptp",
\t\t"ipMasq": false,
\t\t"ipam": {
\t\t\t"type": "host-local",
\t\t\t"dataDir": "/run/cni-ipam-state",
\t\t\t"routes": [
\t\t\t\t{ "dst": "0.0.0.0/0" }
\t\t\t],
\t\t\t"ranges": [
\t\t\t\t[ { "subnet": "${podCIDR}" } ]
\t\t\t]
\t\t},
\t\t"mtu": 1500
\t},
\t{
\t\t"type": "portmap",
\t\t"capabilities": {
\t\t\t"portMappings": true
\t\t}
\t}
\t]
}
`;
}
