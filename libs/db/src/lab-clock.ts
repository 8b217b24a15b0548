// A lab's clock, as pure arithmetic over what the Lab row stores. Simulated time follows wall
// time from an anchor: sim(wall) = anchorSim + floor((wall - anchorWall) × speed), frozen while
// paused. Every change of speed, pause or resume re-anchors at the lab's current sim time.
//
// Why an anchor rather than "add elapsed since the last tick": the target of any tick is a pure
// function of the stored row and the wall clock, so a retried or duplicated tick job computes the
// same target and finds the lab already there (ticks are idempotent), and rounding never drifts.

export interface TLabClockState {
  speed: number;
  paused: boolean;
  clockAnchorWallMs: number;
  clockAnchorSimMs: number;
}

/** The sim time the lab should be at, at wall instant `nowWallMs`. */
export function targetSimTime(clock: TLabClockState, nowWallMs: number): number {
  if (clock.paused) return clock.clockAnchorSimMs;
  const elapsed = Math.max(0, nowWallMs - clock.clockAnchorWallMs);
  return clock.clockAnchorSimMs + Math.floor(elapsed * clock.speed);
}

export interface TCatchUp {
  /** how far to advance the lab now (never negative) */
  advanceMs: number;
  /** the clock to store afterwards (re-anchored when the gap was capped) */
  clock: TLabClockState;
}

/**
 * How far a writer must advance a lab that is at `labNowMs`. A gap larger than `maxMs` (a worker
 * fleet down for an hour, a lab idle for long) is capped, and the anchor moves so the clock
 * continues from there instead of trying to replay the lost interval on the next tick.
 */
export function catchUp(
  clock: TLabClockState,
  labNowMs: number,
  nowWallMs: number,
  maxMs: number,
): TCatchUp {
  const gap = targetSimTime(clock, nowWallMs) - labNowMs;
  if (gap <= 0) return { advanceMs: 0, clock };
  if (gap <= maxMs) return { advanceMs: gap, clock };
  return {
    advanceMs: maxMs,
    clock: { ...clock, clockAnchorWallMs: nowWallMs, clockAnchorSimMs: labNowMs + maxMs },
  };
}

/** Re-anchors at `simMs` now (after catching up), with the given changes applied. */
export function reanchor(
  clock: TLabClockState,
  simMs: number,
  nowWallMs: number,
  change: Partial<Pick<TLabClockState, 'speed' | 'paused'>> = {},
): TLabClockState {
  return { ...clock, ...change, clockAnchorWallMs: nowWallMs, clockAnchorSimMs: simMs };
}
