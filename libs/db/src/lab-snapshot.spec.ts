import { createLab, restoreLab } from '@kubejourney/sim';
import { describe, expect, it } from 'vitest';
import {
  mergeLabSnapshot,
  mergeLabValue,
  splitLabSnapshot,
  splitLabState,
  splitLabValue,
} from './lab-snapshot';

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
  hosts: [
    { spec: { name: 'control-plane' }, index: 0, files: { '/etc/x': 'y' }, containerd: { c: [] } },
    { spec: { name: 'node-1' }, index: 1, files: { '/etc/z': 'w' }, systemd: { kubelet: true } },
  ],
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
    const p = splitLabSnapshot(serialized);
    expect(mergeLabSnapshot(p.core, p.parts, p.kvs, p.events)).toBe(serialized);
  });

  it('should keep keyspace, trace events and host sections out of the core when split', () => {
    const p = splitLabSnapshot(serialized);
    expect(p.core).not.toContain('/registry/');
    expect(p.core).not.toContain('etcd.put');
    expect(p.core).not.toContain('/etc/');
    expect(JSON.parse(p.core)).toMatchObject({
      etcd: { revision: 9, kvs: [] },
      hosts: ['control-plane', 'node-1'],
      trace: { nextSeq: 3, events: [] },
    });
    expect(p.parts.map((part) => part.name)).toEqual([
      'host/control-plane/containerd',
      'host/control-plane/files',
      'host/control-plane',
      'host/node-1/files',
      'host/node-1/systemd',
      'host/node-1',
    ]);
    expect(p.kvs.map((kv) => kv.key)).toEqual(['/registry/a', '/registry/b']);
    expect(p.events.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('should restore etcd key order when rows arrive in any order', () => {
    const p = splitLabSnapshot(serialized);
    const merged = mergeLabSnapshot(p.core, [...p.parts].reverse(), [...p.kvs].reverse(), p.events);
    expect(merged).toBe(serialized);
  });

  it.each([
    ['no etcd section', JSON.stringify({ hosts: [], trace: { events: [] } }), /"etcd" section/],
    ['no kvs list', JSON.stringify({ etcd: {}, hosts: [], trace: { events: [] } }), /"etcd.kvs"/],
    ['no trace section', JSON.stringify({ etcd: { kvs: [] }, hosts: [] }), /"trace" section/],
    ['no hosts list', JSON.stringify({ etcd: { kvs: [] }, trace: { events: [] } }), /"hosts"/],
  ])('should refuse a snapshot with %s', (_name, text, message) => {
    expect(() => splitLabSnapshot(text)).toThrow(message);
  });

  it('should refuse to merge when a host part is missing', () => {
    const p = splitLabSnapshot(serialized);
    const parts = p.parts.filter((part) => part.name !== 'host/node-1');
    expect(() => mergeLabSnapshot(p.core, parts, p.kvs, p.events)).toThrow(/host\/node-1/);
  });

  it('should round-trip a real lab so that the restored lab serializes identically', () => {
    const lab = createLab({ seed: 42 });
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    });
    lab.advance(1_500);
    const text = lab.serialize();
    const p = splitLabSnapshot(text);
    expect(p.kvs.some((kv) => kv.key === '/registry/namespaces/shop')).toBe(true);
    const merged = mergeLabSnapshot(p.core, p.parts, p.kvs, p.events);
    expect(merged).toBe(text);
    expect(restoreLab(merged).serialize()).toBe(text);
  });

  it('should store each component as a part and keep only its key in the core when split', () => {
    const lab = createLab({ seed: 42 });
    lab.advance(1_000);
    const p = splitLabSnapshot(lab.serialize());
    const core = JSON.parse(p.core) as { components: unknown[] };
    expect(core.components.length).toBeGreaterThan(3);
    expect(core.components.every((c) => typeof c === 'string')).toBe(true);
    const names = new Set(p.parts.map((part) => part.name));
    for (const key of core.components) expect(names.has(`component/${String(key)}`)).toBe(true);
  });

  it('should merge a core stored before components were split', () => {
    const lab = createLab({ seed: 42 });
    lab.advance(1_000);
    const text = lab.serialize();
    const p = splitLabSnapshot(text);
    const legacyCore = JSON.stringify({
      ...JSON.parse(p.core),
      components: (JSON.parse(text) as { components: unknown }).components,
    });
    const parts = p.parts.filter((part) => !part.name.startsWith('component/'));
    expect(mergeLabSnapshot(legacyCore, parts, p.kvs, p.events)).toBe(text);
  });

  it('should give the same core and parts as the full split when a real lab is cut', () => {
    const lab = createLab({ seed: 42 });
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    });
    lab.advance(3_000);
    const text = lab.serialize();
    const full = splitLabSnapshot(text);
    expect(full.kvs.length).toBeGreaterThan(10);
    expect(full.events.length).toBeGreaterThan(10);
    expect(splitLabState(text)).toEqual({ core: full.core, parts: full.parts });
  });

  it('should give the same core and parts from the lab value as from its text, with or without keys and events', () => {
    const lab = createLab({ seed: 42 });
    lab.request('kubernetes-admin', {
      verb: 'create',
      resource: 'namespaces',
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    });
    lab.advance(3_000);
    const full = splitLabSnapshot(lab.serialize());
    expect(splitLabValue(lab.serializeState())).toEqual(full);
    const core = { keyspace: false, traceEvents: false };
    expect(splitLabValue(lab.serializeState(core))).toEqual({
      core: full.core,
      parts: full.parts,
      kvs: [],
      events: [],
    });
    // splitting only reads the value: the lab serializes the same afterwards
    expect(splitLabSnapshot(lab.serialize())).toEqual(full);
  });

  it('should write each component part as JSON.stringify would, also when its state text is reused', () => {
    const lab = createLab({ seed: 42 });
    lab.advance(3_000);
    const value = lab.serializeState({ keyspace: false, traceEvents: false });
    // a state's `pods` map goes to one part per pod, its keys stand in for it in place
    const expected = value.components.flatMap((c) => {
      const state = c.state as Record<string, unknown> | null;
      const pods = state?.['pods'] as Record<string, unknown> | undefined;
      if (!pods || Array.isArray(pods) || typeof pods !== 'object') {
        return [{ name: `component/${c.key}`, value: JSON.stringify(c) }];
      }
      const head = { ...c, state: { ...state, pods: { $parts: Object.keys(pods) } } };
      return [
        ...Object.entries(pods).map(([uid, pod]) => ({
          name: `component/${c.key}/pods/${uid}`,
          value: JSON.stringify(pod),
        })),
        { name: `component/${c.key}`, value: JSON.stringify(head) },
      ];
    });
    expect(expected.some((p) => p.name.startsWith('component/kubelet/control-plane/pods/'))).toBe(
      true,
    );
    const partsOf = (v: typeof value) =>
      splitLabValue(v).parts.filter((p) => p.name.startsWith('component/'));
    expect(partsOf(value)).toEqual(expected);
    // idle components hand out the same frozen state again: its remembered text is used
    const again = lab.serializeState({ keyspace: false, traceEvents: false });
    expect(again.components.some((c, i) => c.state === value.components[i]?.state)).toBe(true);
    expect(partsOf(again)).toEqual(expected);
  });

  it('should store the watch history one resource a part, and merge a core that still holds it', () => {
    const lab = createLab({ seed: 42 });
    lab.advance(3_000);
    const text = lab.serialize();
    const history = (JSON.parse(text) as { watchHistory: Record<string, unknown> }).watchHistory;
    expect(Object.keys(history).length).toBeGreaterThan(3);
    const p = splitLabSnapshot(text);
    const core = JSON.parse(p.core) as { watchHistory: unknown };
    expect(core.watchHistory).toEqual({ $parts: Object.keys(history) });
    for (const [resource, saved] of Object.entries(history)) {
      expect(p.parts.find((part) => part.name === `watch-history/${resource}`)?.value).toBe(
        JSON.stringify(saved),
      );
    }
    // a lab stored before the history was split still merges back to its text
    const legacyCore = JSON.stringify({ ...JSON.parse(p.core), watchHistory: history });
    const legacyParts = p.parts.filter((part) => !part.name.startsWith('watch-history/'));
    expect(mergeLabSnapshot(legacyCore, legacyParts, p.kvs, p.events)).toBe(text);
  });

  it('should merge a kubelet state stored before its pods were split', () => {
    const lab = createLab({ seed: 42 });
    lab.advance(3_000);
    const text = lab.serialize();
    const p = splitLabSnapshot(text);
    const whole = (JSON.parse(text) as { components: { key: string }[] }).components;
    const legacyParts = [
      ...p.parts.filter((part) => !part.name.startsWith('component/')),
      ...whole.map((c) => ({ name: `component/${c.key}`, value: JSON.stringify(c) })),
    ];
    expect(mergeLabSnapshot(p.core, legacyParts, p.kvs, p.events)).toBe(text);
  });

  it('should refuse to merge when a pod part is missing', () => {
    const lab = createLab({ seed: 42 });
    lab.advance(3_000);
    const p = splitLabSnapshot(lab.serialize());
    const parts = p.parts.filter((part) => !part.name.includes('/pods/'));
    expect(() => mergeLabSnapshot(p.core, parts, p.kvs, p.events)).toThrow(
      /stored lab has no part "component\/kubelet\/[^"]+\/pods\//,
    );
  });

  it('should merge into the value the merged text parses to, and restore the same lab from either', () => {
    const lab = createLab({ seed: 7 });
    lab.advance(2_000);
    const { core, parts, kvs, events } = splitLabSnapshot(lab.serialize());
    const text = mergeLabSnapshot(core, parts, kvs, events);
    const value = mergeLabValue(core, parts, kvs, events);
    expect(value).toEqual(JSON.parse(text));
    expect(restoreLab(value as never).serialize()).toBe(restoreLab(text).serialize());
  });

  it('should fall back to the full split when the text is not in the expected layout', () => {
    // keys in another order: the cut markers do not match, the result must still be right
    const reordered = JSON.stringify({
      trace: JSON.parse(serialized).trace,
      ...JSON.parse(serialized),
    });
    const full = splitLabSnapshot(reordered);
    expect(splitLabState(reordered)).toEqual({ core: full.core, parts: full.parts });
    const full2 = splitLabSnapshot(serialized);
    expect(splitLabState(serialized)).toEqual({ core: full2.core, parts: full2.parts });
  });
});
