import { describe, expect, it } from 'vitest';
import type { BackoffTable } from './backoff';
import { backoffNext, formatGoDuration, isInBackOffSince, isInBackOffSinceUpdate } from './backoff';

describe('image pull back-off (IsInBackOffSinceUpdate + Next)', () => {
  it('should space pull attempts 10,20,40,80,160,300,300 s when every pull fails at once', () => {
    const table: BackoffTable = {};
    const attempts: number[] = [];
    let now = 0;
    for (let i = 0; i < 8; i++) {
      // the pod worker retries as soon as the back-off allows
      while (isInBackOffSinceUpdate(table, 'k', now)) now += 100;
      attempts.push(now);
      backoffNext(table, 'k', now, now);
    }
    const gaps = attempts.slice(1).map((t, i) => (t - attempts[i]!) / 1000);
    expect(gaps).toEqual([10, 20, 40, 80, 160, 300, 300]);
  });
});

describe('crash loop back-off (IsInBackOffSince + Next)', () => {
  it('should restart at once the first time, then after 10,20,40,80,160,300,300 s when the container keeps exiting', () => {
    const table: BackoffTable = {};
    const delays: number[] = [];
    let now = 0;
    for (let i = 0; i < 8; i++) {
      const finishedAt = now; // exits the moment it starts
      let t = finishedAt;
      while (isInBackOffSince(table, 'c', finishedAt, t)) t += 100;
      delays.push((t - finishedAt) / 1000);
      backoffNext(table, 'c', finishedAt, t);
      now = t;
    }
    expect(delays).toEqual([0, 10, 20, 40, 80, 160, 300, 300]);
  });

  it('should reset to 10 s when the container ran for more than 10 minutes since the last restart', () => {
    const table: BackoffTable = {};
    backoffNext(table, 'c', 0, 0);
    backoffNext(table, 'c', 1_000, 1_000);
    expect(table['c']!.backoffMs).toBe(20_000);
    const finished = 1_000 + 601_000;
    expect(isInBackOffSince(table, 'c', finished, finished)).toBe(false);
    expect(backoffNext(table, 'c', finished, finished).backoffMs).toBe(10_000);
  });
});

describe('formatGoDuration', () => {
  it.each([
    [10_000, '10s'],
    [80_000, '1m20s'],
    [160_000, '2m40s'],
    [300_000, '5m0s'],
    [812, '812ms'],
    [4_234, '4.234s'],
    [3_600_000, '1h0m0s'],
  ])('should print %d ms as %s like time.Duration.String', (ms, text) => {
    expect(formatGoDuration(ms)).toBe(text);
  });
});
