// Client-side apply's patch (kubectl pkg/cmd/apply/patcher.go, CreateThreeWayMergePatch, simplified):
// fields removed since the last apply are deleted (null), fields whose desired value differs from
// the live object are set. Lists are sent whole.

type Json = unknown;

function isMap(v: Json): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as Json[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => deepEqual((a as Record<string, Json>)[k], (b as Record<string, Json>)[k]))
  );
}

/**
 * True when everything `desired` says is already in `live` (live may carry server defaults such as
 * imagePullPolicy or protocol). Lists compare element by element.
 */
export function subsetEqual(desired: Json, live: Json): boolean {
  if (isMap(desired)) {
    return isMap(live) && Object.entries(desired).every(([k, v]) => subsetEqual(v, live[k]));
  }
  if (Array.isArray(desired)) {
    return (
      Array.isArray(live) &&
      desired.length === live.length &&
      desired.every((x, i) => subsetEqual(x, live[i]))
    );
  }
  return deepEqual(desired, live);
}

/** Returns the patch, or an empty object when nothing needs to change. */
export function threeWayPatch(original: Json, modified: Json, current: Json): Record<string, Json> {
  const patch: Record<string, Json> = {};
  const o = isMap(original) ? original : {};
  const m = isMap(modified) ? modified : {};
  const c = isMap(current) ? current : {};
  for (const [k, mv] of Object.entries(m)) {
    const cv = c[k];
    if (isMap(mv) && isMap(cv)) {
      const sub = threeWayPatch(o[k], mv, cv);
      if (Object.keys(sub).length > 0) patch[k] = sub;
    } else if (!subsetEqual(mv, cv)) patch[k] = mv;
  }
  for (const k of Object.keys(o)) {
    if (!(k in m) && k in c) patch[k] = null;
  }
  return patch;
}
