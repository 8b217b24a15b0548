// `stableStringify(a) === stableStringify(b)` without building the two texts: controllers compare
// templates and statuses this way on every sync, and nearly always find them equal.

/** Whether stableStringify would print `a` and `b` the same (keys in any order). */
export function stableEqual(a: unknown, b: unknown): boolean {
  const aIsObject = a !== null && typeof a === 'object';
  const bIsObject = b !== null && typeof b === 'object';
  if (!aIsObject || !bIsObject) {
    // an object prints as {…} or […], never as a primitive does
    if (aIsObject || bIsObject) return false;
    if (a === b) return true;
    if (typeof a === 'string' || typeof b === 'string') return false;
    // NaN, ±Infinity, undefined and functions all print as null
    return (JSON.stringify(a) ?? 'null') === (JSON.stringify(b) ?? 'null');
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!stableEqual(a[i], b[i])) return false;
    return true;
  }
  // objects print their defined properties, sorted by key
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let defined = 0;
  for (const k of Object.keys(ao)) {
    const v = ao[k];
    if (v === undefined) continue;
    defined++;
    const w = bo[k];
    if (w === undefined || !Object.prototype.hasOwnProperty.call(bo, k) || !stableEqual(v, w))
      return false;
  }
  for (const k of Object.keys(bo)) if (bo[k] !== undefined) defined--;
  return defined === 0;
}
