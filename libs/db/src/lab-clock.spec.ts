import { describe, expect, it } from 'vitest';
import { catchUp, reanchor, targetSimTime, type TLabClockState } from './lab-clock';

const base: TLabClockState = {
  speed: 1,
  paused: false,
  clockAnchorWallMs: 10_000,
  clockAnchorSimMs: 500,
};

describe('targetSimTime', () => {
  it.each([
    ['run at 1x', base, 12_000, 2_500],
    ['run at 4x', { ...base, speed: 4 }, 12_000, 8_500],
    ['run at 0.25x and floor fractions', { ...base, speed: 0.25 }, 10_003, 500],
    ['stay frozen while paused', { ...base, paused: true }, 99_000, 500],
    ['never go back when the wall clock is behind the anchor', base, 9_000, 500],
  ])('should %s', (_name, clock, now, expected) => {
    expect(targetSimTime(clock, now)).toBe(expected);
  });

  it('should not drift when computed at many intermediate instants', () => {
    const clock = { ...base, speed: 0.25 };
    let last = 500;
    for (let now = 10_000; now <= 20_000; now += 7) last = targetSimTime(clock, now);
    expect(targetSimTime(clock, 20_000)).toBe(3_000);
    expect(last).toBeLessThanOrEqual(3_000);
  });
});

describe('catchUp', () => {
  it('should advance by the gap when the lab is behind by less than the cap', () => {
    expect(catchUp(base, 600, 11_000, 60_000)).toEqual({ advanceMs: 900, clock: base });
  });

  it('should advance nothing when the lab is already at the target (a retried tick)', () => {
    expect(catchUp(base, 1_500, 11_000, 60_000).advanceMs).toBe(0);
  });

  it('should cap the gap and re-anchor when the lab is far behind', () => {
    const result = catchUp(base, 500, 10_000 + 3_600_000, 60_000);
    expect(result.advanceMs).toBe(60_000);
    expect(result.clock).toEqual({
      ...base,
      clockAnchorWallMs: 10_000 + 3_600_000,
      clockAnchorSimMs: 60_500,
    });
    expect(targetSimTime(result.clock, 10_000 + 3_601_000)).toBe(61_500);
  });
});

describe('reanchor', () => {
  it('should continue from the given sim time at the new speed when the speed changes', () => {
    const clock = reanchor(base, 2_500, 12_000, { speed: 4 });
    expect(targetSimTime(clock, 13_000)).toBe(6_500);
  });

  it('should freeze at the given sim time when paused', () => {
    const clock = reanchor(base, 2_500, 12_000, { paused: true });
    expect(targetSimTime(clock, 50_000)).toBe(2_500);
  });
});
