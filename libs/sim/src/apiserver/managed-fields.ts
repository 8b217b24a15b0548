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
  for (const { key: k, field } of shapeOf(body).sorted) {
    if (SKIP_TOP.has(k) || body[k] === undefined) continue;
    if (k === 'metadata') {
      const meta = (body[k] ?? {}) as Record<string, unknown>;
      const m: Record<string, unknown> = {};
      for (const { key: mk, field: mf } of shapeOf(meta).sorted) {
        if (SKIP_META.has(mk) || meta[mk] === undefined) continue;
        m[mf] = node(meta[mk], mk);
      }
      if (Object.keys(m).length) out['f:metadata'] = m;
      continue;
    }
    out[field] = node(body[k], k);
  }
  return out;
}

// The field set of a frozen value (a controller's pod template, an object read from the watch
// cache) never changes, so it is built once per value; a list's set depends on its field name.
const frozenSets = new WeakMap<object, { field: string; set: Record<string, unknown> }>();

// Sets are stored in frozen objects and only ever serialized, so equal ones may be shared: every
// scalar field's set is this one empty object.
const EMPTY: Record<string, unknown> = Object.freeze({});

/**
 * What every object with the same keys in the same order needs: the keys in sort() order with
 * their `f:` names and, for objects of scalars only (conditions, involvedObject), the whole set.
 * Found by walking a trie of the keys, so no key list is built or sorted per object.
 */
interface Shape {
  next: Map<string, Shape>;
  sorted: { key: string; field: string }[];
  keys: string[];
  /** the set of an object of this shape whose values are all defined scalars (frozen, shared) */
  scalarSet?: Record<string, unknown>;
  /** the same with the list item's own `.` (frozen, shared) */
  scalarItemSet?: Record<string, unknown>;
}

const MAX_SHAPES = 20_000;
let shapeCount = 0;
let shapeRoot = newShape([]);

function newShape(keys: string[]): Shape {
  return {
    next: new Map(),
    keys,
    sorted: [...keys].sort().map((key) => ({ key, field: `f:${key}` })),
  };
}

function shapeOf(o: object): Shape {
  if (shapeCount > MAX_SHAPES) {
    // arbitrary keys (ConfigMap data, labels) could grow the trie without bound
    shapeRoot = newShape([]);
    shapeCount = 0;
  }
  let s = shapeRoot;
  for (const k in o) {
    let n = s.next.get(k);
    if (n === undefined) {
      n = newShape([...s.keys, k]);
      s.next.set(k, n);
      shapeCount++;
    }
    s = n;
  }
  return s;
}

/** True when every value is defined and none is an object (null counts as a scalar). */
function allScalars(o: Record<string, unknown>): boolean {
  for (const k in o) {
    const x = o[k];
    if (x === undefined || (x !== null && typeof x === 'object')) return false;
  }
  return true;
}

function scalarSet(shape: Shape): Record<string, unknown> {
  if (shape.scalarSet === undefined) {
    const set: Record<string, unknown> = {};
    for (const { field } of shape.sorted) set[field] = EMPTY;
    shape.scalarSet = Object.freeze(set);
  }
  return shape.scalarSet;
}

function scalarItemSet(shape: Shape): Record<string, unknown> {
  if (shape.scalarItemSet === undefined)
    shape.scalarItemSet = Object.freeze({ '.': EMPTY, ...scalarSet(shape) });
  return shape.scalarItemSet;
}

// `k:{...}` names of list items keyed by one string (a condition's type, a container's name)
const MAX_ITEM_NAMES = 5_000;
const itemNames = new Map<string, Map<string, string>>();

function itemName(field: string, keys: string[], item: Record<string, unknown>): string {
  const only = keys.length === 1 ? (keys[0] as string) : undefined;
  const val = only === undefined ? undefined : item[only];
  if (only === undefined || typeof val !== 'string') {
    const key: Record<string, unknown> = {};
    for (const k of keys) {
      const v = item[k];
      if (v !== undefined) key[k] = v;
    }
    return `k:${JSON.stringify(key)}`;
  }
  let names = itemNames.get(field);
  if (names === undefined) itemNames.set(field, (names = new Map()));
  let name = names.get(val);
  if (name === undefined) {
    if (names.size >= MAX_ITEM_NAMES) names.clear();
    name = `k:${JSON.stringify({ [only]: val })}`;
    names.set(val, name);
  }
  return name;
}

function node(v: unknown, field: string): Record<string, unknown> {
  if (v === null || typeof v !== 'object') return EMPTY;
  if (!Object.isFrozen(v)) return buildNode(v, field);
  const memo = frozenSets.get(v);
  if (memo !== undefined && (memo.field === field || !Array.isArray(v))) return memo.set;
  const set = buildNode(v, field);
  frozenSets.set(v, { field, set });
  return set;
}

function buildNode(v: object, field: string): Record<string, unknown> {
  if (Array.isArray(v)) {
    const keys = LIST_KEYS[field];
    const out: Record<string, unknown> = {};
    for (const item of v) {
      if (keys && item && typeof item === 'object') {
        const name = itemName(field, keys, item as Record<string, unknown>);
        out[name] =
          !Array.isArray(item) && allScalars(item as Record<string, unknown>)
            ? scalarItemSet(shapeOf(item as object))
            : { '.': EMPTY, ...node(item, '') };
      } else if (!keys) {
        return {};
      }
    }
    return out;
  }
  const o = v as Record<string, unknown>;
  const shape = shapeOf(o);
  if (allScalars(o)) return scalarSet(shape);
  const out: Record<string, unknown> = {};
  for (const { key, field: f } of shape.sorted) {
    const x = o[key];
    if (x === undefined) continue;
    out[f] = node(x, key);
  }
  return out;
}
