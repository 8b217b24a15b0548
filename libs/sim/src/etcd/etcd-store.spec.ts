import { describe, expect, it } from 'vitest';
import { base64Decode, base64Encode, decryptValue, encryptValue } from './encryption';
import { defaultMembers, EtcdError, EtcdStore, faultTolerance, quorumSize } from './etcd-store';

describe('etcd quorum', () => {
  // The article's table (第三站 3-2): nodes, quorum, tolerated failures.
  it.each([
    [1, 1, 0],
    [2, 2, 0],
    [3, 2, 1],
    [4, 3, 1],
    [5, 3, 2],
    [6, 4, 2],
    [7, 4, 3],
  ])(
    'should need quorum %i->%i and tolerate %i failures when the cluster has that many members',
    (n, q, f) => {
      expect(quorumSize(n)).toBe(q);
      expect(faultTolerance(n)).toBe(f);
    },
  );

  it.each([1, 2, 3, 4, 5, 6, 7])(
    'should accept writes with exactly quorum healthy members when n=%i',
    (n) => {
      const store = new EtcdStore(defaultMembers(n));
      const down = n - quorumSize(n);
      for (let i = 0; i < down; i++) store.setMemberHealthy(store.members[n - 1 - i]!.name, false);
      expect(store.put('/registry/a', '1')).not.toBeNull();
      if (n - down > 0) {
        store.setMemberHealthy(store.healthyMembers()[0]!.name, false);
        expect(() => store.put('/registry/b', '2')).toThrow(EtcdError);
      }
    },
  );

  it('should fail writes with etcdserver: request timed out when quorum is lost', () => {
    const store = new EtcdStore(defaultMembers(3));
    store.setMemberHealthy('etcd-2', false);
    store.setMemberHealthy('etcd-3', false);
    expect(() => store.put('/registry/x', 'v')).toThrow('etcdserver: request timed out');
  });

  it('should serve serializable reads but not linearizable ones when quorum is lost', () => {
    const store = new EtcdStore(defaultMembers(3));
    store.put('/registry/x', 'v');
    store.setMemberHealthy('etcd-2', false);
    store.setMemberHealthy('etcd-3', false);
    expect(store.get('/registry/x', 's')?.value).toBe('v');
    expect(() => store.get('/registry/x', 'l')).toThrow(EtcdError);
  });

  it('should reject member counts outside 1..7 when building members', () => {
    expect(() => defaultMembers(0)).toThrow(RangeError);
    expect(() => defaultMembers(8)).toThrow(RangeError);
  });
});

describe('etcd MVCC keyspace', () => {
  it('should bump the global revision and track create/mod revision and version when keys are written', () => {
    const s = new EtcdStore();
    const r0 = s.revision;
    const a1 = s.put('/registry/pods/default/a', '1')!;
    const b1 = s.put('/registry/pods/default/b', '1')!;
    const a2 = s.put('/registry/pods/default/a', '2')!;
    expect(a1.modRevision).toBe(r0 + 1);
    expect(b1.modRevision).toBe(r0 + 2);
    expect(a2).toMatchObject({ createRevision: r0 + 1, modRevision: r0 + 3, version: 2 });
    expect(s.revision).toBe(r0 + 3);
  });

  it('should range keys by prefix in key order when asked for a prefix', () => {
    const s = new EtcdStore();
    for (const k of [
      '/registry/pods/default/b',
      '/registry/pods/default/a',
      '/registry/pods/kube-system/c',
      '/registry/services/specs/default/x',
    ]) {
      s.put(k, 'v');
    }
    expect(s.range('/registry/pods/').map((kv) => kv.key)).toEqual([
      '/registry/pods/default/a',
      '/registry/pods/default/b',
      '/registry/pods/kube-system/c',
    ]);
  });

  it('should refuse a compare-and-swap when the key moved on', () => {
    const s = new EtcdStore();
    const kv = s.put('/k', '1')!;
    s.put('/k', '2');
    expect(s.put('/k', '3', kv.modRevision)).toBeNull();
    expect(s.put('/new', '1', 0)).not.toBeNull();
  });

  it('should report changed and deleted keys since the last drain', () => {
    const s = new EtcdStore();
    s.put('/a', '1');
    s.put('/b', '1');
    s.delete('/b');
    expect(s.drainChanges()).toEqual({ changed: ['/a'], deleted: ['/b'] });
    expect(s.drainChanges()).toEqual({ changed: [], deleted: [] });
  });

  it('should bring back the snapshot state and bump the revision when a snapshot is restored', () => {
    const s = new EtcdStore();
    s.put('/registry/namespaces/prod', 'ns');
    s.put('/registry/deployments/prod/web', 'dep');
    const snap = s.snapshot();
    expect(snap).toMatchObject({ revision: s.revision, totalKeys: 2 });
    expect(snap.hash).toMatch(/^[0-9a-f]{8}$/);
    s.delete('/registry/deployments/prod/web');
    s.put('/registry/deployments/prod/other', 'x');
    const before = s.revision;
    s.restore(snap);
    expect(s.range('/registry/').map((kv) => kv.key)).toEqual([
      '/registry/deployments/prod/web',
      '/registry/namespaces/prod',
    ]);
    expect(s.get('/registry/deployments/prod/web')?.value).toBe('dep');
    expect(s.revision).toBeGreaterThan(before);
  });

  it('should refuse a snapshot without quorum', () => {
    const s = new EtcdStore(defaultMembers(3));
    s.setMemberHealthy('etcd-2', false);
    s.setMemberHealthy('etcd-3', false);
    expect(() => s.snapshot()).toThrow(EtcdError);
  });

  it('should serialize and restore losslessly', () => {
    const s = new EtcdStore(defaultMembers(3));
    s.put('/a', '1');
    s.put('/a', '2');
    s.setMemberHealthy('etcd-3', false);
    const copy = EtcdStore.fromJSON(JSON.parse(JSON.stringify(s.toJSON())));
    expect(copy.toJSON()).toEqual(s.toJSON());
  });
});

describe('encryption at rest', () => {
  const cfg = { provider: 'aescbc' as const, keyName: 'key1' };
  it('should prefix with k8s:enc:aescbc:v1:<key>: and round-trip when encrypting', () => {
    const enc = encryptValue(cfg, '{"data":{"password":"s3cr3t"}}', 'n1');
    expect(enc.startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
    expect(enc).not.toContain('s3cr3t');
    expect(decryptValue(cfg, enc)).toBe('{"data":{"password":"s3cr3t"}}');
  });
  it('should not decrypt when the key is unknown', () => {
    const enc = encryptValue(cfg, 'x', 'n');
    expect(decryptValue({ provider: 'aescbc', keyName: 'other' }, enc)).toBeNull();
    expect(decryptValue(null, enc)).toBeNull();
  });
  it.each(['', 'a', 'ab', 'abc', 'password123', 's3cr3t\u00e9'])(
    'should round-trip base64 for %j',
    (s) => {
      expect(base64Decode(base64Encode(s))).toBe(s);
    },
  );
  it('should match the standard base64 alphabet', () => {
    expect(base64Encode('admin')).toBe('YWRtaW4=');
    expect(base64Decode('cGFzc3dvcmQ=')).toBe('password');
  });
});
