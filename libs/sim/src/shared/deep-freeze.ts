/**
 * Freezes an object graph made of plain JSON values, so that a value shared instead of copied
 * (watch cache objects, memoized snapshots) throws on any accidental mutation.
 */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  // leaves (most values) are skipped here rather than by a call each: every stored write is frozen
  for (const k in v as Record<string, unknown>) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== null && typeof x === 'object') deepFreeze(x);
  }
  return v;
}
