// etcd as the simulator models it: one MVCC keyspace (every key carries createRevision,
// modRevision and version), a single global revision that every write bumps, and a set of raft
// members. A write is committed only when a quorum (floor(n/2)+1) of members is healthy;
// otherwise it fails the way the apiserver sees it: `etcdserver: request timed out`.
// Members replicate one log, so the keyspace is shared: a member that comes back is up to date.

import { fnv32a } from '../shared/hash';

export interface KeyValue {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
  version: number;
}

export interface EtcdMember {
  /** 16-hex-digit member ID, as `etcdctl member list` prints it */
  id: string;
  name: string;
  peerURL: string;
  clientURL: string;
  healthy: boolean;
}

export type EtcdChange =
  | { type: 'put'; kv: KeyValue; prev?: KeyValue }
  | { type: 'delete'; key: string; revision: number; prev: KeyValue };

export interface EtcdSnapshot {
  revision: number;
  /** 8 hex digits, as `etcdutl snapshot status` prints it */
  hash: string;
  totalKeys: number;
  /** bytes */
  totalSize: number;
  kvs: KeyValue[];
}

export interface EtcdState {
  revision: number;
  compactRevision: number;
  members: EtcdMember[];
  kvs: KeyValue[];
  raftTerm: number;
  raftIndex: number;
}

export const ETCD_TIMEOUT_MESSAGE = 'etcdserver: request timed out';

export class EtcdError extends Error {
  constructor(message = ETCD_TIMEOUT_MESSAGE) {
    super(message);
    this.name = 'EtcdError';
  }
}

/** Quorum for n members: floor(n/2)+1 (the article's table: 1->1, 2->2, 3->2, 4->3, 5->3, 6->4, 7->4). */
export function quorumSize(n: number): number {
  return Math.floor(n / 2) + 1;
}

/** How many members may fail while writes still commit. */
export function faultTolerance(n: number): number {
  return n - quorumSize(n);
}

export function defaultMembers(count: number, controlPlaneNode = 'control-plane'): EtcdMember[] {
  if (!Number.isInteger(count) || count < 1 || count > 7) {
    throw new RangeError(`etcd members must be 1..7, got ${count}`);
  }
  const members: EtcdMember[] = [];
  for (let i = 0; i < count; i++) {
    const name = i === 0 ? controlPlaneNode : `etcd-${i + 1}`;
    const ip = i === 0 ? '172.18.0.2' : `172.18.0.${100 + i}`;
    const id =
      fnv32a(`member:${name}`).toString(16).padStart(8, '0') +
      fnv32a(`member:${name}#`).toString(16).padStart(8, '0');
    members.push({
      id,
      name,
      peerURL: `https://${ip}:2380`,
      clientURL: `https://${ip}:2379`,
      healthy: true,
    });
  }
  return members;
}

/**
 * A key whose value is encoded on first read. The apiserver hands over the encoding of an object
 * it will not change again (the watch cache freezes it), and most values are never read: only
 * etcdctl, snapshots, saved labs and a cache rebuild look at them. Same text, read or not.
 * A class, not an object literal with a getter: every write makes one, and a literal's accessor
 * and closure cost twice the memory.
 */
class LazyKeyValue implements KeyValue {
  private text: string | undefined;

  constructor(
    readonly key: string,
    private encode: (() => string) | undefined,
    readonly createRevision: number,
    readonly modRevision: number,
    readonly version: number,
  ) {}

  get value(): string {
    if (this.text === undefined) {
      this.text = (this.encode as () => string)();
      this.encode = undefined;
    }
    return this.text;
  }
}

/** A plain copy (a lazy value is read): what snapshots and saved states hold. */
function copyKeyValue(kv: KeyValue): KeyValue {
  return {
    key: kv.key,
    value: kv.value,
    createRevision: kv.createRevision,
    modRevision: kv.modRevision,
    version: kv.version,
  };
}

export class EtcdStore {
  private kv = new Map<string, KeyValue>();
  private sortedKeys: string[] | null = null;
  private revisionValue = 1;
  private compactRevisionValue = 0;
  private raftTerm = 2;
  private raftIndex = 4;
  private listeners: ((change: EtcdChange) => void)[] = [];
  private changedKeys = new Set<string>();
  private deletedKeys = new Set<string>();
  readonly members: EtcdMember[];

  constructor(members: EtcdMember[] = defaultMembers(1)) {
    this.members = members;
  }

  get revision(): number {
    return this.revisionValue;
  }

  get compactRevision(): number {
    return this.compactRevisionValue;
  }

  get term(): number {
    return this.raftTerm;
  }

  get index(): number {
    return this.raftIndex;
  }

  healthyMembers(): EtcdMember[] {
    return this.members.filter((m) => m.healthy);
  }

  /** by health pattern (bit i: member i healthy) */
  private healthyNamesByMask = new Map<number, readonly string[]>();

  /**
   * The healthy members' names, one frozen list per health pattern: every write's trace names
   * the members that committed it, and a new list per write was ~35,000 arrays in a settle.
   */
  healthyNames(): readonly string[] {
    let mask = 0;
    for (let i = 0; i < this.members.length; i++)
      if ((this.members[i] as EtcdMember).healthy) mask |= 1 << i;
    let names = this.healthyNamesByMask.get(mask);
    if (!names) {
      names = Object.freeze(this.healthyMembers().map((m) => m.name));
      this.healthyNamesByMask.set(mask, names);
    }
    return names;
  }

  // asked several times per write: counted without building the list of healthy members
  hasQuorum(): boolean {
    let healthy = 0;
    for (const m of this.members) if (m.healthy) healthy++;
    return healthy >= quorumSize(this.members.length);
  }

  /** The leader: the first healthy member while a quorum exists (raft elects one). */
  leader(): EtcdMember | undefined {
    return this.hasQuorum() ? this.members.find((m) => m.healthy) : undefined;
  }

  member(name: string): EtcdMember | undefined {
    return this.members.find((m) => m.name === name || m.id === name);
  }

  setMemberHealthy(name: string, healthy: boolean): boolean {
    const m = this.member(name);
    if (!m) return false;
    const hadQuorum = this.hasQuorum();
    m.healthy = healthy;
    // Losing and regaining quorum forces a new election: the raft term moves on.
    if (hadQuorum !== this.hasQuorum() || (healthy && this.hasQuorum())) this.raftTerm++;
    return true;
  }

  onChange(listener: (change: EtcdChange) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Serializable read from a member's local state: answers even without quorum.
   * (Linearizable reads need quorum; use `get(key, 'l')`.)
   */
  get(key: string, consistency: 's' | 'l' = 's'): KeyValue | undefined {
    if (consistency === 'l') this.requireQuorum();
    return this.kv.get(key);
  }

  /** Keys with the given prefix, sorted (etcd range order). */
  range(prefix: string, consistency: 's' | 'l' = 's'): KeyValue[] {
    if (consistency === 'l') this.requireQuorum();
    const keys = this.keys();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((keys[mid] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: KeyValue[] = [];
    for (let i = lo; i < keys.length && (keys[i] as string).startsWith(prefix); i++) {
      out.push(this.kv.get(keys[i] as string) as KeyValue);
    }
    return out;
  }

  count(): number {
    return this.kv.size;
  }

  /**
   * Commits a put. `expectModRevision` makes it a compare-and-swap txn (what the apiserver's
   * GuaranteedUpdate does): it returns null when the key moved on.
   */
  put(key: string, value: string | (() => string), expectModRevision?: number): KeyValue | null {
    this.requireQuorum();
    const prev = this.kv.get(key);
    if (expectModRevision !== undefined && (prev?.modRevision ?? 0) !== expectModRevision)
      return null;
    const revision = ++this.revisionValue;
    this.raftIndex++;
    const createRevision = prev ? prev.createRevision : revision;
    const version = prev ? prev.version + 1 : 1;
    const kv: KeyValue =
      typeof value === 'string'
        ? { key, value, createRevision, modRevision: revision, version }
        : new LazyKeyValue(key, value, createRevision, revision, version);
    if (!prev) this.sortedKeys = null;
    this.kv.set(key, kv);
    this.changedKeys.add(key);
    // deletions are rare between drains: most puts find nothing to take back
    if (this.deletedKeys.size > 0) this.deletedKeys.delete(key);
    const change: EtcdChange = prev ? { type: 'put', kv, prev } : { type: 'put', kv };
    for (const l of this.listeners) l(change);
    return kv;
  }

  delete(key: string, expectModRevision?: number): KeyValue | null {
    this.requireQuorum();
    const prev = this.kv.get(key);
    if (!prev) return null;
    if (expectModRevision !== undefined && prev.modRevision !== expectModRevision) return null;
    const revision = ++this.revisionValue;
    this.raftIndex++;
    this.kv.delete(key);
    this.sortedKeys = null;
    this.changedKeys.delete(key);
    this.deletedKeys.add(key);
    for (const l of this.listeners) l({ type: 'delete', key, revision, prev });
    return prev;
  }

  /** Keys changed / deleted since the last drain (what one lab advance reports). */
  drainChanges(): { changed: string[]; deleted: string[] } {
    const out = { changed: [...this.changedKeys].sort(), deleted: [...this.deletedKeys].sort() };
    this.changedKeys.clear();
    this.deletedKeys.clear();
    return out;
  }

  snapshot(): EtcdSnapshot {
    // A snapshot is streamed from a member; without quorum `snapshot save` times out.
    this.requireQuorum();
    const kvs = this.keys().map((k) => copyKeyValue(this.kv.get(k) as KeyValue));
    let size = 0;
    let h = 0x811c9dc5;
    for (const kv of kvs) {
      size += kv.key.length + kv.value.length + 32;
      h = fnv32a(`${h}|${kv.key}|${kv.modRevision}|${kv.value}`);
    }
    return {
      revision: this.revisionValue,
      hash: h.toString(16).padStart(8, '0'),
      totalKeys: kvs.length,
      // bbolt pages: the db file is never smaller than its first pages
      totalSize: Math.max(20480, Math.ceil((size * 1.5) / 4096) * 4096),
      kvs,
    };
  }

  /**
   * Restores a snapshot into the (new) cluster. Keys get back their snapshot values and
   * revisions; the cluster revision is bumped past the current one and everything older is
   * marked compacted (etcdutl `--bump-revision --mark-compacted`), so watchers of the old
   * history get 410 Expired and relist instead of silently missing the jump back in time.
   */
  restore(snap: EtcdSnapshot): void {
    const before = new Map(this.kv);
    const bumped = Math.max(this.revisionValue, snap.revision) + 1;
    this.kv = new Map(snap.kvs.map((kv) => [kv.key, { ...kv }]));
    this.sortedKeys = null;
    this.revisionValue = bumped;
    this.compactRevisionValue = bumped;
    this.raftTerm++;
    for (const key of [...before.keys()].sort()) {
      if (!this.kv.has(key)) {
        this.deletedKeys.add(key);
        this.changedKeys.delete(key);
        for (const l of this.listeners) {
          l({ type: 'delete', key, revision: bumped, prev: before.get(key) as KeyValue });
        }
      }
    }
    for (const key of this.keys()) {
      const kv = this.kv.get(key) as KeyValue;
      const prev = before.get(key);
      if (prev && prev.modRevision === kv.modRevision && prev.value === kv.value) continue;
      this.changedKeys.add(key);
      this.deletedKeys.delete(key);
      for (const l of this.listeners) l(prev ? { type: 'put', kv, prev } : { type: 'put', kv });
    }
  }

  toJSON(): EtcdState {
    return {
      revision: this.revisionValue,
      compactRevision: this.compactRevisionValue,
      members: this.members.map((m) => ({ ...m })),
      kvs: this.keys().map((k) => copyKeyValue(this.kv.get(k) as KeyValue)),
      raftTerm: this.raftTerm,
      raftIndex: this.raftIndex,
    };
  }

  static fromJSON(state: EtcdState): EtcdStore {
    const store = new EtcdStore(state.members.map((m) => ({ ...m })));
    store.revisionValue = state.revision;
    store.compactRevisionValue = state.compactRevision;
    store.raftTerm = state.raftTerm;
    store.raftIndex = state.raftIndex;
    for (const kv of state.kvs) store.kv.set(kv.key, { ...kv });
    return store;
  }

  private keys(): string[] {
    if (!this.sortedKeys) this.sortedKeys = [...this.kv.keys()].sort();
    return this.sortedKeys;
  }

  private requireQuorum(): void {
    if (!this.hasQuorum()) throw new EtcdError();
  }
}
