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
  kidsTop = 0;
  const shape = shapeOf(body);
  const base = reserve(shape.fields.length);
  const slots = shape.sortedIndex;
  let i = 0;
  for (const k in body) {
    const v = body[k];
    const slot = base + (slots[i++] as number);
    if (SKIP_TOP.has(k) || v === undefined) continue;
    kids[slot] = k === 'metadata' ? metadataSet((v ?? {}) as Record<string, unknown>) : node(v, k);
  }
  return setOf(shape, 'topMemo', base);
}

function metadataSet(meta: Record<string, unknown>): Record<string, unknown> | undefined {
  const shape = shapeOf(meta);
  const base = reserve(shape.fields.length);
  const slots = shape.sortedIndex;
  let i = 0;
  let any = false;
  for (const k in meta) {
    const v = meta[k];
    const slot = base + (slots[i++] as number);
    if (SKIP_META.has(k) || v === undefined) continue;
    kids[slot] = node(v, k);
    any = true;
  }
  if (!any) {
    kidsTop = base;
    return undefined;
  }
  return setOf(shape, 'metaMemo', base);
}

// The sets of an object's fields (undefined: left out), one frame per object being built, so
// that a set equal to the last one of its shape is found without allocating anything.
const kids: (Record<string, unknown> | undefined)[] = [];
let kidsTop = 0;

function reserve(n: number): number {
  const base = kidsTop;
  kidsTop += n;
  for (let i = base; i < kidsTop; i++) {
    kids[i] = undefined;
    listItems[i] = undefined;
  }
  return base;
}

/**
 * The set of an object from its fields' sets (the frame from `base`, which it pops). When every
 * field's set is a shared frozen one, the set is frozen too and shared with the previous object of
 * the same shape whose fields had the same sets (component-written objects repeat their shape).
 */
function setOf(
  shape: Shape,
  slot: 'topMemo' | 'metaMemo' | 'nodeMemo',
  base: number,
): Record<string, unknown> {
  const n = shape.fields.length;
  kidsTop = base;
  const memo = shape[slot];
  let shared = true;
  let same = memo !== undefined;
  for (let i = 0; i < n; i++) {
    const kid = kids[base + i];
    if (kid !== undefined && kid !== EMPTY && !Object.isFrozen(kid)) shared = false;
    if (same && (memo as SetMemo).kids[i] !== kid) same = false;
  }
  if (same && shared) return (memo as SetMemo).set;
  const set: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const kid = kids[base + i];
    if (kid !== undefined) set[shape.fields[i] as string] = kid;
  }
  if (!shared) return set;
  shape[slot] = { kids: kids.slice(base, base + n), set: Object.freeze(set) };
  return set;
}

// a list's item names, in the frame slots before their sets
const listItems: (string | undefined)[] = [];
// the last set built for a list of each field whose items' sets were all shared
const listMemos = new Map<string, { items: readonly unknown[]; set: Record<string, unknown> }>();

function listSet(field: string, base: number, n: number): Record<string, unknown> {
  kidsTop = base;
  const memo = listMemos.get(field);
  let shared = true;
  let same = memo !== undefined && memo.items.length === n;
  for (let i = 0; i < n; i += 2) {
    const kid = kids[base + i + 1];
    if (kid !== undefined && !Object.isFrozen(kid)) shared = false;
    if (same && (memo!.items[i] !== listItems[base + i] || memo!.items[i + 1] !== kid))
      same = false;
  }
  if (same && shared) return memo!.set;
  const set: Record<string, unknown> = {};
  const items: unknown[] = shared ? new Array(n) : [];
  for (let i = 0; i < n; i += 2) {
    const name = listItems[base + i];
    const kid = kids[base + i + 1];
    if (shared) {
      items[i] = name;
      items[i + 1] = kid;
    }
    if (name !== undefined) set[name] = kid;
  }
  if (shared) listMemos.set(field, { items, set: Object.freeze(set) });
  return set;
}

// The field set of a frozen value (a controller's pod template, an object read from the watch
// cache) never changes, so it is built once per value; a list's set depends on its field name.
const frozenSets = new WeakMap<object, { field: string; set: Record<string, unknown> }>();

// Sets are stored in frozen objects and only ever serialized, so equal ones may be shared: every
// scalar field's set is this one empty object.
const EMPTY: Record<string, unknown> = Object.freeze({});

interface SetMemo {
  kids: readonly (Record<string, unknown> | undefined)[];
  set: Record<string, unknown>;
}

/**
 * What every object with the same keys in the same order needs: the `f:` names of the keys in
 * sort() order and, for objects of scalars only (conditions, involvedObject), the whole set.
 * Found by walking a trie of the keys, so no key list is built or sorted per object.
 */
interface Shape {
  /**
   * The first key ever seen after this shape's keys, and its shape. Objects of one kind have
   * their keys in one order, so nearly every step of the trie takes this key: a comparison
   * instead of a map lookup per key of every object written.
   */
  firstKey: string | undefined;
  firstNext: Shape | undefined;
  /** the shapes after any other key */
  next: Map<string, Shape>;
  /** the keys' `f:` names, in sort() order of the keys */
  fields: string[];
  keys: string[];
  /**
   * Where each key (in the object's own order) sits in `fields`: fields are read by a for-in
   * walk, which reads each value by its known slot, rather than by name in sorted order (a
   * lookup by name on the many different object layouts written).
   */
  sortedIndex: number[];
  /** the set of an object of this shape whose values are all defined scalars (frozen, shared) */
  scalarSet?: Record<string, unknown>;
  /** the same with the list item's own `.` (frozen, shared) */
  scalarItemSet?: Record<string, unknown>;
  /** the last top-level set built for an object of this shape */
  topMemo?: SetMemo;
  /** the last metadata set built for metadata of this shape */
  metaMemo?: SetMemo;
  /** the last set built for a nested object of this shape (not all scalars) */
  nodeMemo?: SetMemo;
}

const MAX_SHAPES = 20_000;
let shapeCount = 0;
let shapeRoot = newShape([]);

function newShape(keys: string[]): Shape {
  const sortedKeys = [...keys].sort();
  return {
    firstKey: undefined,
    firstNext: undefined,
    next: new Map(),
    keys,
    fields: sortedKeys.map((key) => `f:${key}`),
    sortedIndex: keys.map((key) => sortedKeys.indexOf(key)),
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
    let n = s.firstKey === k ? s.firstNext : s.next.get(k);
    if (n === undefined) {
      n = newShape([...s.keys, k]);
      if (s.firstKey === undefined) {
        s.firstKey = k;
        s.firstNext = n;
      } else s.next.set(k, n);
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
    for (const field of shape.fields) set[field] = EMPTY;
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
    // a list without merge keys is owned whole: its set is empty
    if (!keys) return EMPTY;
    // the frame holds each item's name and set (undefined for an item that is not an object)
    const base = reserve(2 * v.length);
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (!item || typeof item !== 'object') continue;
      listItems[base + 2 * i] = itemName(field, keys, item as Record<string, unknown>);
      kids[base + 2 * i + 1] =
        !Array.isArray(item) && allScalars(item as Record<string, unknown>)
          ? scalarItemSet(shapeOf(item as object))
          : { '.': EMPTY, ...node(item, '') };
    }
    return listSet(field, base, 2 * v.length);
  }
  const o = v as Record<string, unknown>;
  const shape = shapeOf(o);
  if (allScalars(o)) return scalarSet(shape);
  const base = reserve(shape.fields.length);
  const slots = shape.sortedIndex;
  let i = 0;
  for (const key in o) {
    const x = o[key];
    const slot = base + (slots[i++] as number);
    if (x !== undefined) kids[slot] = node(x, key);
  }
  return setOf(shape, 'nodeMemo', base);
}
