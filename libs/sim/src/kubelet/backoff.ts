// client-go's flowcontrol.Backoff as the kubelet uses it, for crash loops (key: pod+container)
// and image pulls (key: pod uid + image): 10 s initial, doubling to a 300 s cap, and an entry
// expires when nothing happened for twice the cap (10 min), which resets the delay.

export const INITIAL_BACKOFF_MS = 10_000;
export const MAX_BACKOFF_MS = 300_000;

export interface BackoffEntry {
  backoffMs: number;
  lastUpdate: number;
}

export type BackoffTable = Record<string, BackoffEntry>;

function hasExpired(eventTime: number, lastUpdate: number, maxMs: number): boolean {
  return eventTime - lastUpdate > maxMs * 2;
}

/** Backoff.Next: first call (or after expiry) starts at 10 s, later calls double up to the cap. */
export function backoffNext(
  table: BackoffTable,
  key: string,
  eventTime: number,
  now: number,
): BackoffEntry {
  const entry = table[key];
  const next: BackoffEntry =
    !entry || hasExpired(eventTime, entry.lastUpdate, MAX_BACKOFF_MS)
      ? { backoffMs: INITIAL_BACKOFF_MS, lastUpdate: now }
      : { backoffMs: Math.min(entry.backoffMs * 2, MAX_BACKOFF_MS), lastUpdate: now };
  table[key] = next;
  return next;
}

/** Backoff.IsInBackOffSince (crash loops): is `now` still within the delay counted from eventTime? */
export function isInBackOffSince(
  table: BackoffTable,
  key: string,
  eventTime: number,
  now: number,
): boolean {
  const entry = table[key];
  if (!entry) return false;
  if (hasExpired(eventTime, entry.lastUpdate, MAX_BACKOFF_MS)) return false;
  return now - eventTime < entry.backoffMs;
}

/** Backoff.IsInBackOffSinceUpdate (image pulls): within the delay counted from the last failure? */
export function isInBackOffSinceUpdate(table: BackoffTable, key: string, now: number): boolean {
  const entry = table[key];
  if (!entry) return false;
  if (hasExpired(now, entry.lastUpdate, MAX_BACKOFF_MS)) return false;
  return now - entry.lastUpdate < entry.backoffMs;
}

/** When the current back-off ends (for timers). */
export function backoffEndsAt(table: BackoffTable, key: string, from: number): number | null {
  const entry = table[key];
  return entry ? from + entry.backoffMs : null;
}

/** Go's time.Duration.String() for whole milliseconds: `10s`, `1m20s`, `5m0s`, `812ms`, `4.234s`. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const totalSec = ms / 1000;
  const h = Math.floor(totalSec / 3600);
  const m = Math.floor((totalSec - h * 3600) / 60);
  const s = totalSec - h * 3600 - m * 60;
  const sText = `${Number.isInteger(s) ? s : s.toFixed(3).replace(/0+$/, '')}s`;
  if (h > 0) return `${h}h${m}m${sText}`;
  if (m > 0) return `${m}m${sText}`;
  return sText;
}
