// The kernel's netfilter tables on one node, as data. kube-proxy (and a little the kubelet) write
// rules here; the kernel, not kube-proxy, then uses them for every connection. That is why the
// rules stay in place when kube-proxy stops: they live in the node, not in the process.

import type { IptablesRule } from './iptables-rule';
import { cidrContains, renderListRow, renderRuleSpec, kernelProbability } from './iptables-rule';
import { MONTH_ABBR, WEEKDAY_ABBR } from '../shared/time';
import { frozenJsonCopy, jsonCopy } from '../shared/json-copy';

export type TableName = 'nat' | 'filter';

const BUILTINS: Record<TableName, string[]> = {
  nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
  filter: ['INPUT', 'FORWARD', 'OUTPUT'],
};

export interface IptablesJson {
  nat: Record<string, IptablesRule[]>;
  filter: Record<string, IptablesRule[]>;
}

export interface ResolveCandidate {
  ip: string;
  port: number;
  /** the effective chance that a new connection lands here */
  probability: number;
  chain: string;
}

export type ResolveResult =
  | {
      outcome: 'dnat';
      ip: string;
      port: number;
      /** chains walked, e.g. OUTPUT, KUBE-SERVICES, KUBE-SVC-..., KUBE-SEP-... */
      path: string[];
      candidates: ResolveCandidate[];
    }
  /** no NAT rule matched: the packet keeps its destination (a pod IP or a node IP) */
  | { outcome: 'direct'; ip: string; port: number; path: string[] }
  /** a REJECT rule answered (kube-proxy's "has no endpoints"): the client sees ECONNREFUSED */
  | { outcome: 'rejected'; path: string[]; comment?: string; error: 'connection refused' }
  /** a virtual IP with no rule: nothing answers, the client times out */
  | { outcome: 'unroutable'; path: string[]; error: 'timeout' };

export interface ResolveOptions {
  protocol?: 'tcp' | 'udp' | 'sctp';
  /** source address (a pod IP when the connection comes from a pod) */
  sourceIp?: string;
  /** where the connection starts: the node itself (OUTPUT) or a pod (PREROUTING) */
  from?: 'node' | 'pod';
  /** one draw in [0,1) per `-m statistic` rule met; default always 0 (first endpoint) */
  random?: () => number;
  /** virtual service range; destinations in it with no rule are unroutable */
  serviceCidr?: string;
  /** this node's own addresses (`-m addrtype --dst-type LOCAL`, i.e. NodePorts) */
  localIps?: string[];
}

export class Iptables {
  private tables: IptablesJson;
  /**
   * The last toJSON copy, frozen, until a rule changes: a lab serializes every host on each
   * write, and the rules change only when kube-proxy syncs. Returning the same object also lets
   * the lab store reuse the text it made of it.
   */
  private snapshot: IptablesJson | null = null;

  constructor(json?: IptablesJson) {
    this.tables = json ? jsonCopy(json) : { nat: {}, filter: {} };
    for (const t of ['nat', 'filter'] as const) {
      for (const c of BUILTINS[t]) this.tables[t][c] ??= [];
    }
  }

  toJSON(): IptablesJson {
    this.snapshot ??= frozenJsonCopy(this.tables);
    return this.snapshot;
  }

  chains(table: TableName): string[] {
    const user = Object.keys(this.tables[table])
      .filter((c) => !BUILTINS[table].includes(c))
      .sort();
    return [...BUILTINS[table], ...user];
  }

  rules(table: TableName, chain: string): IptablesRule[] | undefined {
    return this.tables[table][chain];
  }

  ensureChain(table: TableName, chain: string): void {
    if (this.tables[table][chain]) return;
    this.tables[table][chain] = [];
    this.snapshot = null;
  }

  /** Appends a rule unless an identical one is already in the chain (`iptables -C || -A`). */
  ensureRule(table: TableName, chain: string, rule: IptablesRule): void {
    this.ensureChain(table, chain);
    const spec = renderRuleSpec(rule);
    const rules = this.tables[table][chain] as IptablesRule[];
    if (rules.some((r) => renderRuleSpec(r) === spec)) return;
    rules.push(rule);
    this.snapshot = null;
  }

  /**
   * Like `iptables-restore --noflush`: replaces the given chains wholesale and deletes the chains
   * `owns` claims that are no longer listed (kube-proxy dropping a removed Service's chains).
   */
  restore(
    table: TableName,
    chains: Record<string, IptablesRule[]>,
    owns: (chain: string) => boolean,
  ): void {
    for (const name of Object.keys(this.tables[table])) {
      if (!BUILTINS[table].includes(name) && owns(name) && !(name in chains)) {
        delete this.tables[table][name];
      }
    }
    for (const [name, rules] of Object.entries(chains)) {
      this.tables[table][name] = jsonCopy(rules);
    }
    this.snapshot = null;
  }

  /** `iptables-save` (both tables, or one with `-t`). `when` is the ctime-style stamp. */
  save(opts: { table?: TableName; when?: string } = {}): string {
    const when = opts.when ?? 'Mon Jan  5 09:00:00 2026';
    const out: string[] = [];
    const order: TableName[] = opts.table ? [opts.table] : ['filter', 'nat'];
    for (const t of order) {
      out.push(`# Generated by iptables-save v1.8.9 (nf_tables) on ${when}`);
      out.push(`*${t}`);
      for (const c of this.chains(t)) {
        out.push(BUILTINS[t].includes(c) ? `:${c} ACCEPT [0:0]` : `:${c} - [0:0]`);
      }
      for (const c of this.chains(t)) {
        for (const r of this.tables[t][c] ?? []) out.push(`-A ${c} ${renderRuleSpec(r)}`);
      }
      out.push('COMMIT');
      out.push(`# Completed on ${when}`);
    }
    return `${out.join('\n')}\n`;
  }

  /** `iptables -t <table> -L <chain> -n`; null when the chain does not exist. */
  listChain(chain: string, table: TableName = 'nat'): string | null {
    const rules = this.tables[table][chain];
    if (!rules) return null;
    const builtin = BUILTINS[table].includes(chain);
    const refs = this.references(table, chain);
    const head = builtin ? `Chain ${chain} (policy ACCEPT)` : `Chain ${chain} (${refs} references)`;
    const columns = `${'target'.padEnd(9)}  prot opt ${'source'.padEnd(19)}  ${'destination'.padEnd(19)} `;
    return [head, columns, ...rules.map(renderListRow)].join('\n') + '\n';
  }

  /** `iptables -t <table> -L -n`: every chain, separated by blank lines. */
  listAll(table: TableName = 'nat'): string {
    return this.chains(table)
      .map((c) => this.listChain(c, table) as string)
      .join('\n');
  }

  private references(table: TableName, chain: string): number {
    let n = 0;
    for (const rules of Object.values(this.tables[table])) {
      for (const r of rules) if (r.target.kind === 'jump' && r.target.chain === chain) n++;
    }
    return n;
  }

  /**
   * Walks the rules the way the kernel does for a new connection to dstIp:port: nat first
   * (PREROUTING or OUTPUT -> KUBE-SERVICES -> KUBE-SVC-* -> KUBE-SEP-* -> DNAT), then the filter
   * table (where kube-proxy REJECTs services without endpoints).
   */
  resolve(dstIp: string, port: number, opts: ResolveOptions = {}): ResolveResult {
    const protocol = opts.protocol ?? 'tcp';
    const random = opts.random ?? (() => 0);
    const entry = opts.from === 'pod' ? 'PREROUTING' : 'OUTPUT';
    const path: string[] = [];
    const candidates: ResolveCandidate[] = [];
    const pkt = {
      dst: dstIp,
      dport: port,
      protocol,
      src: opts.sourceIp ?? '',
      local: opts.localIps ?? [],
    };
    const dnat = this.walk('nat', entry, pkt, path, random, candidates, 0);
    if (dnat) {
      const [ip, p] = dnat.split(':');
      return { outcome: 'dnat', ip: ip as string, port: Number(p), path, candidates };
    }
    const filterPath: string[] = [];
    const verdict = this.walkFilter(opts.from === 'pod' ? 'FORWARD' : 'OUTPUT', pkt, filterPath, 0);
    if (verdict) {
      return {
        outcome: 'rejected',
        path: [...path, ...filterPath],
        comment: verdict,
        error: 'connection refused',
      };
    }
    if (cidrContains(opts.serviceCidr ?? '10.96.0.0/12', dstIp)) {
      return { outcome: 'unroutable', path, error: 'timeout' };
    }
    return { outcome: 'direct', ip: dstIp, port, path };
  }

  private walk(
    table: TableName,
    chain: string,
    pkt: Packet,
    path: string[],
    random: () => number,
    candidates: ResolveCandidate[],
    depth: number,
  ): string | null {
    const rules = this.tables[table][chain];
    if (!rules || depth > 16) return null;
    path.push(chain);
    // Record every endpoint the service chain could pick, with its effective probability.
    if (chain.startsWith('KUBE-SVC-') || chain.startsWith('KUBE-SVL-'))
      collectCandidates(this, rules, candidates);
    for (const rule of rules) {
      if (!ruleMatches(rule, pkt, random)) continue;
      const t = rule.target;
      if (t.kind === 'DNAT') return t.to;
      if (t.kind === 'RETURN') return null;
      if (t.kind === 'jump') {
        if (t.chain === 'KUBE-MARK-MASQ') continue; // marks and falls through
        const hit = this.walk(table, t.chain, pkt, path, random, candidates, depth + 1);
        if (hit) return hit;
        if (t.chain.startsWith('KUBE-SVC-') || t.chain.startsWith('KUBE-SEP-')) return null;
      }
    }
    return null;
  }

  private walkFilter(chain: string, pkt: Packet, path: string[], depth: number): string | null {
    const rules = this.tables.filter[chain];
    if (!rules || depth > 8) return null;
    path.push(chain);
    for (const rule of rules) {
      if (!ruleMatches(rule, pkt, () => 0)) continue;
      const t = rule.target;
      if (t.kind === 'REJECT') {
        const c = rule.matches.find((m) => m.module === 'comment');
        return c && c.module === 'comment' ? c.comment : 'rejected';
      }
      if (t.kind === 'ACCEPT' || t.kind === 'RETURN') return null;
      if (t.kind === 'jump') {
        const hit = this.walkFilter(t.chain, pkt, path, depth + 1);
        if (hit) return hit;
      }
    }
    return null;
  }
}

interface Packet {
  dst: string;
  dport: number;
  protocol: string;
  src: string;
  local: string[];
}

function ruleMatches(rule: IptablesRule, pkt: Packet, random: () => number): boolean {
  if (rule.destination) {
    const inside = cidrContains(rule.destination.cidr, pkt.dst);
    if (inside === !!rule.destination.negate) return false;
  }
  if (rule.source) {
    const inside = pkt.src !== '' && cidrContains(rule.source.cidr, pkt.src);
    if (inside === !!rule.source.negate) return false;
  }
  if (rule.protocol && rule.protocol !== pkt.protocol) return false;
  for (const m of rule.matches) {
    switch (m.module) {
      case 'tcp':
      case 'udp':
      case 'sctp':
        if (m.dport !== undefined && m.dport !== pkt.dport) return false;
        break;
      case 'statistic':
        if (!(random() < kernelProbability(m.probability))) return false;
        break;
      case 'addrtype':
        if (!pkt.local.includes(pkt.dst)) return false;
        break;
      case 'mark':
      case 'conntrack':
      case 'comment':
        break;
    }
  }
  return true;
}

function collectCandidates(ipt: Iptables, rules: IptablesRule[], out: ResolveCandidate[]): void {
  let remaining = 1;
  for (const rule of rules) {
    if (rule.target.kind !== 'jump' || !rule.target.chain.startsWith('KUBE-SEP-')) continue;
    const stat = rule.matches.find((m) => m.module === 'statistic');
    const p = stat && stat.module === 'statistic' ? kernelProbability(stat.probability) : 1;
    const sep = ipt.rules('nat', rule.target.chain) ?? [];
    const dnat = sep.find((r) => r.target.kind === 'DNAT');
    if (dnat && dnat.target.kind === 'DNAT') {
      const [ip, port] = dnat.target.to.split(':');
      out.push({
        ip: ip as string,
        port: Number(port),
        probability: remaining * p,
        chain: rule.target.chain,
      });
    }
    remaining *= 1 - p;
  }
}

/** ctime(3) style stamp for iptables-save's header, e.g. `Mon Jan  5 09:00:00 2026`. */
export function ctimeStamp(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${WEEKDAY_ABBR[d.getUTCDay()]} ${MONTH_ABBR[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}
