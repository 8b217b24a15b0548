import type { TLabObjectRecord, TLabTraceRecord } from './lab.repository';

// The serialized lab (libs/sim `Lab.serialize()`, JSON) split into what we store apart:
// - its etcd keyspace (`etcd.kvs`): one LabObject row per key, so a tick rewrites only the keys
//   that changed;
// - its trace (`trace.events`): one LabTraceEvent row per event, appended as they happen;
// - the big sections of each node machine (`hosts[i].files`, `.containerd`, ...): one
//   LabStatePart row each, rewritten only when their text changes (a node's files, ~60 KB on the
//   control plane, almost never do);
// - each component's saved state (`components[i]`, keyed by its `key`): one LabStatePart row each,
//   so a tick rewrites the few components that moved, not all of them (~47 KB together); the
//   per-pod map of a state (a kubelet's `pods`, ~2.4 KB a pod) is split again, one row per pod:
//   the control plane's kubelet probes its static pods every second, and rewrote all of them;
// - the apiserver's watch history (`watchHistory`, 10–13 KB on a booted lab), one row per
//   resource: only the resources that were written since change;
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

/** Fields of a component's state whose entries are stored as parts of their own. */
const STATE_MAPS = ['pods'] as const;

/**
 * What stands in, in place, for a map whose entries went to parts: the entries' keys in their
 * order (so merging rebuilds the same key order). No saved state holds an object keyed "$parts".
 */
const PARTS_MARK = '$parts';

function isPlainMap(value: unknown): value is TJson {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function partKeys(value: unknown): string[] | undefined {
  if (!isPlainMap(value)) return undefined;
  const keys = Object.keys(value);
  const list = value[PARTS_MARK];
  return keys.length === 1 && keys[0] === PARTS_MARK && Array.isArray(list)
    ? (list as string[])
    : undefined;
}

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
  const history = splitMap(root['watchHistory'], 'watch-history', parts);
  const core = JSON.stringify({
    ...root,
    etcd: { ...etcd, kvs: [] },
    hosts,
    ...(components ? { components } : {}),
    ...(history ? { watchHistory: history } : {}),
    trace: { ...trace, events: [] },
  });
  return { core, parts, kvs, events };
}

/** Each entry of `map` to a part `<prefix>/<key>`; what stands in for the map (or undefined). */
function splitMap(
  map: unknown,
  prefix: string,
  parts: TLabStatePartRecord[],
): { [PARTS_MARK]: string[] } | undefined {
  if (!isPlainMap(map)) return undefined;
  const keys = Object.keys(map);
  for (const key of keys)
    parts.push({ name: `${prefix}/${key}`, value: stringifySection(map[key]) });
  return { [PARTS_MARK]: keys };
}

/** The inverse of splitMap: the map rebuilt from its parts, or `value` if it was not split. */
function mergeMap(value: unknown, prefix: string, byName: Map<string, string>): unknown {
  const keys = partKeys(value);
  if (!keys) return value;
  const map: TJson = {};
  for (const key of keys) {
    const text = byName.get(`${prefix}/${key}`);
    if (text === undefined) throw new Error(`stored lab has no part "${prefix}/${key}"`);
    map[key] = JSON.parse(text) as unknown;
  }
  return map;
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
  return list.map((c: { key: string; state?: unknown }) => {
    const name = `component/${c.key}`;
    const { state } = c;
    const maps = isPlainMap(state) ? STATE_MAPS.filter((field) => isPlainMap(state[field])) : [];
    if (maps.length === 0 || !isPlainMap(state)) {
      parts.push({ name, value: stringifyComponent(c) });
      return c.key;
    }
    const rest: TJson = { ...state };
    for (const field of maps) {
      rest[field] = splitMap(state[field], `${name}/${field}`, parts);
    }
    parts.push({ name, value: JSON.stringify({ ...c, state: rest }) });
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
    const name = `component/${key}`;
    const text = byName.get(name);
    if (text === undefined) throw new Error(`stored lab has no part "${name}"`);
    const c = JSON.parse(text) as { state?: unknown };
    const { state } = c;
    if (isPlainMap(state)) {
      for (const field of STATE_MAPS) {
        if (field in state) state[field] = mergeMap(state[field], `${name}/${field}`, byName);
      }
    }
    return c;
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
  const history = mergeMap(root['watchHistory'], 'watch-history', byName);
  return {
    ...root,
    etcd: { ...etcd, kvs: sorted },
    hosts,
    ...(components === undefined ? {} : { components }),
    ...(history === undefined ? {} : { watchHistory: history }),
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
