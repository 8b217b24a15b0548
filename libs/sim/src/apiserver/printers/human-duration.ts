// Port of apimachinery pkg/util/duration HumanDuration: the AGE column of every `kubectl get`
// table and the ages in `kubectl describe` Events. FIDELITY.md §1 lists the exact thresholds.

/** Human-readable duration of `ms` milliseconds, exactly as kubectl v1.32 prints it. */
export function humanDuration(ms: number): string {
  // Go: int(d.Seconds()) truncates toward zero; up to 2 s of clock skew reads as "0s".
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / 60_000);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / 3_600_000);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    const days = Math.trunc(hours / 24);
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** printers.go translateTimestampSince: `<unknown>` for a zero/missing timestamp. */
export function timestampSince(iso: string | undefined | null, nowWallMs: number): string {
  if (!iso) return '<unknown>';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(nowWallMs - t);
}
