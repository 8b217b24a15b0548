// iptables rules as data. A rule keeps its matches in the order they were written, because
// iptables-save prints them in that order (-s/-d/-p first, then each -m module), and the kernel
// evaluates them the same way: every match must hold, then the target fires.

export type Match =
  | { module: 'comment'; comment: string }
  | { module: 'tcp' | 'udp' | 'sctp'; dport?: number }
  | { module: 'statistic'; probability: number }
  | { module: 'addrtype'; dstType: 'LOCAL' }
  | { module: 'mark'; mark: string; negate?: boolean }
  | { module: 'conntrack'; ctstate: string };

export type Target =
  | { kind: 'jump'; chain: string }
  | { kind: 'DNAT'; to: string }
  | { kind: 'MARK'; setXmark: string }
  | { kind: 'MASQUERADE'; randomFully?: boolean }
  | { kind: 'REJECT'; rejectWith: string }
  | { kind: 'RETURN' }
  | { kind: 'ACCEPT' }
  | { kind: 'DROP' };

export interface IptablesRule {
  source?: { cidr: string; negate?: boolean };
  destination?: { cidr: string; negate?: boolean };
  protocol?: 'tcp' | 'udp' | 'sctp';
  matches: Match[];
  target: Target;
}

/**
 * The probability the kernel stores: xt_statistic keeps a u32 fraction of 2^31
 * (`lround(0x80000000 * p)`), and iptables-save prints it back with `%.11f`. kube-proxy writes
 * `%0.10f`, so 1/3 is written as 0.3333333333 and read back as 0.33333333349.
 */
export function kernelProbability(written: number): number {
  const asWritten = Number(written.toFixed(10));
  return Math.round(asWritten * 0x80000000) / 0x80000000;
}

export function formatProbability(p: number): string {
  return kernelProbability(p).toFixed(11);
}

function quote(s: string): string {
  return /[\s"]/.test(s) ? `"${s.replace(/"/g, '\\"')}"` : s;
}

/** One rule as `iptables-save` prints it (without the leading `-A CHAIN `). */
export function renderRuleSpec(rule: IptablesRule): string {
  const parts: string[] = [];
  if (rule.source) parts.push(`${rule.source.negate ? '! ' : ''}-s ${withMask(rule.source.cidr)}`);
  if (rule.destination) {
    parts.push(`${rule.destination.negate ? '! ' : ''}-d ${withMask(rule.destination.cidr)}`);
  }
  if (rule.protocol) parts.push(`-p ${rule.protocol}`);
  for (const m of rule.matches) {
    switch (m.module) {
      case 'comment':
        parts.push(`-m comment --comment ${quote(m.comment)}`);
        break;
      case 'tcp':
      case 'udp':
      case 'sctp':
        parts.push(`-m ${m.module}${m.dport !== undefined ? ` --dport ${m.dport}` : ''}`);
        break;
      case 'statistic':
        parts.push(`-m statistic --mode random --probability ${formatProbability(m.probability)}`);
        break;
      case 'addrtype':
        parts.push(`-m addrtype --dst-type ${m.dstType}`);
        break;
      case 'mark':
        parts.push(`-m mark ${m.negate ? '! ' : ''}--mark ${m.mark}`);
        break;
      case 'conntrack':
        parts.push(`-m conntrack --ctstate ${m.ctstate}`);
        break;
    }
  }
  parts.push(renderTarget(rule.target));
  return parts.join(' ');
}

function renderTarget(t: Target): string {
  switch (t.kind) {
    case 'jump':
      return `-j ${t.chain}`;
    case 'DNAT':
      return `-j DNAT --to-destination ${t.to}`;
    case 'MARK':
      return `-j MARK --set-xmark ${t.setXmark}`;
    case 'MASQUERADE':
      return `-j MASQUERADE${t.randomFully ? ' --random-fully' : ''}`;
    case 'REJECT':
      return `-j REJECT --reject-with ${t.rejectWith}`;
    case 'RETURN':
    case 'ACCEPT':
    case 'DROP':
      return `-j ${t.kind}`;
  }
}

export function targetName(t: Target): string {
  return t.kind === 'jump' ? t.chain : t.kind;
}

function withMask(cidr: string): string {
  return cidr.includes('/') ? cidr : `${cidr}/32`;
}

/** `-L -n` address column: /32 is dropped, 0.0.0.0/0 for "anywhere". */
function numericAddr(addr?: { cidr: string; negate?: boolean }): string {
  if (!addr) return '0.0.0.0/0';
  const [ip, mask] = addr.cidr.split('/');
  const text = mask === undefined || mask === '32' ? (ip as string) : `${ip}/${mask}`;
  return text;
}

/** One row of `iptables -L <chain> -n` (iptables.c print_firewall with FMT_NUMERIC|FMT_NOCOUNTS). */
export function renderListRow(rule: IptablesRule): string {
  let s = `${targetName(rule.target).padEnd(9)} `;
  s += ' ';
  s += (rule.protocol ?? 'all').padEnd(5);
  s += '-- ';
  s += rule.source?.negate ? '!' : ' ';
  s += `${numericAddr(rule.source).padEnd(19)} `;
  s += rule.destination?.negate ? '!' : ' ';
  s += `${numericAddr(rule.destination).padEnd(19)} `;
  for (const m of rule.matches) {
    switch (m.module) {
      case 'comment':
        s += ` /* ${m.comment} */`;
        break;
      case 'tcp':
      case 'udp':
      case 'sctp':
        s += ` ${m.module}${m.dport !== undefined ? ` dpt:${m.dport}` : ''}`;
        break;
      case 'statistic':
        s += ` statistic mode random probability ${formatProbability(m.probability)}`;
        break;
      case 'addrtype':
        s += ` ADDRTYPE match dst-type ${m.dstType}`;
        break;
      case 'mark':
        s += ` mark match ${m.negate ? '! ' : ''}${m.mark}`;
        break;
      case 'conntrack':
        s += ` ctstate ${m.ctstate}`;
        break;
    }
  }
  const t = rule.target;
  if (t.kind === 'DNAT') s += ` to:${t.to}`;
  else if (t.kind === 'MARK') s += ` ${describeMark(t.setXmark)}`;
  else if (t.kind === 'MASQUERADE' && t.randomFully) s += ' random-fully';
  else if (t.kind === 'REJECT') s += ` reject-with ${t.rejectWith}`;
  return s;
}

/** libxt_MARK mark_tg_print: how `-L` words `--set-xmark value/mask`. */
function describeMark(xmark: string): string {
  const [v, m] = xmark.split('/');
  const value = parseInt(v as string, 16) >>> 0;
  const mask = m === undefined ? 0xffffffff : parseInt(m, 16) >>> 0;
  const hex = (n: number): string => `0x${(n >>> 0).toString(16)}`;
  if (value === 0) return `MARK and ${hex(~mask)}`;
  if (value === mask) return `MARK or ${hex(value)}`;
  if (mask === 0) return `MARK xor ${hex(value)}`;
  if (mask === 0xffffffff) return `MARK set ${hex(value)}`;
  return `MARK xset ${hex(value)}/${hex(mask)}`;
}

// ---- matching, for resolve() ----

export function ipToInt(ip: string): number {
  const p = ip.split('.').map((x) => Number(x));
  if (p.length !== 4 || p.some((x) => !Number.isInteger(x) || x < 0 || x > 255)) return NaN;
  return (
    (((p[0] as number) << 24) |
      ((p[1] as number) << 16) |
      ((p[2] as number) << 8) |
      (p[3] as number)) >>>
    0
  );
}

export function cidrContains(cidr: string, ip: string): boolean {
  const [base, maskText] = cidr.split('/');
  const bits = maskText === undefined ? 32 : Number(maskText);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (ipToInt(base as string) & mask) >>> 0 === (ipToInt(ip) & mask) >>> 0;
}
