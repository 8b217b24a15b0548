// The Node object the kubelet registers and keeps current (pkg/kubelet/kubelet_node_status.go and
// nodestatus/setters.go): capacity and allocatable, the four conditions with upstream reasons,
// addresses, nodeInfo and the image list; plus the Lease it renews in kube-node-lease.

import type { Condition, Lease, Node } from '../model';
import type { NodeHost } from '../node/node-host';
import { intValue, parseQuantity } from '../shared/quantity';

export const NODE_STATUS_UPDATE_MS = 10_000;
export const NODE_STATUS_REPORT_MS = 5 * 60_000;
export const LEASE_RENEW_MS = 10_000;
export const LEASE_DURATION_S = 40;

const EVICTION_MEMORY_BYTES = 100 * 1024 * 1024;
const EPHEMERAL_STORAGE_KI = 102_626_232;

function toKi(bytes: number): string {
  return `${Math.floor(bytes / 1024)}Ki`;
}

export function nodeCapacity(host: NodeHost): {
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
} {
  const c = host.spec.capacity ?? {};
  const cpu = c['cpu'] ?? '2';
  const memBytes = intValue(c['memory'] ?? '4Gi');
  const pods = c['pods'] ?? '110';
  const storageKi = c['ephemeral-storage']
    ? Math.floor(parseQuantity(c['ephemeral-storage']) / 1024)
    : EPHEMERAL_STORAGE_KI;
  const capacity = {
    cpu,
    'ephemeral-storage': `${storageKi}Ki`,
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: toKi(memBytes),
    pods,
  };
  // kubeadm sets no kube/system reservation; allocatable only loses the hard eviction thresholds
  // (memory.available 100Mi, nodefs.available 10%).
  const allocatable = {
    ...capacity,
    'ephemeral-storage': String(Math.floor(storageKi * 1024 * 0.9)),
    memory: toKi(memBytes - EVICTION_MEMORY_BYTES),
  };
  return { capacity, allocatable };
}

export const NODE_CONDITION_TEXT = {
  MemoryPressure: {
    reason: 'KubeletHasSufficientMemory',
    message: 'kubelet has sufficient memory available',
  },
  DiskPressure: { reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  PIDPressure: {
    reason: 'KubeletHasSufficientPID',
    message: 'kubelet has sufficient PID available',
  },
  Ready: { reason: 'KubeletReady', message: 'kubelet is posting ready status' },
} as const;

export function nodeConditions(nowIso: string, previous: Condition[] | undefined): Condition[] {
  return (['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'] as const).map((type) => {
    const status = type === 'Ready' ? 'True' : 'False';
    const prev = previous?.find((c) => c.type === type);
    // Only a kubelet-posted status with the same value keeps its transition time; the node
    // controller's Unknown (missed heartbeats) counts as a transition when the kubelet returns.
    const keep = prev && prev.status === status && prev.reason === NODE_CONDITION_TEXT[type].reason;
    return {
      type,
      status,
      lastHeartbeatTime: nowIso,
      lastTransitionTime: keep ? (prev.lastTransitionTime as string) : nowIso,
      reason: NODE_CONDITION_TEXT[type].reason,
      message: NODE_CONDITION_TEXT[type].message,
    };
  });
}

export function nodeImages(host: NodeHost): { names: string[]; sizeBytes: number }[] {
  return host.containerd
    .listImages()
    .map((i) => ({ names: [...i.names].sort().reverse(), sizeBytes: i.sizeBytes }))
    .sort((a, b) => b.sizeBytes - a.sizeBytes || (a.names[0]! < b.names[0]! ? -1 : 1))
    .slice(0, 50);
}

export function nodeInfo(host: NodeHost): NonNullable<Node['status']>['nodeInfo'] {
  return {
    machineID: host.machineID,
    systemUUID: host.systemUUID,
    bootID: host.bootID,
    kernelVersion: '6.1.0-28-amd64',
    osImage: 'Debian GNU/Linux 12 (bookworm)',
    containerRuntimeVersion: 'containerd://1.7.24',
    kubeletVersion: 'v1.32.5',
    kubeProxyVersion: 'v1.32.5',
    operatingSystem: 'linux',
    architecture: 'amd64',
  };
}

export function buildNode(host: NodeHost, nowIso: string): Node {
  const { capacity, allocatable } = nodeCapacity(host);
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': host.name,
    'kubernetes.io/os': 'linux',
    ...(host.controlPlane
      ? {
          'node-role.kubernetes.io/control-plane': '',
          'node.kubernetes.io/exclude-from-external-load-balancers': '',
        }
      : {}),
    ...(host.spec.labels ?? {}),
  };
  const taints = [
    ...(host.controlPlane &&
    !(host.spec.taints ?? []).some((t) => t.key === 'node-role.kubernetes.io/control-plane')
      ? [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' as const }]
      : []),
    ...(host.spec.taints ?? []),
  ];
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: host.name,
      labels,
      annotations: {
        'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      podCIDR: host.podCIDR,
      podCIDRs: [host.podCIDR],
      providerID: `kind://docker/kubejourney/${host.name}`,
      ...(taints.length ? { taints } : {}),
    },
    status: {
      capacity,
      allocatable,
      conditions: nodeConditions(nowIso, undefined),
      addresses: [
        { type: 'InternalIP', address: host.internalIP },
        { type: 'Hostname', address: host.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: nodeInfo(host),
      images: nodeImages(host),
    },
  };
}

export function buildLease(host: NodeHost, renewMicro: string, nodeUid?: string): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: host.name,
      namespace: 'kube-node-lease',
      ...(nodeUid
        ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: host.name, uid: nodeUid }] }
        : {}),
    },
    spec: {
      holderIdentity: host.name,
      leaseDurationSeconds: LEASE_DURATION_S,
      renewTime: renewMicro,
    },
  };
}
