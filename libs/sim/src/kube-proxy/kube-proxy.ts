// kube-proxy in iptables mode, on one node. It never forwards a packet: it watches Services and
// EndpointSlices through the apiserver and rewrites this node's kernel rules so that the kernel
// DNATs ClusterIP traffic to ready pods. When it stops, the rules it last wrote stay in the kernel.

import type { Component, ComponentContext } from '../runtime/component';
import type { EndpointSlice, Endpoints, Service } from '../model';
import type { NodeHost } from '../node/node-host';
import { klogLine } from '../node/systemd';
import type { WatchEvent } from '../client/api-client';
import { Informer } from '../shared/informer';
import type { ProxyServicePort, Protocol } from './proxy-rules';
import { buildProxyRules, FILTER_JUMPS, isProxyChain, NAT_JUMPS } from './proxy-rules';

export const KUBE_PROXY_SYNC_PERIOD_MS = 30_000;

export interface KubeProxy extends Component {
  /** the service ports of the last sync (what the rules were built from) */
  lastSync(): { at: number; ports: ProxyServicePort[] } | null;
}

interface ProxyState {
  lastSyncAt: number | null;
  lastFingerprint: string | null;
  syncs: number;
}

interface SavedProxyState extends ProxyState {
  /** per watched resource, the revision its watch had read to: where a restored proxy resumes */
  revisions?: Record<string, number>;
}

/** Ready endpoints per (service, port name, protocol), from EndpointSlices or else Endpoints. */
export function collectServicePorts(
  services: Service[],
  slices: EndpointSlice[],
  endpoints: Endpoints[],
): ProxyServicePort[] {
  const out: ProxyServicePort[] = [];
  for (const svc of services) {
    const ns = svc.metadata.namespace ?? 'default';
    const name = svc.metadata.name as string;
    const ip = svc.spec.clusterIP;
    if (!ip || ip === 'None' || svc.spec.type === 'ExternalName') continue;
    const mySlices = slices.filter(
      (s) =>
        s.metadata.namespace === ns &&
        s.metadata.labels?.['kubernetes.io/service-name'] === name &&
        s.addressType !== 'IPv6',
    );
    const ep = endpoints.find((e) => e.metadata.namespace === ns && e.metadata.name === name);
    for (const sp of svc.spec.ports ?? []) {
      const protocol = (sp.protocol ?? 'TCP').toLowerCase() as Protocol;
      const ready: { ip: string; port: number }[] = [];
      if (mySlices.length > 0) {
        for (const s of mySlices) {
          const port = (s.ports ?? []).find(
            (p) =>
              (p.name ?? '') === (sp.name ?? '') &&
              (p.protocol ?? 'TCP') === (sp.protocol ?? 'TCP'),
          );
          if (!port || port.port === undefined) continue;
          for (const e of s.endpoints ?? []) {
            // kube-proxy only sends traffic to endpoints whose ready condition is not false.
            if (e.conditions?.ready === false) continue;
            for (const a of e.addresses) ready.push({ ip: a, port: port.port });
          }
        }
      } else if (ep) {
        for (const subset of ep.subsets ?? []) {
          const port = (subset.ports ?? []).find(
            (p) =>
              (p.name ?? '') === (sp.name ?? '') &&
              (p.protocol ?? 'TCP') === (sp.protocol ?? 'TCP'),
          );
          if (!port) continue;
          for (const a of subset.addresses ?? []) ready.push({ ip: a.ip, port: port.port });
        }
      }
      const seen = new Set<string>();
      out.push({
        namespace: ns,
        name,
        portName: sp.name,
        protocol,
        clusterIP: ip,
        port: sp.port,
        nodePort:
          svc.spec.type === 'NodePort' || svc.spec.type === 'LoadBalancer'
            ? sp.nodePort
            : undefined,
        endpoints: ready.filter((e) => {
          const k = `${e.ip}:${e.port}`;
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        }),
      });
    }
  }
  return out;
}

export function createKubeProxy(host: NodeHost): KubeProxy {
  const services = new Informer<Service>('services');
  const slices = new Informer<EndpointSlice>('endpointslices');
  const endpoints = new Informer<Endpoints>('endpoints');
  let state: ProxyState = { lastSyncAt: null, lastFingerprint: null, syncs: 0 };
  let last: { at: number; ports: ProxyServicePort[] } | null = null;
  const informers: Informer[] = [services, slices, endpoints];
  /**
   * Per resource, the revision of the last change seen (a list's, until a change comes): saved,
   * so a restored proxy's informers list as they stood then and watch on from there.
   */
  let revisions: Record<string, number> = {};

  /**
   * The informer's changes. A restored proxy's first list is its cache as saved (see
   * `Informer.markRestored`); what it acts on, and names as the cause of its sync, is what its
   * watch delivers from there, as the saved proxy's would have.
   */
  const follow = (informer: Informer, ctx: ComponentContext): readonly WatchEvent[] => {
    const resource = informer.resource;
    const wasSynced = informer.synced;
    let events: readonly WatchEvent[] = informer.sync(ctx.client);
    if (!wasSynced && informer.synced) {
      if (informer.listedAtResumePoint) events = informer.sync(ctx.client);
      // a first list, or a saved point the apiserver no longer remembers (410)
      else revisions[resource] = informer.lastRevision;
    }
    for (const ev of events)
      if (ev.revision > (revisions[resource] ?? -1)) revisions[resource] = ev.revision;
    return events;
  };

  const reconcile = (ctx: ComponentContext): void => {
    // A stopped unit does nothing, whoever calls it: the kernel keeps the last rules.
    if (!host.systemd.isActive('kube-proxy')) return;
    const changes = [...follow(services, ctx), ...follow(slices, ctx), ...follow(endpoints, ctx)];
    if (!services.synced) return; // apiserver unreachable and nothing cached yet: keep the kernel as is
    const cause = changes.reduce<number | undefined>((acc, ev) => ev.traceSeq ?? acc, undefined);
    const ports = collectServicePorts(
      sortByKey(services.list()),
      sortByKey(slices.list()),
      sortByKey(endpoints.list()),
    );
    const fingerprint = JSON.stringify(ports);
    const due =
      state.lastSyncAt === null || ctx.now - state.lastSyncAt >= KUBE_PROXY_SYNC_PERIOD_MS;
    if (fingerprint === state.lastFingerprint && !due) return;

    const rules = buildProxyRules(ports, { clusterCidr: host.clusterCIDR });
    const before = host.iptables.save({ when: '' });
    host.iptables.restore('nat', rules.nat, isProxyChain);
    host.iptables.restore('filter', rules.filter, isProxyChain);
    for (const j of NAT_JUMPS) host.iptables.ensureRule('nat', j.chain, j.rule);
    for (const j of FILTER_JUMPS) host.iptables.ensureRule('filter', j.chain, j.rule);
    const changed = before !== host.iptables.save({ when: '' });
    const inputsChanged = fingerprint !== state.lastFingerprint;
    state = { lastSyncAt: ctx.now, lastFingerprint: fingerprint, syncs: state.syncs + 1 };
    last = { at: ctx.now, ports };

    const natRules = Object.values(rules.nat).reduce((n, r) => n + r.length, 0);
    const filterRules = Object.values(rules.filter).reduce((n, r) => n + r.length, 0);
    const { counts } = rules;
    if (changed || inputsChanged) {
      ctx.trace.emit({
        component: 'kube-proxy',
        node: host.name,
        verb: 'sync-rules',
        message: `Rewrote iptables rules on ${host.name}: ${counts.servicePorts} service ports, ${counts.endpoints} endpoints, ${counts.noEndpoints} without endpoints`,
        causedBy: cause,
        data: { ...counts, natRules, filterRules, changed },
      });
    }
    host.systemd.log(
      'kube-proxy',
      ctx.now,
      klogLine(
        'I',
        ctx.now,
        host.epochMs,
        host.systemd.get('kube-proxy').mainPid,
        'proxier.go:1504',
        `"Reloading service iptables data" numServices=${counts.servicePorts} numEndpoints=${counts.endpoints} numFilterChains=${Object.keys(rules.filter).length + 3} numFilterRules=${filterRules} numNATChains=${Object.keys(rules.nat).length + 4} numNATRules=${natRules}`,
      ),
    );
    ctx.wakeAt(ctx.now + KUBE_PROXY_SYNC_PERIOD_MS, { periodic: true });
  };

  /** Where each watch resumes after a restore: the last change it saw. */
  const resumePoints = (): Record<string, number> => ({ ...revisions });

  return {
    name: 'kube-proxy',
    node: host.name,
    identity: 'system:kube-proxy',
    periodMs: KUBE_PROXY_SYNC_PERIOD_MS,
    watches: ['services', 'endpointslices', 'endpoints'],
    reconcile,
    lastSync: () => last,
    saveState: (): SavedProxyState => {
      const revisions = resumePoints();
      return Object.keys(revisions).length > 0 ? { ...state, revisions } : { ...state };
    },
    resumePoints,
    loadState: (s: unknown) => {
      const v = s as Partial<SavedProxyState> | undefined;
      state = {
        lastSyncAt: v?.lastSyncAt ?? null,
        lastFingerprint: v?.lastFingerprint ?? null,
        syncs: v?.syncs ?? 0,
      };
      revisions = { ...(v?.revisions ?? {}) };
      for (const informer of informers) {
        if (v) informer.markRestored(revisions[informer.resource], true);
        else informer.reset();
      }
    },
  };
}

function sortByKey<T extends { metadata: { namespace?: string; name?: string } }>(items: T[]): T[] {
  const k = (o: T): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
  return [...items].sort((a, b) => (k(a) < k(b) ? -1 : k(a) > k(b) ? 1 : 0));
}
