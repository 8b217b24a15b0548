// A frozen copy of plain JSON data in one walk: what `deepFreeze(JSON.parse(JSON.stringify(v)))`
// gives, without printing the text and parsing it back. Saved states (a kubelet's pods, a node's
// containers) are copied this way on every save of a changed component.

export interface JsonCopyOptions {
  /**
   * How Infinity and -Infinity are written. JSON has no such numbers: `null` is what
   * JSON.stringify writes; `string` keeps them as "Infinity" / "-Infinity" (a reviver turns
   * them back).
   */
  nonFinite?: 'null' | 'string';
}

export function frozenJsonCopy<T>(value: T, options: JsonCopyOptions = {}): T {
  return copy(value, options.nonFinite === 'string') as T;
}

function copy(v: unknown, keepInfinity: boolean): unknown {
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v === 0 ? 0 : v; // -0 prints as 0
    if (keepInfinity && v === Infinity) return 'Infinity';
    if (keepInfinity && v === -Infinity) return '-Infinity';
    return null;
  }
  if (v === null || typeof v !== 'object') return v;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    // not plain data (a Date, a class with its own JSON): let JSON decide
    return Object.freeze(JSON.parse(JSON.stringify(v)) as unknown);
  }
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      out[i] =
        x === undefined || typeof x === 'function' || typeof x === 'symbol'
          ? null
          : copy(x, keepInfinity);
    }
    return Object.freeze(out);
  }
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
    out[k] = copy(x, keepInfinity);
  }
  return Object.freeze(out);
}
