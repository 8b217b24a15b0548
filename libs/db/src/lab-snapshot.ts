import type { TLabObjectRecord, TLabTraceRecord } from './lab.repository';

// The serialized lab (libs/sim `Lab.serialize()`, JSON) split into what we store apart:
// - its etcd keyspace (`etcd.kvs`), one LabObject row per key, so a tick rewrites only the keys
//   that changed;
// - its trace (`trace.events`), one LabTraceEvent row per event, appended as they happen;
// - the rest ("core": components' state, the machines, the clock, rng...), one text column.
// Merging puts the rows back where the simulator expects them. This module is the only one that
// knows those paths.

export interface TLabSnapshotParts {
  /** the serialized lab without its keyspace and trace events (JSON text) */
  core: string;
  kvs: TLabObjectRecord[];
  events: TLabTraceRecord[];
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
  const core = JSON.stringify({
    ...root,
    etcd: { ...etcd, kvs: [] },
    trace: { ...trace, events: [] },
  });
  return { core, kvs, events };
}

/**
 * Rebuilds `serialize()`'s text from the stored parts. Keys come back in etcd's sorted order
 * whatever order the rows were read in; `events` are the most recent trace events kept.
 */
export function mergeLabSnapshot(
  core: string,
  kvs: readonly TLabObjectRecord[],
  events: readonly TLabTraceRecord[],
): string {
  const root = JSON.parse(core) as TJson;
  const etcd = section(root, 'etcd');
  const trace = section(root, 'trace');
  const sorted = [...kvs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return JSON.stringify({
    ...root,
    etcd: { ...etcd, kvs: sorted },
    trace: { ...trace, events },
  });
}
