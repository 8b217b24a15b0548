// The three patch formats the apiserver accepts (plus server-side apply, approximated as a
// strategic merge of the applied configuration):
// - JSON merge patch (RFC 7386): objects merge, null deletes, lists are replaced wholesale.
// - Strategic merge patch: like merge, but lists with a merge key (containers by name, ports by
//   containerPort, ...) merge element-wise, and `$patch: delete|replace` directives are honoured.
// - JSON patch (RFC 6902): add/remove/replace/move/copy/test on JSON pointers.

import { jsonCopy } from '../shared/json-copy';

export class PatchError extends Error {}

type Json = unknown;
type JsonObject = Record<string, Json>;

function isObject(v: Json): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function clone<T>(v: T): T {
  return jsonCopy(v);
}

export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return clone(patch);
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * Merge keys of list fields (patchMergeKey in k8s.io/api), keyed by field name. Field names are
 * unique enough across the simulated kinds that the parent path is not needed.
 */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  imagePullSecrets: 'name',
  conditions: 'type',
  ownerReferences: 'uid',
  tolerations: 'key',
  hostAliases: 'ip',
  containerStatuses: 'name',
  initContainerStatuses: 'name',
  addresses: 'type',
  podIPs: 'ip',
  taints: 'key',
  envFrom: '',
};

/** Lists of primitives merged as sets (patchStrategy merge without a key). */
const SET_LISTS = new Set(['finalizers']);

function mergeKeyFor(field: string, parent: string | undefined, items: Json[]): string | undefined {
  if (field === 'ports') {
    // container ports merge by containerPort, service ports by port
    const first = items.find(isObject);
    if (first && 'containerPort' in first) return 'containerPort';
    if (parent === 'spec' || (first && 'port' in first)) return 'port';
    return 'containerPort';
  }
  const key = MERGE_KEYS[field];
  return key ? key : undefined;
}

export function strategicMergePatch(
  target: Json,
  patch: Json,
  field?: string,
  parent?: string,
): Json {
  if (!isObject(patch)) return clone(patch);
  if (patch['$patch'] === 'replace') {
    const rest = { ...patch };
    delete rest['$patch'];
    return clone(rest);
  }
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$setElementOrder/') || k === '$retainKeys' || k === '$patch') continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const list = k.slice('$deleteFromPrimitiveList/'.length);
      const cur = out[list];
      if (Array.isArray(cur) && Array.isArray(v)) out[list] = cur.filter((x) => !v.includes(x));
      continue;
    }
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = out[k];
    if (Array.isArray(v)) {
      out[k] = mergeList(k, field, Array.isArray(cur) ? cur : [], v);
    } else if (isObject(v)) {
      out[k] = strategicMergePatch(cur, v, k, field);
    } else {
      out[k] = v;
    }
  }
  void parent;
  return out;
}

function mergeList(field: string, parent: string | undefined, cur: Json[], patch: Json[]): Json[] {
  if (SET_LISTS.has(field)) {
    const out = [...cur];
    for (const x of patch) if (!out.includes(x)) out.push(x);
    return out;
  }
  const key = mergeKeyFor(field, parent, [...patch, ...cur]);
  if (!key || !patch.every(isObject)) {
    // Replace strategy, but still honour a lone `{$patch: replace}`-style list directive.
    return patch.filter((x) => !(isObject(x) && x['$patch'] === 'replace')).map(clone);
  }
  const out = cur.map(clone);
  for (const item of patch as JsonObject[]) {
    if (item['$patch'] === 'replace') continue;
    const idx = out.findIndex((x) => isObject(x) && x[key] === item[key]);
    if (item['$patch'] === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = strategicMergePatch(out[idx], item, field, parent);
    else out.push(strategicMergePatch({}, item, field, parent));
  }
  return out;
}

interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: Json;
  from?: string;
}

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new PatchError(`invalid JSON pointer: ${JSON.stringify(path)}`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function getAt(doc: Json, tokens: string[]): Json {
  let cur = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isObject(cur)) cur = cur[t];
    else return undefined;
  }
  return cur;
}

function parentOf(
  doc: Json,
  tokens: string[],
  op: string,
  path: string,
): { parent: Json; last: string } {
  const parent = getAt(doc, tokens.slice(0, -1));
  if (!isObject(parent) && !Array.isArray(parent)) {
    throw new PatchError(`${op} operation does not apply: doc is missing path: "${path}"`);
  }
  return { parent, last: tokens[tokens.length - 1] as string };
}

export function jsonPatch(target: Json, ops: Json): Json {
  if (!Array.isArray(ops))
    throw new PatchError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc = clone(target);
  for (const raw of ops as JsonPatchOp[]) {
    // evanphx/json-patch Operation.Path(): an op without a string path is refused, not crashed on
    if (typeof raw?.path !== 'string')
      throw new PatchError(
        `${String(raw?.op)} operation failed to decode path: operation missing path field: missing value`,
      );
    const tokens = parsePointer(raw.path);
    switch (raw.op) {
      case 'add':
      case 'replace': {
        if (tokens.length === 0) {
          doc = clone(raw.value);
          break;
        }
        const { parent, last } = parentOf(doc, tokens, raw.op, raw.path);
        if (Array.isArray(parent)) {
          const i = last === '-' ? parent.length : Number(last);
          if (!Number.isInteger(i) || i < 0 || i > parent.length) {
            throw new PatchError(
              `${raw.op} operation does not apply: doc is missing path: "${raw.path}"`,
            );
          }
          if (raw.op === 'add') parent.splice(i, 0, clone(raw.value));
          else parent[i] = clone(raw.value);
        } else {
          const obj = parent as JsonObject;
          if (raw.op === 'replace' && !(last in obj)) {
            throw new PatchError(
              `replace operation does not apply: doc is missing key: ${raw.path}`,
            );
          }
          obj[last] = clone(raw.value);
        }
        break;
      }
      case 'remove': {
        const { parent, last } = parentOf(doc, tokens, raw.op, raw.path);
        if (Array.isArray(parent)) {
          const i = Number(last);
          if (!(i >= 0 && i < parent.length))
            throw new PatchError(
              `remove operation does not apply: doc is missing path: "${raw.path}"`,
            );
          parent.splice(i, 1);
        } else {
          const obj = parent as JsonObject;
          if (!(last in obj))
            throw new PatchError(
              `remove operation does not apply: doc is missing path: "${raw.path}"`,
            );
          delete obj[last];
        }
        break;
      }
      case 'move':
      case 'copy': {
        const fromTokens = parsePointer(raw.from ?? '');
        const value = clone(getAt(doc, fromTokens));
        if (value === undefined)
          throw new PatchError(
            `${raw.op} operation does not apply: doc is missing from path: ${raw.from}`,
          );
        if (raw.op === 'move') doc = jsonPatch(doc, [{ op: 'remove', path: raw.from }]);
        doc = jsonPatch(doc, [{ op: 'add', path: raw.path, value }]);
        break;
      }
      case 'test': {
        if (JSON.stringify(getAt(doc, tokens)) !== JSON.stringify(raw.value)) {
          throw new PatchError(`testing value ${raw.path} failed: test failed`);
        }
        break;
      }
      default:
        throw new PatchError(`Unexpected kind: ${String((raw as { op?: unknown }).op)}`);
    }
  }
  return doc;
}
