// kubectl get --sort-by=<jsonpath> (kubectl pkg/cmd/get/sorter.go): the field is looked up in
// every object, must exist in at least one, objects without it come first; numbers compare as
// numbers and strings in natural order (sortorder.NaturalLess: "pod-9" < "pod-10").

import { findJsonPathValues, JsonPathError, relaxedJsonPath } from './jsonpath';

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** github.com/fvbommel/sortorder NaturalLess */
export function naturalLess(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a[i] as string;
    const cb = b[j] as string;
    const da = isDigit(ca);
    const db = isDigit(cb);
    if (da !== db) return da;
    if (!da) {
      if (ca !== cb) return ca < cb;
      i++;
      j++;
      continue;
    }
    // compare digit runs: skip leading zeros, then by length, then lexically
    let si = i;
    while (a[si] === '0') si++;
    let sj = j;
    while (b[sj] === '0') sj++;
    let ei = si;
    while (isDigit(a[ei])) ei++;
    let ej = sj;
    while (isDigit(b[ej])) ej++;
    const na = a.slice(si, ei);
    const nb = b.slice(sj, ej);
    if (na.length !== nb.length) return na.length < nb.length;
    if (na !== nb) return na < nb;
    // equal numbers: fewer leading zeros first
    if (ei - i !== ej - j) return ei - i < ej - j;
    i = ei;
    j = ej;
  }
  return a.length - i < b.length - j;
}

function less(x: unknown, y: unknown): boolean {
  if (typeof x === 'number' && typeof y === 'number') return x < y;
  if (typeof x === 'string' && typeof y === 'string') return naturalLess(x, y);
  if (typeof x === 'boolean' && typeof y === 'boolean') return !x && y;
  return false;
}

/**
 * Sorts items by the field; returns the error kubectl prints (without `error: `) when the path
 * is invalid or no item has it.
 */
export function sortByField<T>(
  items: T[],
  sortBy: string,
  objectOf: (t: T) => unknown,
): T[] | string {
  let field: string;
  try {
    field = relaxedJsonPath(sortBy);
  } catch (e) {
    return (e as Error).message;
  }
  if (items.length === 0) return items;
  let keyed: { item: T; value: unknown; has: boolean }[];
  try {
    keyed = items.map((item) => {
      const values = findJsonPathValues(field, objectOf(item));
      return { item, value: values[0], has: values.length > 0 && values[0] !== undefined };
    });
  } catch (e) {
    return e instanceof JsonPathError ? e.message : String(e);
  }
  if (!keyed.some((k) => k.has))
    return `couldn't find any field with path ${JSON.stringify(field)} in the list of objects`;
  const sorted = [...keyed].sort((a, b) => {
    if (!a.has) return b.has ? -1 : 0;
    if (!b.has) return 1;
    if (less(a.value, b.value)) return -1;
    if (less(b.value, a.value)) return 1;
    return 0;
  });
  return sorted.map((k) => k.item);
}
