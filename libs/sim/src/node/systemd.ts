import { MONTH_ABBR } from '../shared/time';
import { frozenJsonCopy, jsonCopy } from '../shared/json-copy';
// systemd on the node: which daemons run (kubelet, containerd, kube-proxy) and journald's log.
// The lab decides whether to call a per-node component from its unit state, so `systemctl stop
// kubelet` and a fault that stops the kubelet are the same thing.

export type UnitName = 'kubelet' | 'containerd' | 'kube-proxy';

export const UNIT_NAMES: readonly UnitName[] = ['containerd', 'kube-proxy', 'kubelet'];

export interface UnitState {
  name: UnitName;
  active: boolean;
  /** sim ms of the last start/stop */
  since: number;
  mainPid: number;
  /** what the unit file says (for `systemctl status`) */
  description: string;
  fragmentPath: string;
  dropIns?: { dir: string; files: string[] };
}

export interface JournalEntry {
  /** sim ms */
  t: number;
  unit: UnitName | 'systemd';
  /** the process name journald prints (`kubelet`, `containerd`, `systemd`) */
  ident: string;
  pid: number;
  message: string;
}

export interface SystemdJson {
  units: UnitState[];
  journal: JournalEntry[];
  nextPid: number;
}

const MAX_JOURNAL = 2000;

const DESCRIPTIONS: Record<UnitName, Omit<UnitState, 'name' | 'active' | 'since' | 'mainPid'>> = {
  kubelet: {
    description: 'kubelet: The Kubernetes Node Agent',
    fragmentPath: '/usr/lib/systemd/system/kubelet.service',
    dropIns: { dir: '/usr/lib/systemd/system/kubelet.service.d', files: ['10-kubeadm.conf'] },
  },
  containerd: {
    description: 'containerd container runtime',
    fragmentPath: '/usr/lib/systemd/system/containerd.service',
  },
  'kube-proxy': {
    description: 'kube-proxy: The Kubernetes Network Proxy',
    fragmentPath: '/usr/lib/systemd/system/kube-proxy.service',
  },
};

export class Systemd {
  private units: UnitState[];
  private journal: JournalEntry[];
  private nextPid: number;
  /** the last toJSON copy, frozen, until a unit or the journal changes (see Iptables.toJSON) */
  private snapshot: SystemdJson | null = null;

  constructor(json?: SystemdJson) {
    const c = json ? jsonCopy(json) : undefined;
    this.nextPid = c?.nextPid ?? 180;
    this.journal = c?.journal ?? [];
    this.units =
      c?.units ??
      UNIT_NAMES.map((name) => ({
        name,
        active: true,
        since: 0,
        mainPid: this.allocPid(),
        ...DESCRIPTIONS[name],
      }));
  }

  toJSON(): SystemdJson {
    this.snapshot ??= frozenJsonCopy({
      units: this.units,
      journal: this.journal,
      nextPid: this.nextPid,
    });
    return this.snapshot;
  }

  private allocPid(): number {
    const pid = this.nextPid;
    this.nextPid += 7 + (pid % 5);
    return pid;
  }

  get(name: UnitName): UnitState {
    // a loop, not find with a closure: every kubelet wake-up asks (isActive, log)
    for (const u of this.units) if (u.name === name) return u;
    return undefined as unknown as UnitState;
  }

  list(): UnitState[] {
    return [...this.units];
  }

  isActive(name: UnitName): boolean {
    return this.get(name).active;
  }

  stop(name: UnitName, now: number): boolean {
    const u = this.get(name);
    if (!u.active) return false;
    this.append({
      t: now,
      unit: 'systemd',
      ident: 'systemd',
      pid: 1,
      message: `Stopping ${name}.service - ${u.description}...`,
    });
    u.active = false;
    u.since = now;
    this.append({
      t: now,
      unit: 'systemd',
      ident: 'systemd',
      pid: 1,
      message: `${name}.service: Deactivated successfully.`,
    });
    this.append({
      t: now,
      unit: 'systemd',
      ident: 'systemd',
      pid: 1,
      message: `Stopped ${name}.service - ${u.description}.`,
    });
    return true;
  }

  start(name: UnitName, now: number): boolean {
    const u = this.get(name);
    if (u.active) return false;
    u.active = true;
    u.since = now;
    u.mainPid = this.allocPid();
    this.append({
      t: now,
      unit: 'systemd',
      ident: 'systemd',
      pid: 1,
      message: `Started ${name}.service - ${u.description}.`,
    });
    return true;
  }

  restart(name: UnitName, now: number): void {
    this.stop(name, now);
    this.start(name, now);
  }

  /** A line from a daemon (kubelet, containerd, kube-proxy) into journald. */
  log(unit: UnitName, t: number, message: string): void {
    const u = this.get(unit);
    this.append({ t, unit, ident: unit, pid: u.mainPid, message });
  }

  private append(e: JournalEntry): void {
    // start and stop change their unit before appending: this covers them too
    this.snapshot = null;
    this.journal.push(e);
    if (this.journal.length > MAX_JOURNAL)
      this.journal.splice(0, this.journal.length - MAX_JOURNAL);
  }

  /** Entries for `journalctl [-u unit]`; systemd's own lines about the unit are included, as journalctl -u does. */
  entries(unit?: UnitName): JournalEntry[] {
    if (!unit) return [...this.journal];
    return this.journal.filter(
      (e) => e.unit === unit || (e.unit === 'systemd' && e.message.includes(`${unit}.service`)),
    );
  }
}

/** journalctl's short format: `Jan 05 09:00:02 node-1 kubelet[312]: message`. */
export function formatJournalLine(e: JournalEntry, hostname: string, epochMs: number): string {
  const d = new Date(epochMs + e.t);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${MONTH_ABBR[d.getUTCMonth()]} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} ${hostname} ${e.ident}[${e.pid}]: ${e.message}`;
}

/** klog's header: `I0105 09:00:02.123456     312 kubelet.go:2468] msg`. */
export function klogLine(
  severity: 'I' | 'W' | 'E',
  t: number,
  epochMs: number,
  pid: number,
  file: string,
  msg: string,
): string {
  // (as a Date keeps it: whole ms)
  const at = Math.trunc(epochMs + t);
  const second = Math.floor(at / 1000);
  const millis = String(at - second * 1000).padStart(3, '0');
  return `${severity}${klogSecond(second)}.${millis}000 ${String(pid).padStart(7)} ${file}] ${msg}`;
}

/** The last second klogSecond formatted, and its text. */
let klogSecondAt = NaN;
let klogSecondText = '';

/**
 * klog's `0105 09:00:02` of a second since the epoch, formatted once per second: the kubelet
 * writes a few lines for every pod it starts, most of them within a second of each other.
 */
function klogSecond(second: number): string {
  if (second !== klogSecondAt) {
    const d = new Date(second * 1000);
    const p = (n: number): string => String(n).padStart(2, '0');
    klogSecondText = `${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
    klogSecondAt = second;
  }
  return klogSecondText;
}
