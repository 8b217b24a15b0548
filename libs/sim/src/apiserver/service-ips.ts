// Service IP and NodePort allocation. ClusterIPs come from the service CIDR 10.96.0.0/12 (the
// `kubernetes` Service owns 10.96.0.1, cluster DNS 10.96.0.10 is reserved); like the real
// allocator it picks a random free address, from the lab's seeded PRNG.

import type { KubeObject } from '../model';
import type { Rng } from '../runtime/rng';

const RESERVED = new Set(['10.96.0.1', '10.96.0.10']);

interface ServiceSpec {
  type?: string;
  clusterIP?: string;
  clusterIPs?: string[];
  ports?: { nodePort?: number }[];
}

export function allocateClusterIP(svc: KubeObject, existing: KubeObject[], rng: Rng): void {
  const spec = svc['spec'] as ServiceSpec | undefined;
  if (!spec || spec.type === 'ExternalName') return;
  if (spec.clusterIP === 'None') {
    spec.clusterIPs = ['None'];
    return;
  }
  if (spec.clusterIP) {
    spec.clusterIPs = [spec.clusterIP];
    return;
  }
  const used = new Set(
    existing
      .map((s) => (s['spec'] as ServiceSpec | undefined)?.clusterIP)
      .filter(Boolean) as string[],
  );
  // 10.96.0.0/12 holds 2^20 addresses; the allocator draws offsets from the lower part like
  // upstream's dynamic block (the static band below /12's 16th address is for fixed IPs).
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const offset = 16 + rng.int((1 << 16) - 16);
    const ip = `10.96.${(offset >> 8) & 0xff}.${offset & 0xff}`;
    if (!used.has(ip) && !RESERVED.has(ip) && !ip.endsWith('.0') && !ip.endsWith('.255')) {
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
      return;
    }
  }
}

export function allocateNodePorts(svc: KubeObject, existing: KubeObject[], rng: Rng): void {
  const spec = svc['spec'] as ServiceSpec | undefined;
  if (!spec || (spec.type !== 'NodePort' && spec.type !== 'LoadBalancer')) return;
  const used = new Set<number>();
  for (const s of existing)
    for (const p of (s['spec'] as ServiceSpec | undefined)?.ports ?? [])
      if (p.nodePort) used.add(p.nodePort);
  for (const p of spec.ports ?? []) {
    if (p.nodePort) {
      used.add(p.nodePort);
      continue;
    }
    let port = 30000 + rng.int(2768);
    while (used.has(port)) port = 30000 + ((port - 30000 + 1) % 2768);
    p.nodePort = port;
    used.add(port);
  }
}
