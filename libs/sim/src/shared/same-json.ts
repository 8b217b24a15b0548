// A cheaper stand-in for `JSON.stringify(a) === JSON.stringify(b)` on plain JSON data.

/**
 * True only when both values would serialize to the same JSON text: same primitives (===),
 * same defined keys in the same order, same array items. It may answer false for values whose
 * text is the same anyway (NaN and null both print null): callers fall back to the text then.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return a === null || typeof a !== 'object' || !hasToJson(a);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (hasToJson(a) || hasToJson(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameItem(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  const bk = Object.keys(bo);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ak.length && skipped(ao[ak[i] as string])) i++;
    while (j < bk.length && skipped(bo[bk[j] as string])) j++;
    if (i === ak.length || j === bk.length) return i === ak.length && j === bk.length;
    const k = ak[i] as string;
    if (k !== bk[j] || !sameJson(ao[k], bo[k])) return false;
    i++;
    j++;
  }
}

// JSON.stringify leaves out object properties that are undefined, functions or symbols
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

// ... and prints them as null inside arrays
function sameItem(a: unknown, b: unknown): boolean {
  if (skipped(a) || skipped(b)) return (skipped(a) || a === null) && (skipped(b) || b === null);
  return sameJson(a, b);
}

function hasToJson(v: object): boolean {
  return typeof (v as { toJSON?: unknown }).toJSON === 'function';
}
