import type { TLabObjectRecord, TLabTraceRecord } from './lab.repository';

// The serialized lab (libs/sim `Lab.serialize()`, JSON) split into what we store apart:
// - its etcd keyspace (`etcd.kvs`): one LabObject row per key, so a tick rewrites only the keys
//   that changed;
// - its trace (`trace.events`): one LabTraceEvent row per event, appended as they happen;
// - the big sections of each node machine (`hosts[i].files`, `.containerd`, ...): one
//   LabStatePart row each, rewritten only when their text changes (a node's files, ~60 KB on the
//   control plane, almost never do);
// - each component's saved state (`components[i]`, keyed by its `key`): one LabStatePart row each,
//   so a tick rewrites the few components that moved, not all of them (~47 KB together);
// - the rest ("core": clock, rng, wake queue, etcd header...): Lab.coreState, a few KB.
// Merging puts everything back where the simulator expects it, byte for byte. This module is the
// only one that knows those paths.

export interface TLabStatePartRecord {
  name: string;
  value: string;
}

export interface TLabSnapshotParts {
  /** the serialized lab without keyspace, trace events and host sections (JSON text) */
  core: string;
  parts: TLabStatePartRecord[];
  kvs: TLabObjectRecord[];
  events: TLabTraceRecord[];
}

/** Host fields stored as parts of their own (each is large or changes on its own rhythm). */
const HOST_SECTIONS = ['containerd', 'iptables', 'files', 'systemd'] as const;

type TJson = Record<string, unknown>;

function section(root: TJson, name: string): TJson {
  const value = root[name];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`serialized lab has no "${name}" section`);
  }
  return value as TJson;
}

function list<T>(parent: TJson, name: string, where: string): T[] {
  const value = parent[name];
  if (!Array.isArray(value)) throw new Error(`serialized lab has no "${where}" list`);
  return value as T[];
}

function hostName(host: TJson, index: number): string {
  const spec = host['spec'] as { name?: unknown } | undefined;
  return typeof spec?.name === 'string' ? spec.name : `#${index}`;
}

/**
 * JSON texts of frozen sections, by identity. libs/sim hands out the same frozen object for a
 * section that has not changed since the last serialization (a node's iptables rules, its
 * journal), so its text is made once instead of on every write. Only frozen values are
 * remembered: nothing can change them behind the text.
 */
const frozenTexts = new WeakMap<object, string>();

function stringifySection(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) {
    return JSON.stringify(value);
  }
  let text = frozenTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    frozenTexts.set(value, text);
  }
  return text;
}

export function splitLabSnapshot(serialized: string): TLabSnapshotParts {
  return splitLabValue(JSON.parse(serialized) as unknown);
}

/**
 * splitLabSnapshot of the value `serialize()` stringifies (libs/sim `serializeState`), without
 * the text: stringifying a piece of the value gives the same text as stringifying that piece
 * parsed back from the whole text, so the results are identical, minus a stringify and a parse
 * of the whole lab. The value is only read.
 */
export function splitLabValue(value: unknown): TLabSnapshotParts {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('serialized lab is not an object');
  }
  const root = value as TJson;
  const etcd = section(root, 'etcd');
  const trace = section(root, 'trace');
  const kvs = list<TLabObjectRecord>(etcd, 'kvs', 'etcd.kvs').map((kv) => ({
    key: kv.key,
    value: kv.value,
    createRevision: kv.createRevision,
    modRevision: kv.modRevision,
    version: kv.version,
  }));
  const events = list<TLabTraceRecord>(trace, 'events', 'trace.events');
  const parts: TLabStatePartRecord[] = [];
  const hosts = list<TJson>(root, 'hosts', 'hosts').map((host, index) => {
    const name = hostName(host, index);
    // Sections are replaced by null in place (not removed), so merging keeps the key order.
    const base: TJson = { ...host };
    for (const field of HOST_SECTIONS) {
      if (host[field] === undefined) continue;
      parts.push({ name: `host/${name}/${field}`, value: stringifySection(host[field]) });
      base[field] = null;
    }
    parts.push({ name: `host/${name}`, value: JSON.stringify(base) });
    return name;
  });
  const components = splitComponents(root, parts);
  const core = JSON.stringify({
    ...root,
    etcd: { ...etcd, kvs: [] },
    hosts,
    ...(components ? { components } : {}),
    trace: { ...trace, events: [] },
  });
  return { core, parts, kvs, events };
}

/**
 * Moves each component (`{ key, gen, watchAt, timers, state }`) to a part `component/<key>` and
 * returns the keys that stand in for them in the core; undefined when the lab has no component
 * list in that shape (then the core keeps whatever `components` holds).
 */
function splitComponents(root: TJson, parts: TLabStatePartRecord[]): string[] | undefined {
  const list = root['components'];
  if (!Array.isArray(list)) return undefined;
  const isKeyed = list.every(
    (c: unknown) =>
      typeof c === 'object' && c !== null && typeof (c as { key?: unknown }).key === 'string',
  );
  if (!isKeyed) return undefined;
  return list.map((c: { key: string }) => {
    parts.push({ name: `component/${c.key}`, value: stringifyComponent(c) });
    return c.key;
  });
}

const COMPONENT_FIELDS = 'key,gen,watchAt,timers,state';

/**
 * JSON.stringify of a component entry, with its state's text reused by identity (a component
 * that did not run since the last save hands out the same frozen state). Byte for byte the same
 * text: the entry's own fields are written first, in their order, then the state's text.
 */
function stringifyComponent(c: { key: string; state?: unknown }): string {
  const { state, ...head } = c;
  if (state === undefined || Object.keys(c).join(',') !== COMPONENT_FIELDS) {
    return JSON.stringify(c);
  }
  const headText = JSON.stringify(head);
  return `${headText.slice(0, -1)},"state":${stringifySection(state)}}`;
}

/** The inverse of splitComponents (a core from before components were split keeps its list). */
function mergeComponents(root: TJson, byName: Map<string, string>): unknown {
  const list = root['components'];
  if (!Array.isArray(list) || !list.every((c: unknown) => typeof c === 'string')) return list;
  return list.map((key: string) => {
    const text = byName.get(`component/${key}`);
    if (text === undefined) throw new Error(`stored lab has no part "component/${key}"`);
    return JSON.parse(text) as unknown;
  });
}

/**
 * Rebuilds `serialize()`'s text from the stored pieces. Keys come back in etcd's sorted order
 * whatever order the rows were read in; `events` are the most recent trace events kept.
 */
export function mergeLabSnapshot(
  core: string,
  parts: readonly TLabStatePartRecord[],
  kvs: readonly TLabObjectRecord[],
  events: readonly TLabTraceRecord[],
): string {
  return JSON.stringify(mergeLabValue(core, parts, kvs, events));
}

/**
 * mergeLabSnapshot as the value its text would parse to (a fresh object the caller owns): a
 * restore takes it as it is instead of printing the whole lab and parsing it back.
 */
export function mergeLabValue(
  core: string,
  parts: readonly TLabStatePartRecord[],
  kvs: readonly TLabObjectRecord[],
  events: readonly TLabTraceRecord[],
): Record<string, unknown> {
  const root = JSON.parse(core) as TJson;
  const etcd = section(root, 'etcd');
  const trace = section(root, 'trace');
  const byName = new Map(parts.map((p) => [p.name, p.value]));
  const hosts = list<string>(root, 'hosts', 'hosts').map((name) => {
    const baseText = byName.get(`host/${name}`);
    if (baseText === undefined) throw new Error(`stored lab has no part "host/${name}"`);
    const host = JSON.parse(baseText) as TJson;
    for (const field of HOST_SECTIONS) {
      const text = byName.get(`host/${name}/${field}`);
      if (text !== undefined) host[field] = JSON.parse(text);
    }
    return host;
  });
  const sorted = [...kvs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const components = mergeComponents(root, byName);
  return {
    ...root,
    etcd: { ...etcd, kvs: sorted },
    hosts,
    ...(components === undefined ? {} : { components }),
    trace: { ...trace, events },
  };
}

/** Where the keyspace and the trace events sit in `serialize()`'s text (see splitLabState). */
const KVS_OPEN = '"kvs":[';
const KVS_CLOSE = '],"raftTerm":';
const EVENTS_OPEN = '"events":[';

/**
 * The core and the parts of a serialized lab, without its keyspace and trace events: what a
 * tick needs (the keys it changed come from etcd itself, its events from `trace(since)`).
 * Those two lists are most of the text (~190 KB of keys on a small cluster); they are cut out
 * of the text before parsing instead of being parsed and thrown away. The cut relies on
 * `serialize()` writing `etcd` as { ..., kvs: [...], raftTerm, ... } and `trace` last as
 * { nextSeq, events: [...] }: a marker cannot occur inside a JSON string (its quotes would be
 * escaped) and the kv records have fixed fields. Whatever does not match exactly falls back to
 * the full split, so the result is the same either way.
 */
export function splitLabState(serialized: string): Pick<TLabSnapshotParts, 'core' | 'parts'> {
  const cut = cutKeyspaceAndEvents(serialized);
  if (cut !== null) {
    try {
      const split = splitLabSnapshot(cut);
      if (split.kvs.length === 0 && split.events.length === 0) {
        return { core: split.core, parts: split.parts };
      }
    } catch {
      // not the layout we expected: the full split below decides
    }
  }
  const full = splitLabSnapshot(serialized);
  return { core: full.core, parts: full.parts };
}

function cutKeyspaceAndEvents(text: string): string | null {
  const etcdAt = text.indexOf('"etcd":{');
  if (etcdAt < 0) return null;
  const kvsAt = text.indexOf(KVS_OPEN, etcdAt);
  if (kvsAt < 0) return null;
  const kvsEnd = text.indexOf(KVS_CLOSE, kvsAt);
  if (kvsEnd < 0) return null;
  const traceAt = text.lastIndexOf(',"trace":{"nextSeq":');
  if (traceAt < kvsEnd) return null;
  const eventsAt = text.indexOf(EVENTS_OPEN, traceAt);
  if (eventsAt < 0 || !text.endsWith(']}}')) return null;
  return (
    text.slice(0, kvsAt + KVS_OPEN.length) +
    text.slice(kvsEnd, eventsAt + EVENTS_OPEN.length) +
    ']}}'
  );
}
