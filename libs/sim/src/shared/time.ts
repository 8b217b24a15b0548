// Simulated time is integer ms since the lab started; timestamps are printed on a fixed epoch so
// every output is deterministic.

export const DEFAULT_START_TIME = '2026-01-05T09:00:00Z';

/** RFC3339 with second precision, as metav1.Time serializes. */
export function isoAt(startMs: number, simMs: number): string {
  // Every write in one tick asks for the same instant, and every component wake-up asks for its
  // own: the text only changes with the second, so each second is formatted once.
  const second = Math.floor((startMs + simMs) / 1000);
  if (second === lastIsoSecond) return lastIsoText;
  const text = new Date(startMs + simMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  lastIsoSecond = second;
  lastIsoText = text;
  return text;
}

let lastIsoSecond = NaN;
let lastIsoText = '';

/**
 * isoAt for instants that come back over and over (a kubelet prints each container's start time
 * on every sync): each second is formatted once, in a bounded map apart from isoAt's one instant
 * (the many containers started within one second share its text).
 */
export function isoAtRemembered(startMs: number, simMs: number): string {
  const at = startMs + simMs;
  const second = Math.floor(at / 1000);
  let text = isoTexts.get(second);
  if (text === undefined) {
    text = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (isoTexts.size >= ISO_TEXTS_MAX) isoTexts.clear();
    isoTexts.set(second, text);
  }
  return text;
}

const ISO_TEXTS_MAX = 8192;
const isoTexts = new Map<number, string>();

/** RFC3339 with microseconds, as metav1.MicroTime (Lease renewTime, Event eventTime). */
export function microIsoAt(startMs: number, simMs: number): string {
  return new Date(startMs + simMs).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function parseIso(iso: string | undefined): number {
  return iso ? Date.parse(iso) : NaN;
}

/** English month and weekday abbreviations, as Go's time package and C's strftime print them. */
export const MONTH_ABBR = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];
export const WEEKDAY_ABBR = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
