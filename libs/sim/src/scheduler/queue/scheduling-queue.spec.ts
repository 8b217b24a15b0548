import { describe, expect, it } from 'vitest';
import { backoffDuration, SchedulingQueue } from './scheduling-queue';

const always = () => true;

describe('SchedulingQueue', () => {
  it('should pop higher priority first and then the earlier arrival', () => {
    const q = new SchedulingQueue();
    q.add({ key: 'default/a', priority: 0 }, 10);
    q.add({ key: 'default/b', priority: 100 }, 20);
    q.add({ key: 'default/c', priority: 0 }, 5);
    expect([q.pop()?.key, q.pop()?.key, q.pop()?.key]).toEqual([
      'default/b',
      'default/c',
      'default/a',
    ]);
    expect(q.pop()).toBeUndefined();
  });

  it('should pop by the current priority when a queued pod is re-added with a new one', () => {
    const q = new SchedulingQueue();
    q.add({ key: 'default/a', priority: 0 }, 1);
    q.add({ key: 'default/b', priority: 0 }, 2);
    q.add({ key: 'default/c', priority: 0 }, 3);
    q.add({ key: 'default/c', priority: 10 }, 4);
    q.delete('default/a');
    expect(q.activeCount()).toBe(2);
    expect([q.pop()?.key, q.pop()?.key, q.pop()]).toEqual(['default/c', 'default/b', undefined]);
    expect(q.activeCount()).toBe(0);
  });

  it('should pop the same order as a linear scan when hundreds of pods move between sub-queues', () => {
    const q = new SchedulingQueue();
    const interested = (pl: string) => pl === 'NodeResourcesFit';
    for (let i = 0; i < 300; i++) q.add({ key: `default/p${i}`, priority: i % 3 }, i % 7);
    for (let i = 0; i < 100; i++) q.requeueAfterFailure(q.pop()!, ['NodeResourcesFit'], 500 + i);
    q.onClusterEvent('NodeAdd', interested, 5_000);
    const expected = q
      .list()
      .filter((p) => p.where === 'active')
      .sort((a, b) => b.priority - a.priority || a.timestamp - b.timestamp || a.seq - b.seq)
      .map((p) => p.key);
    expect(q.activeCount()).toBe(expected.length);
    const popped: string[] = [];
    for (let p = q.pop(); p; p = q.pop()) popped.push(p.key);
    expect(popped).toEqual(expected);
    expect(popped).toHaveLength(300);
  });

  it('should double the backoff from 1 s up to 10 s when attempts grow', () => {
    expect([1, 2, 3, 4, 5, 6].map(backoffDuration)).toEqual([1000, 2000, 4000, 8000, 10000, 10000]);
  });

  it('should park a rejected pod until an event its plugin cares about arrives', () => {
    const q = new SchedulingQueue();
    q.add({ key: 'default/p', priority: 0 }, 0);
    const p = q.pop()!;
    q.requeueAfterFailure(p, ['NodeResourcesFit'], 100);
    expect(q.flush(60_000)).toEqual([]);
    const interested = (pl: string, ev: string) => pl === 'NodeResourcesFit' && ev === 'NodeAdd';
    expect(q.onClusterEvent('NodeLabel', interested, 200)).toEqual([]);
    // still inside its 1 s backoff: goes to backoffQ, then the 1 s ticker moves it to activeQ
    expect(q.onClusterEvent('NodeAdd', interested, 500)).toEqual(['default/p']);
    expect(q.get('default/p')?.where).toBe('backoff');
    expect(q.nextTimerAt()).toBe(2000);
    expect(q.flush(1999)).toEqual([]);
    expect(q.flush(2000)).toEqual(['default/p']);
    expect(q.pop()?.attempts).toBe(2);
  });

  it('should flush an unschedulable pod after more than 5 minutes on a 30 s tick', () => {
    const q = new SchedulingQueue();
    q.add({ key: 'default/p', priority: 0 }, 0);
    q.requeueAfterFailure(q.pop()!, ['TaintToleration'], 10_000);
    expect(q.nextTimerAt()).toBe(330_000);
    expect(q.flush(329_999)).toEqual([]);
    expect(q.flush(330_000)).toEqual(['default/p']);
    expect(q.get('default/p')?.where).toBe('active');
  });

  it('should send a pod that failed with an error to backoffQ', () => {
    const q = new SchedulingQueue();
    q.add({ key: 'default/p', priority: 0 }, 0);
    q.requeueAfterFailure(q.pop()!, [], 0);
    expect(q.get('default/p')?.where).toBe('backoff');
    expect(q.onClusterEvent('NodeAdd', always, 10)).toEqual([]);
  });

  it('should survive a JSON round trip when pods are in every sub-queue', () => {
    const q = new SchedulingQueue();
    q.add({ key: 'default/a', priority: 0, causedBy: 3 }, 0);
    q.add({ key: 'default/b', priority: 0 }, 1);
    q.requeueAfterFailure(q.pop()!, ['NodeAffinity'], 5);
    const copy = SchedulingQueue.fromJSON(JSON.parse(JSON.stringify(q.toJSON())));
    expect(copy.toJSON()).toEqual(q.toJSON());
  });
});
