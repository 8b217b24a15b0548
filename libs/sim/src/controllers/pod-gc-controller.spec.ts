import { describe, expect, it } from 'vitest';
import type { Pod } from '../model';
import { jobExpiresAt } from './ttl-after-finished-controller';
import {
  ADMIN,
  bind,
  createObj,
  get,
  list,
  newLab,
  registerNode,
  setPodStatus,
  useControllerOnlyLab,
} from './lab-harness.test';

function pod(name: string): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
  };
}

describe('pod GC and TTL after finished', { timeout: 60_000 }, () => {
  useControllerOnlyLab({ podGc: true });

  it('should force-delete the pods of a deleted node after the 40 s quarantine', () => {
    const lab = newLab();
    registerNode(lab, 'node-1');
    registerNode(lab, 'node-2');
    const a = createObj<Pod>(lab, 'pods', pod('a'));
    const b = createObj<Pod>(lab, 'pods', pod('b'));
    bind(lab, a, 'node-1');
    bind(lab, b, 'node-2');
    setPodStatus(lab, a, { ready: true, ip: '10.244.1.2' });
    lab.request(ADMIN, 'delete', 'nodes', { name: 'node-1' });
    lab.advance(30_000);
    expect(get<Pod>(lab, 'pods', 'a')).toBeDefined();
    lab.advance(30_000);
    expect(get<Pod>(lab, 'pods', 'a')).toBeUndefined();
    expect(list<Pod>(lab, 'pods').map((p) => p.metadata.name)).toEqual(['b']);
  });

  it('should delete a Job ttlSecondsAfterFinished after it finished', () => {
    const finished = {
      apiVersion: 'batch/v1' as const,
      kind: 'Job' as const,
      metadata: { name: 'j' },
      spec: { ttlSecondsAfterFinished: 60, template: { spec: { containers: [] } } },
      status: {
        completionTime: '2026-01-05T09:00:00Z',
        conditions: [{ type: 'Complete', status: 'True' as const }],
      },
    };
    expect(jobExpiresAt(finished)).toBe(Date.parse('2026-01-05T09:01:00Z'));
    expect(jobExpiresAt({ ...finished, status: {} })).toBeUndefined();
  });
});
