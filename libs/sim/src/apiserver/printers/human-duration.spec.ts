import { describe, expect, it } from 'vitest';
import { humanDuration, timestampSince } from './human-duration';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration', () => {
  it.each([
    [-2 * S, '<invalid>'],
    [-1500, '0s'],
    [-999, '0s'],
    [0, '0s'],
    [999, '0s'],
    [2 * S, '2s'],
    [119 * S, '119s'],
    [120 * S, '2m'],
    [5 * M + 3 * S, '5m3s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [47 * M, '47m'],
    [179 * M + 59 * S, '179m'],
    [3 * H, '3h'],
    [3 * H + 5 * M, '3h5m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H + 30 * M, '8h'],
    [26 * H, '26h'],
    [47 * H + 59 * M, '47h'],
    [2 * D, '2d'],
    [3 * D + 4 * H, '3d4h'],
    [7 * D + 23 * H, '7d23h'],
    [8 * D, '8d'],
    [729 * D, '729d'],
    [730 * D, '2y'],
    [3 * 365 * D + 10 * D, '3y10d'],
    [8 * 365 * D, '8y'],
    [20 * 365 * D + 5 * D, '20y'],
  ])('should print %d ms as %s', (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });

  it('should print <unknown> when the timestamp is missing', () => {
    expect(timestampSince(undefined, 0)).toBe('<unknown>');
    expect(timestampSince('garbage', 0)).toBe('<unknown>');
  });
});
