/**
 * Freezes an object graph made of plain JSON values, so that a value shared instead of copied
 * (watch cache objects, memoized snapshots) throws on any accidental mutation.
 */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  freezeTree(v);
  return v;
}

// Every stored write is frozen: leaves (most values) and frozen subtrees (shared with the stored
// object a write replaces) are skipped here rather than by a call each, and arrays are walked by
// index (a for-in would enumerate their indices as strings).
function freezeTree(v: object): void {
  Object.freeze(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object' && !Object.isFrozen(x)) freezeTree(x);
    }
    return;
  }
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== null && typeof x === 'object' && !Object.isFrozen(x)) freezeTree(x);
  }
}
