/**
 * Freezes an object graph made of plain JSON values, so that a value shared instead of copied
 * (watch cache objects, memoized snapshots) throws on any accidental mutation.
 */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  for (const k in v as Record<string, unknown>) deepFreeze((v as Record<string, unknown>)[k]);
  return v;
}
