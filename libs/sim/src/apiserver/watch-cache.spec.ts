import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../model';
import { WatchCache } from './watch-cache';

const key = (ns: string, name: string) => `/registry/pods/${ns}/${name}`;

function pod(ns: string, name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns } };
}

const names = (entries: unknown[]) =>
  entries.map((e) => {
    const m = (e as KubeObject).metadata;
    return `${m.namespace}/${m.name}`;
  });

describe('WatchCache.list', () => {
  it('should keep etcd key order when keys are added and removed after a list', () => {
    const cache = new WatchCache(1);
    let rev = 1;
    for (const [ns, name] of [
      ['b', 'web-2'],
      ['a', 'web-1'],
      ['b', 'web-10'],
    ] as const)
      cache.apply('pods', key(ns, name), pod(ns, name), ++rev);
    expect(names(cache.list('pods'))).toEqual(['a/web-1', 'b/web-10', 'b/web-2']);
    cache.apply('pods', key('a', 'api'), pod('a', 'api'), ++rev);
    cache.apply('pods', key('ab', 'x'), pod('ab', 'x'), ++rev);
    cache.apply('pods', key('b', 'web-10'), null, ++rev);
    cache.seed('pods', key('c', 'z'), pod('c', 'z'));
    // a modification keeps the key where it is
    cache.apply('pods', key('b', 'web-2'), pod('b', 'web-2'), ++rev);
    expect(names(cache.list('pods'))).toEqual(['a/api', 'a/web-1', 'ab/x', 'b/web-2', 'c/z']);
    expect(names(cache.list('pods', 'a'))).toEqual(['a/api', 'a/web-1']);
    expect(names(cache.list('pods', 'b'))).toEqual(['b/web-2']);
    expect(cache.list('pods', 'none')).toEqual([]);
  });

  it('should list every namespace when the resource is cluster-scoped', () => {
    const cache = new WatchCache(1);
    cache.apply(
      'nodes',
      '/registry/minions/node-2',
      { kind: 'Node', metadata: { name: 'node-2' } },
      2,
    );
    cache.apply(
      'nodes',
      '/registry/minions/node-1',
      { kind: 'Node', metadata: { name: 'node-1' } },
      3,
    );
    expect(cache.list('nodes', 'default').map((n) => (n as KubeObject).metadata.name)).toEqual([
      'node-1',
      'node-2',
    ]);
  });

  it('should hand out the same frozen objects when listed twice', () => {
    const cache = new WatchCache(1);
    cache.apply('pods', key('a', 'p'), pod('a', 'p'), 2);
    const [first] = cache.list('pods');
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first as KubeObject).metadata)).toBe(true);
    expect(cache.list('pods')[0]).toBe(first);
  });
});

describe('WatchCache.listAt', () => {
  const labelled = (ns: string, name: string, v: string): KubeObject => ({
    ...pod(ns, name),
    metadata: { name, namespace: ns, labels: { v } },
  });
  const versions = (entries: unknown[]) =>
    entries.map((e) => {
      const m = (e as KubeObject).metadata;
      return `${m.namespace}/${m.name}=${m.labels?.['v'] ?? ''}`;
    });

  it('should list the objects as they stood at a past revision, in etcd key order', () => {
    const cache = new WatchCache(1);
    cache.apply('pods', key('a', 'web-1'), labelled('a', 'web-1', '1'), 2);
    cache.apply('pods', key('b', 'web-2'), labelled('b', 'web-2', '1'), 3);
    // after revision 3: one changed, one deleted, one added
    cache.apply('pods', key('a', 'web-1'), labelled('a', 'web-1', '2'), 4);
    cache.apply('pods', key('b', 'web-2'), null, 5);
    cache.apply('pods', key('a', 'api'), labelled('a', 'api', '1'), 6);
    expect(versions(cache.listAt('pods', undefined, 3) ?? [])).toEqual(['a/web-1=1', 'b/web-2=1']);
    expect(versions(cache.listAt('pods', 'b', 3) ?? [])).toEqual(['b/web-2=1']);
    expect(versions(cache.listAt('pods', undefined, 4) ?? [])).toEqual(['a/web-1=2', 'b/web-2=1']);
    expect(versions(cache.listAt('pods', undefined, 6) ?? [])).toEqual(['a/api=1', 'a/web-1=2']);
  });

  it('should refuse a revision its history no longer reaches', () => {
    const cache = new WatchCache(10);
    cache.apply('pods', key('a', 'web-1'), labelled('a', 'web-1', '1'), 11);
    expect(cache.listAt('pods', undefined, 9)).toBeNull();
  });

  it('should answer the same after its history is saved and loaded into a fresh cache', () => {
    const cache = new WatchCache(1);
    cache.apply('pods', key('a', 'web-1'), labelled('a', 'web-1', '1'), 2);
    cache.apply('pods', key('a', 'web-2'), labelled('a', 'web-2', '1'), 3);
    cache.apply('pods', key('a', 'web-1'), labelled('a', 'web-1', '2'), 4);
    cache.apply('pods', key('a', 'web-2'), null, 5);
    const saved = cache.historyState({ pods: 3 }, 100);
    const restored = new WatchCache(5);
    restored.seed('pods', key('a', 'web-1'), labelled('a', 'web-1', '2'));
    restored.loadHistory(saved);
    expect(versions(restored.listAt('pods', undefined, 3) ?? [])).toEqual([
      'a/web-1=1',
      'a/web-2=1',
    ]);
  });
});
