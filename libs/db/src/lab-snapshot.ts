import type { TLabObjectRecord, TLabTraceRecord } from './lab.repository';

// The serialized lab (libs/sim `Lab.serialize()`, JSON) split into what we store apart:
// - its etcd keyspace (`etcd.kvs`): one LabObject row per key, so a tick rewrites only the keys
//   that changed;
// - its trace (`trace.events`): one LabTraceEvent row per event, appended as they happen;
// - the big sections of each node machine (`hosts[i].files`, `.containerd`, ...): one
//   LabStatePart row each, rewritten only when their text changes (a node's files, ~60 KB on the
//   control plane, almost never do);
// - the rest ("core": clock, rng, wake queue, components' state...): Lab.coreState, a few KB.
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

export function splitLabSnapshot(serialized: string): TLabSnapshotParts {
  const root = JSON.parse(serialized) as TJson;
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
      parts.push({ name: `host/${name}/${field}`, value: JSON.stringify(host[field]) });
      base[field] = null;
    }
    parts.push({ name: `host/${name}`, value: JSON.stringify(base) });
    return name;
  });
  const core = JSON.stringify({
    ...root,
    etcd: { ...etcd, kvs: [] },
    hosts,
    trace: { ...trace, events: [] },
  });
  return { core, parts, kvs, events };
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
  return JSON.stringify({
    ...root,
    etcd: { ...etcd, kvs: sorted },
    hosts,
    trace: { ...trace, events },
  });
}
