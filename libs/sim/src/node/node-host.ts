// One machine of the cluster, independent of the API: containerd with its containers and images,
// the kernel's iptables, files on disk and systemd units. The kubelet and kube-proxy act on it; the
// command line (crictl, iptables-save, journalctl, systemctl, cat) reads it.

import type { NodeSpec } from '../lab/lab-types';
import { DEFAULT_START_TIME } from '../shared/time';
import type { ContainerdJson } from './containerd';
import { Containerd } from './containerd';
import type { IptablesJson } from './iptables';
import { Iptables } from './iptables';
import { initialFiles } from './node-files';
import { sha256Hex } from './sha256';
import type { SystemdJson } from './systemd';
import { Systemd } from './systemd';

export const CONTROL_PLANE_IMAGES = [
  'registry.k8s.io/kube-apiserver:v1.32.5',
  'registry.k8s.io/kube-controller-manager:v1.32.5',
  'registry.k8s.io/kube-scheduler:v1.32.5',
  'registry.k8s.io/etcd:3.5.16-0',
  'registry.k8s.io/coredns/coredns:v1.11.3',
];
// Every node of a kind cluster boots from the same node image, which already holds the addon
// images (CoreDNS included), so the addon pods start without a pull on any node.
export const NODE_BASE_IMAGES = [
  'registry.k8s.io/pause:3.10',
  'registry.k8s.io/kube-proxy:v1.32.5',
  'registry.k8s.io/coredns/coredns:v1.11.3',
  'docker.io/kindest/kindnetd:v20241212-9f82dd49',
];
export const DEFAULT_CACHED_IMAGES = ['registry.k8s.io/pause:3.10', 'nginx:1.27'];

export interface NodeHostOptions {
  podCIDRHint?: string;
  /** node number: control-plane 0, node-N N (derived from the name when absent) */
  index?: number;
  internalIP?: string;
  /** wall-clock instant of sim time 0 (LabOptions.startTime) */
  startTime?: string;
  /** the cluster's pod network, for kube-proxy's masquerade rule */
  clusterCIDR?: string;
  serviceCIDR?: string;
  controlPlaneIP?: string;
}

export interface NodeHostJson {
  spec: NodeSpec;
  index: number;
  internalIP: string;
  podCIDR: string;
  epochMs: number;
  clusterCIDR: string;
  serviceCIDR: string;
  controlPlaneIP: string;
  containerd: ContainerdJson;
  iptables: IptablesJson;
  files: Record<string, string>;
  systemd: SystemdJson;
}

export interface NodeHost {
  readonly name: string;
  readonly spec: NodeSpec;
  readonly index: number;
  readonly controlPlane: boolean;
  readonly internalIP: string;
  /** this node's pod range, e.g. 10.244.1.0/24 */
  readonly podCIDR: string;
  readonly clusterCIDR: string;
  readonly serviceCIDR: string;
  readonly controlPlaneIP: string;
  /** wall-clock ms of sim time 0 */
  readonly epochMs: number;
  /** stable machine identity (nodeInfo.machineID / systemUUID / bootID) */
  readonly machineID: string;
  readonly systemUUID: string;
  readonly bootID: string;
  readonly containerd: Containerd;
  readonly iptables: Iptables;
  /** path -> text; edit freely (the CLI writes static pod manifests here) */
  readonly files: Map<string, string>;
  /** systemd units (kubelet, containerd, kube-proxy) and journald */
  readonly systemd: Systemd;
  /** runs the containers' own lives up to `now` (exits, log lines); call before reading state */
  advanceTo(now: number): void;
  /** the next sim time a container does something on its own (exit, log), or null */
  nextEventAt(): number | null;
  toJSON(): NodeHostJson;
}

function indexFromName(spec: NodeSpec): number {
  if (spec.controlPlane || spec.name === 'control-plane') return 0;
  const m = spec.name.match(/(\d+)$/);
  return m ? Number(m[1]) : 1 + (parseInt(sha256Hex(spec.name).slice(0, 4), 16) % 200);
}

/**
 * A node's files, counting its changes: a lab serializes every host on each write, and files
 * (~60 KB on the control plane) change only when a learner edits one, so the host hands out the
 * same frozen copy (and the lab store the same text) until then.
 */
class FileTable extends Map<string, string> {
  changes = 0;

  override set(path: string, text: string): this {
    this.changes++;
    return super.set(path, text);
  }

  override delete(path: string): boolean {
    const had = super.delete(path);
    if (had) this.changes++;
    return had;
  }

  override clear(): void {
    this.changes++;
    super.clear();
  }
}

/**
 * How many times a host's files have changed, for readers that keep what they read from them (the
 * kubelet's static pods): while the count stands, the files are the same. Undefined when unknown.
 */
export function fileChangeCount(files: Map<string, string>): number | undefined {
  return files instanceof FileTable ? files.changes : undefined;
}

export function createNodeHost(spec: NodeSpec, opts: NodeHostOptions = {}): NodeHost {
  const index = opts.index ?? indexFromName(spec);
  const internalIP = opts.internalIP ?? `172.18.0.${2 + index}`;
  const podCIDR = opts.podCIDRHint ?? `10.244.${index}.0/24`;
  const controlPlaneIP = opts.controlPlaneIP ?? '172.18.0.2';
  const epochMs = Date.parse(opts.startTime ?? DEFAULT_START_TIME);
  const controlPlane = !!spec.controlPlane;
  const json: NodeHostJson = {
    spec: JSON.parse(JSON.stringify(spec)) as NodeSpec,
    index,
    internalIP,
    podCIDR,
    epochMs,
    clusterCIDR: opts.clusterCIDR ?? '10.244.0.0/16',
    serviceCIDR: opts.serviceCIDR ?? '10.96.0.0/12',
    controlPlaneIP,
    containerd: { images: [], sandboxes: [], containers: [], lastIp: 1 },
    iptables: { nat: {}, filter: {} },
    files: initialFiles({ node: spec.name, internalIP, controlPlane, controlPlaneIP, podCIDR }),
    systemd: new Systemd().toJSON(),
  };
  const host = restoreNodeHost(json);
  const cached = new Set([
    ...NODE_BASE_IMAGES,
    ...(controlPlane ? CONTROL_PLANE_IMAGES : []),
    ...(spec.cachedImages ?? DEFAULT_CACHED_IMAGES),
  ]);
  for (const img of [...cached].sort()) host.containerd.storeImage(img, 0);
  // The kubelet's canary chains exist from boot (it creates them to notice iptables flushes).
  for (const t of ['nat', 'filter'] as const) host.iptables.ensureChain(t, 'KUBE-KUBELET-CANARY');
  for (const u of host.systemd.list()) {
    host.systemd.log(
      u.name,
      0,
      u.name === 'kubelet'
        ? 'Flag --container-runtime-endpoint has been deprecated'
        : `starting ${u.name}`,
    );
  }
  return host;
}

export function restoreNodeHost(input: NodeHostJson | string): NodeHost {
  const json = typeof input === 'string' ? (JSON.parse(input) as NodeHostJson) : input;
  const systemd = new Systemd(json.systemd);
  const containerd = new Containerd(
    {
      node: json.spec.name,
      podCIDR: json.podCIDR,
      epochMs: json.epochMs,
      // kube-proxy runs in its DaemonSet pod's container: while the simulated kube-proxy
      // process is stopped, that container is not running either
      processStoppedSince: (name) => {
        const u = systemd.get(name);
        return u.active ? undefined : u.since;
      },
    },
    json.containerd,
  );
  const iptables = new Iptables(json.iptables);
  const files = new FileTable(Object.entries(json.files));
  let filesSnapshot: { changes: number; json: Record<string, string> } | null = null;
  const filesJson = (): Record<string, string> => {
    if (filesSnapshot?.changes !== files.changes) {
      const sorted = [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
      filesSnapshot = { changes: files.changes, json: Object.freeze(Object.fromEntries(sorted)) };
    }
    return filesSnapshot.json;
  };
  const id = (k: string): string => sha256Hex(`${k}:${json.spec.name}`);
  const uuid = (h: string): string =>
    `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  return {
    name: json.spec.name,
    spec: json.spec,
    index: json.index,
    controlPlane: !!json.spec.controlPlane,
    internalIP: json.internalIP,
    podCIDR: json.podCIDR,
    clusterCIDR: json.clusterCIDR,
    serviceCIDR: json.serviceCIDR,
    controlPlaneIP: json.controlPlaneIP,
    epochMs: json.epochMs,
    machineID: id('machine').slice(0, 32),
    systemUUID: uuid(id('uuid')),
    bootID: uuid(id('boot')),
    containerd,
    iptables,
    files,
    systemd,
    advanceTo: (now) => containerd.advanceTo(now),
    nextEventAt: () => containerd.nextEventAt(),
    toJSON: () => ({
      ...json,
      spec: JSON.parse(JSON.stringify(json.spec)) as NodeSpec,
      containerd: containerd.toJSON(),
      iptables: iptables.toJSON(),
      files: filesJson(),
      systemd: systemd.toJSON(),
    }),
  };
}
