// metadata.managedFields: which manager set which fields, in the FieldsV1 set notation
// (`f:<field>` for struct fields, `k:{...}` for list items with a merge key, `.` for the node).

const LIST_KEYS: Record<string, string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  ports: ['containerPort', 'protocol'],
  conditions: ['type'],
  ownerReferences: ['uid'],
};

const SKIP_TOP = new Set(['apiVersion', 'kind']);
const SKIP_META = new Set([
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'generation',
  'managedFields',
  'namespace',
  'name',
  'generateName',
]);

export function buildFieldsV1(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(body).sort()) {
    if (SKIP_TOP.has(k) || body[k] === undefined) continue;
    if (k === 'metadata') {
      const meta = body[k] as Record<string, unknown>;
      const m: Record<string, unknown> = {};
      for (const mk of Object.keys(meta ?? {}).sort()) {
        if (SKIP_META.has(mk) || meta[mk] === undefined) continue;
        m[`f:${mk}`] = node(meta[mk], mk);
      }
      if (Object.keys(m).length) out['f:metadata'] = m;
      continue;
    }
    out[`f:${k}`] = node(body[k], k);
  }
  return out;
}

// The field set of a frozen value (a controller's pod template, an object read from the watch
// cache) never changes, so it is built once per value; a list's set depends on its field name.
const frozenSets = new WeakMap<object, { field: string; set: Record<string, unknown> }>();

function node(v: unknown, field: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || !Object.isFrozen(v)) return buildNode(v, field);
  const memo = frozenSets.get(v);
  if (memo !== undefined && (memo.field === field || !Array.isArray(v))) return memo.set;
  const set = buildNode(v, field);
  frozenSets.set(v, { field, set });
  return set;
}

function buildNode(v: unknown, field: string): Record<string, unknown> {
  if (Array.isArray(v)) {
    const keys = LIST_KEYS[field];
    const out: Record<string, unknown> = {};
    for (const item of v) {
      if (keys && item && typeof item === 'object') {
        const key: Record<string, unknown> = {};
        for (const k of keys) {
          const val = (item as Record<string, unknown>)[k];
          if (val !== undefined) key[k] = val;
        }
        out[`k:${JSON.stringify(key)}`] = { '.': {}, ...node(item, '') };
      } else if (!keys) {
        return {};
      }
    }
    return out;
  }
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined) continue;
      out[`f:${k}`] = node(x, k);
    }
    return out;
  }
  return {};
}
