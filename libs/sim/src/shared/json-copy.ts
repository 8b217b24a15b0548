// A copy of plain JSON data in one walk: what `JSON.parse(JSON.stringify(v))` gives (frozen on
// request), without printing the text and parsing it back. Saved states (a kubelet's pods, a
// node's containers) are copied on every save of a changed component and on every restore.

export interface JsonCopyOptions {
  /**
   * How Infinity and -Infinity are written. JSON has no such numbers: `null` is what
   * JSON.stringify writes; `string` keeps them as "Infinity" / "-Infinity".
   */
  nonFinite?: 'null' | 'string';
  /** The reviver of such a copy: the strings "Infinity" / "-Infinity" become numbers again. */
  reviveInfinity?: boolean;
  /** Freeze every object and array of the copy. */
  freeze?: boolean;
}

export function jsonCopy<T>(value: T, options: JsonCopyOptions = {}): T {
  return copy(value, {
    keepInfinity: options.nonFinite === 'string',
    revive: options.reviveInfinity === true,
    freeze: options.freeze === true,
  }) as T;
}

/** `deepFreeze(JSON.parse(JSON.stringify(v)))`, in one walk. */
export function frozenJsonCopy<T>(value: T, options: Omit<JsonCopyOptions, 'freeze'> = {}): T {
  return jsonCopy(value, { ...options, freeze: true });
}

interface Mode {
  keepInfinity: boolean;
  revive: boolean;
  freeze: boolean;
}

function copy(v: unknown, mode: Mode): unknown {
  if (typeof v === 'number') {
    if (Number.isFinite(v)) return v === 0 ? 0 : v; // -0 prints as 0
    if (mode.keepInfinity && (v === Infinity || v === -Infinity)) {
      const text = v === Infinity ? 'Infinity' : '-Infinity';
      return mode.revive ? v : text;
    }
    return null;
  }
  if (typeof v === 'string') {
    if (mode.revive && (v === 'Infinity' || v === '-Infinity'))
      return v === 'Infinity' ? Infinity : -Infinity;
    return v;
  }
  if (v === null || typeof v !== 'object') return v;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    // not plain data (a Date, a class with its own JSON): let JSON decide
    return copy(JSON.parse(JSON.stringify(v)) as unknown, mode);
  }
  let out: unknown[] | Record<string, unknown>;
  if (Array.isArray(v)) {
    const list: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      list[i] = dropped(x) ? null : copy(x, mode);
    }
    out = list;
  } else {
    const obj: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (!dropped(x)) obj[k] = copy(x, mode);
    }
    out = obj;
  }
  return mode.freeze ? Object.freeze(out) : out;
}

function dropped(x: unknown): boolean {
  return x === undefined || typeof x === 'function' || typeof x === 'symbol';
}
