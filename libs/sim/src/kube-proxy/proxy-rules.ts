// From Services and their ready endpoints to the iptables rules kube-proxy's iptables mode writes
// (pkg/proxy/iptables/proxier.go syncProxyRules), as data. Pure: the component feeds it what its
// informers see and hands the result to the node's kernel tables.

import type { IptablesRule } from '../node/iptables-rule';
import { endpointChain, externalChain, serviceChain, servicePortName } from './chain-names';

export type Protocol = 'tcp' | 'udp' | 'sctp';

export interface ProxyServicePort {
  namespace: string;
  name: string;
  portName?: string;
  protocol: Protocol;
  clusterIP: string;
  port: number;
  nodePort?: number;
  /** ready endpoints only, as `ip:port` targets */
  endpoints: { ip: string; port: number }[];
}

export interface ProxyRuleSet {
  nat: Record<string, IptablesRule[]>;
  filter: Record<string, IptablesRule[]>;
  counts: { services: number; servicePorts: number; endpoints: number; noEndpoints: number };
}

export const MASQ_MARK = '0x4000/0x4000';

const c = (comment: string): { module: 'comment'; comment: string } => ({
  module: 'comment',
  comment,
});

/** Rules kube-proxy keeps whatever the services are (the jump chains and the masquerade plumbing). */
export function baseNatChains(): Record<string, IptablesRule[]> {
  return {
    'KUBE-MARK-MASQ': [{ matches: [], target: { kind: 'MARK', setXmark: MASQ_MARK } }],
    'KUBE-POSTROUTING': [
      { matches: [{ module: 'mark', mark: MASQ_MARK, negate: true }], target: { kind: 'RETURN' } },
      { matches: [], target: { kind: 'MARK', setXmark: '0x4000/0x0' } },
      {
        matches: [c('kubernetes service traffic requiring SNAT')],
        target: { kind: 'MASQUERADE', randomFully: true },
      },
    ],
    'KUBE-PROXY-CANARY': [],
  };
}

/** The builtin-chain jumps kube-proxy ensures (`iptables -C || -I`). */
export const NAT_JUMPS: { chain: string; rule: IptablesRule }[] = [
  {
    chain: 'PREROUTING',
    rule: {
      matches: [c('kubernetes service portals')],
      target: { kind: 'jump', chain: 'KUBE-SERVICES' },
    },
  },
  {
    chain: 'OUTPUT',
    rule: {
      matches: [c('kubernetes service portals')],
      target: { kind: 'jump', chain: 'KUBE-SERVICES' },
    },
  },
  {
    chain: 'POSTROUTING',
    rule: {
      matches: [c('kubernetes postrouting rules')],
      target: { kind: 'jump', chain: 'KUBE-POSTROUTING' },
    },
  },
];

const NEW = { module: 'conntrack' as const, ctstate: 'NEW' };

export const FILTER_JUMPS: { chain: string; rule: IptablesRule }[] = [
  {
    chain: 'INPUT',
    rule: {
      matches: [NEW, c('kubernetes load balancer firewall')],
      target: { kind: 'jump', chain: 'KUBE-PROXY-FIREWALL' },
    },
  },
  {
    chain: 'INPUT',
    rule: {
      matches: [c('kubernetes health check service ports')],
      target: { kind: 'jump', chain: 'KUBE-NODEPORTS' },
    },
  },
  {
    chain: 'INPUT',
    rule: {
      matches: [NEW, c('kubernetes externally-visible service portals')],
      target: { kind: 'jump', chain: 'KUBE-EXTERNAL-SERVICES' },
    },
  },
  {
    chain: 'FORWARD',
    rule: {
      matches: [NEW, c('kubernetes load balancer firewall')],
      target: { kind: 'jump', chain: 'KUBE-PROXY-FIREWALL' },
    },
  },
  {
    chain: 'FORWARD',
    rule: {
      matches: [c('kubernetes forwarding rules')],
      target: { kind: 'jump', chain: 'KUBE-FORWARD' },
    },
  },
  {
    chain: 'FORWARD',
    rule: {
      matches: [NEW, c('kubernetes service portals')],
      target: { kind: 'jump', chain: 'KUBE-SERVICES' },
    },
  },
  {
    chain: 'FORWARD',
    rule: {
      matches: [NEW, c('kubernetes externally-visible service portals')],
      target: { kind: 'jump', chain: 'KUBE-EXTERNAL-SERVICES' },
    },
  },
  {
    chain: 'OUTPUT',
    rule: {
      matches: [NEW, c('kubernetes load balancer firewall')],
      target: { kind: 'jump', chain: 'KUBE-PROXY-FIREWALL' },
    },
  },
  {
    chain: 'OUTPUT',
    rule: {
      matches: [NEW, c('kubernetes service portals')],
      target: { kind: 'jump', chain: 'KUBE-SERVICES' },
    },
  },
];

function compareEndpoint(a: { ip: string; port: number }, b: { ip: string; port: number }): number {
  const x = `${a.ip}:${a.port}`;
  const y = `${b.ip}:${b.port}`;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Rules for the given service ports. `clusterCidr` adds the masquerade-off-cluster rule like kind. */
export function buildProxyRules(
  ports: ProxyServicePort[],
  opts: { clusterCidr?: string } = {},
): ProxyRuleSet {
  const nat = baseNatChains();
  const filter: Record<string, IptablesRule[]> = {
    'KUBE-EXTERNAL-SERVICES': [],
    'KUBE-FORWARD': [
      { matches: [{ module: 'conntrack', ctstate: 'INVALID' }], target: { kind: 'DROP' } },
      {
        matches: [c('kubernetes forwarding rules'), { module: 'mark', mark: MASQ_MARK }],
        target: { kind: 'ACCEPT' },
      },
      {
        matches: [
          c('kubernetes forwarding conntrack rule'),
          { module: 'conntrack', ctstate: 'RELATED,ESTABLISHED' },
        ],
        target: { kind: 'ACCEPT' },
      },
    ],
    'KUBE-NODEPORTS': [],
    'KUBE-PROXY-CANARY': [],
    'KUBE-PROXY-FIREWALL': [],
    'KUBE-SERVICES': [],
  };
  const services: IptablesRule[] = [];
  const nodePorts: IptablesRule[] = [];
  const sorted = [...ports].sort((a, b) => {
    const x = servicePortName(a.namespace, a.name, a.portName) + a.protocol;
    const y = servicePortName(b.namespace, b.name, b.portName) + b.protocol;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const serviceKeys = new Set<string>();
  let endpointCount = 0;
  let noEndpoints = 0;

  for (const sp of sorted) {
    serviceKeys.add(`${sp.namespace}/${sp.name}`);
    const spn = servicePortName(sp.namespace, sp.name, sp.portName);
    const svcChain = serviceChain(spn, sp.protocol);
    const dst = { cidr: `${sp.clusterIP}/32` };
    const portMatch = { module: sp.protocol, dport: sp.port } as const;
    const endpoints = [...sp.endpoints].sort(compareEndpoint);

    if (endpoints.length === 0) {
      noEndpoints++;
      // Upstream REJECTs in the filter table so clients get "connection refused" at once.
      filter['KUBE-SERVICES']!.push({
        destination: dst,
        protocol: sp.protocol,
        matches: [c(`${spn} has no endpoints`), portMatch],
        target: { kind: 'REJECT', rejectWith: 'icmp-port-unreachable' },
      });
      if (sp.nodePort) {
        filter['KUBE-EXTERNAL-SERVICES']!.push({
          protocol: sp.protocol,
          matches: [
            c(`${spn} has no endpoints`),
            { module: 'addrtype', dstType: 'LOCAL' },
            { module: sp.protocol, dport: sp.nodePort },
          ],
          target: { kind: 'REJECT', rejectWith: 'icmp-port-unreachable' },
        });
      }
      continue;
    }

    services.push({
      destination: dst,
      protocol: sp.protocol,
      matches: [c(`${spn} cluster IP`), portMatch],
      target: { kind: 'jump', chain: svcChain },
    });

    const svcRules: IptablesRule[] = [];
    if (opts.clusterCidr) {
      svcRules.push({
        source: { cidr: opts.clusterCidr, negate: true },
        destination: dst,
        protocol: sp.protocol,
        matches: [c(`${spn} cluster IP`), portMatch],
        target: { kind: 'jump', chain: 'KUBE-MARK-MASQ' },
      });
    }
    endpoints.forEach((ep, i) => {
      endpointCount++;
      const epStr = `${ep.ip}:${ep.port}`;
      const sepChain = endpointChain(spn, sp.protocol, epStr);
      const n = endpoints.length;
      const matches: IptablesRule['matches'] = [c(`${spn} -> ${epStr}`)];
      // Rule i takes 1/(n-i) of what is left, so every endpoint gets 1/n; the last is unconditional.
      if (i < n - 1) matches.push({ module: 'statistic', probability: 1 / (n - i) });
      svcRules.push({ matches, target: { kind: 'jump', chain: sepChain } });
      nat[sepChain] = [
        {
          source: { cidr: `${ep.ip}/32` },
          matches: [c(spn)],
          target: { kind: 'jump', chain: 'KUBE-MARK-MASQ' },
        },
        {
          protocol: sp.protocol,
          matches: [c(spn), { module: sp.protocol }],
          target: { kind: 'DNAT', to: epStr },
        },
      ];
    });
    nat[svcChain] = svcRules;

    if (sp.nodePort) {
      const extChain = externalChain(spn, sp.protocol);
      nat[extChain] = [
        {
          matches: [c(`masquerade traffic for ${spn} external destinations`)],
          target: { kind: 'jump', chain: 'KUBE-MARK-MASQ' },
        },
        { matches: [], target: { kind: 'jump', chain: svcChain } },
      ];
      nodePorts.push({
        protocol: sp.protocol,
        matches: [c(spn), { module: sp.protocol, dport: sp.nodePort }],
        target: { kind: 'jump', chain: extChain },
      });
    }
  }

  services.push({
    matches: [
      c('kubernetes service nodeports; NOTE: this must be the last rule in this chain'),
      { module: 'addrtype', dstType: 'LOCAL' },
    ],
    target: { kind: 'jump', chain: 'KUBE-NODEPORTS' },
  });
  nat['KUBE-SERVICES'] = services;
  nat['KUBE-NODEPORTS'] = nodePorts;

  return {
    nat,
    filter,
    counts: {
      services: serviceKeys.size,
      servicePorts: sorted.length,
      endpoints: endpointCount,
      noEndpoints,
    },
  };
}

/** Chains kube-proxy owns (and may delete on restore); the kubelet's canary chains are not ours. */
export function isProxyChain(chain: string): boolean {
  return chain.startsWith('KUBE-') && chain !== 'KUBE-KUBELET-CANARY' && chain !== 'KUBE-FIREWALL';
}
