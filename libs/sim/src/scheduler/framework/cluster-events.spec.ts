import { describe, expect, it } from 'vitest';
import type { Pod } from '../../model';
import { deepFreeze } from '../../shared/deep-freeze';
import { hex16, stableStringify } from '../../shared/hash';
import { makePod } from '../testing/factories';
import { summarizePod } from './cluster-events';

function withVersion(pod: Pod, resourceVersion: string, nodeName?: string): Pod {
  return {
    ...pod,
    metadata: { ...pod.metadata, resourceVersion },
    spec: nodeName ? { ...pod.spec, nodeName } : pod.spec,
  };
}

/** isPodUpdated's fingerprint: the pod minus status, resourceVersion, generation, managedFields */
function specHash(pod: Pod): string {
  const meta: Record<string, unknown> = { ...pod.metadata };
  delete meta['resourceVersion'];
  delete meta['generation'];
  delete meta['managedFields'];
  return hex16(stableStringify({ meta, spec: pod.spec }));
}

describe('summarizePod', () => {
  const pod = makePod('web-1', { labels: { app: 'web' }, cpu: '100m', ownerReplicaSet: 'web-abc' });

  it('should hash the spec and metadata minus the fields status writes change when the pod is frozen or not', () => {
    const frozen = deepFreeze(withVersion(pod, '7'));
    const status = deepFreeze({
      ...frozen,
      metadata: { ...frozen.metadata, resourceVersion: '8' },
    });
    const bound = deepFreeze(withVersion(frozen, '9', 'node-1'));
    for (const p of [withVersion(pod, '7'), frozen, status, bound]) {
      expect(summarizePod(p).spec).toBe(specHash(p));
    }
    expect(summarizePod(status).spec).toBe(summarizePod(frozen).spec);
    expect(summarizePod(bound).spec).not.toBe(summarizePod(frozen).spec);
  });

  it('should save the same summary whether its spec hash was read before or not', () => {
    const frozen = deepFreeze(withVersion(pod, '7'));
    const read = summarizePod(frozen);
    void read.spec;
    expect(JSON.stringify(summarizePod(frozen))).toBe(JSON.stringify(read));
    expect(JSON.parse(JSON.stringify(read))).toEqual({
      rv: '7',
      node: '',
      terminal: false,
      labels: hex16(stableStringify({ app: 'web' })),
      spec: specHash(frozen),
    });
  });
});
