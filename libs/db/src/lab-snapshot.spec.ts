import { describe, expect, it } from 'vitest';
import { mergeLabSnapshot, splitLabSnapshot } from './lab-snapshot';

// A serialized lab in the simulator's layout (only the sections this module touches matter).
const serialized = JSON.stringify({
  version: 1,
  now: 1234,
  etcd: {
    revision: 9,
    compactRevision: 0,
    members: [{ id: 'a', name: 'control-plane' }],
    kvs: [
      { key: '/registry/a', value: '{"a":1}', createRevision: 2, modRevision: 2, version: 1 },
      { key: '/registry/b', value: '{"b":1}', createRevision: 3, modRevision: 9, version: 4 },
    ],
    raftTerm: 2,
    raftIndex: 12,
  },
  trace: {
    nextSeq: 3,
    events: [
      { seq: 1, t: 0, component: 'etcd', verb: 'etcd.put', message: 'a' },
      { seq: 2, t: 5, component: 'kubelet', node: 'node-1', verb: 'x', message: 'b', causedBy: 1 },
    ],
  },
  components: { scheduler: { queue: [] } },
});

describe('lab snapshot', () => {
  it('should give back the exact serialized text when split parts are merged', () => {
    const parts = splitLabSnapshot(serialized);
    expect(mergeLabSnapshot(parts.core, parts.kvs, parts.events)).toBe(serialized);
  });

  it('should keep the keyspace and the trace events out of the core when split', () => {
    const parts = splitLabSnapshot(serialized);
    expect(parts.core).not.toContain('/registry/');
    expect(parts.core).not.toContain('etcd.put');
    expect(JSON.parse(parts.core)).toMatchObject({
      etcd: { revision: 9, kvs: [] },
      trace: { nextSeq: 3, events: [] },
    });
    expect(parts.kvs.map((kv) => kv.key)).toEqual(['/registry/a', '/registry/b']);
    expect(parts.events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('should restore etcd key order when rows arrive in any order', () => {
    const parts = splitLabSnapshot(serialized);
    const merged = mergeLabSnapshot(parts.core, [...parts.kvs].reverse(), parts.events);
    expect(merged).toBe(serialized);
  });

  it.each([
    ['no etcd section', JSON.stringify({ trace: { events: [] } }), /"etcd" section/],
    ['no kvs list', JSON.stringify({ etcd: {}, trace: { events: [] } }), /"etcd.kvs" list/],
    ['no trace section', JSON.stringify({ etcd: { kvs: [] } }), /"trace" section/],
  ])('should refuse a snapshot with %s', (_name, text, message) => {
    expect(() => splitLabSnapshot(text)).toThrow(message);
  });
});
