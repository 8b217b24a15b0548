// A connection across the simulated network: the source node's kernel rules pick the destination
// (a ClusterIP is DNATed to one ready pod), then the pod network delivers it to whichever node
// owns that pod IP, where the app answers. What `curl` from a node or a pod uses.

import type { ResolveResult } from './iptables';
import { cidrContains } from './iptables-rule';
import type { NodeHost } from './node-host';

export interface ConnectResult {
  /** true when an HTTP response came back */
  ok: boolean;
  status?: number;
  body?: string;
  /** curl-style failure: `Connection refused`, `Connection timed out`, ... */
  error?: 'connection refused' | 'timeout' | 'no route to host';
  /** the pod ip:port the connection reached */
  reached?: { ip: string; port: number; node?: string };
  route: ResolveResult;
}

export function httpConnect(
  hosts: readonly NodeHost[],
  fromNode: string,
  dstIp: string,
  port: number,
  path: string,
  now: number,
  opts: { random?: () => number; sourceIp?: string; userAgent?: string } = {},
): ConnectResult {
  const src = hosts.find((h) => h.name === fromNode);
  if (!src) throw new Error(`unknown node ${fromNode}`);
  // A node address (NodePort) is handled by that node's rules as incoming traffic; anything else
  // by the source node's own rules.
  const nodeDst = hosts.find((h) => h.internalIP === dstIp);
  const rulesHost = nodeDst ?? src;
  const route = rulesHost.iptables.resolve(dstIp, port, {
    random: opts.random,
    sourceIp: opts.sourceIp ?? src.internalIP,
    from: opts.sourceIp || (nodeDst && nodeDst !== src) ? 'pod' : 'node',
    serviceCidr: rulesHost.serviceCIDR,
    localIps: [rulesHost.internalIP],
  });
  if (route.outcome === 'rejected') return { ok: false, error: 'connection refused', route };
  if (route.outcome === 'unroutable') return { ok: false, error: 'timeout', route };
  const target = { ip: route.ip, port: route.port };
  const owner = hosts.find((h) => cidrContains(h.podCIDR, target.ip));
  if (!owner) {
    const nodeTarget = hosts.find((h) => h.internalIP === target.ip);
    return {
      ok: false,
      error: nodeTarget ? 'connection refused' : 'timeout',
      route,
      reached: target,
    };
  }
  const res = owner.containerd.http(target.ip, target.port, path, now, {
    clientIp:
      opts.sourceIp ??
      (owner === src ? `${owner.podCIDR.split('.').slice(0, 3).join('.')}.1` : src.internalIP),
    userAgent: opts.userAgent ?? 'curl/7.88.1',
  });
  if (!res.ok) {
    const sandbox = owner.containerd
      .listSandboxes()
      .find((s) => s.ip === target.ip && s.state === 'SANDBOX_READY');
    return {
      ok: false,
      error: sandbox ? 'connection refused' : 'no route to host',
      route,
      reached: { ...target, node: owner.name },
    };
  }
  return {
    ok: true,
    status: res.status,
    body: res.body,
    route,
    reached: { ...target, node: owner.name },
  };
}
