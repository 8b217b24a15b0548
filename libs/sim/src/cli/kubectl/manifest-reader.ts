// Reads `-f` sources (file, directory, `-` for stdin) into objects, the way kubectl's resource
// builder does: multi-document YAML or JSON, `kind: List` expanded, with kubectl's error texts.
// Hostile input (alias bombs, huge or deeply nested documents, binary) ends in an error, never a hang.

import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../model';
import type { KubectlEnv } from './kubectl-env';

/** The apiserver's request body limit (3 MiB); bigger manifests are refused like the server does. */
export const MAX_MANIFEST_BYTES = 3 * 1024 * 1024;
const MAX_DEPTH = 100;

export interface Manifest {
  obj: KubeObject;
  /** file name as the user typed it ("STDIN" for -f -) */
  source: string;
}

export type ReadResult = { manifests: Manifest[]; errors: string[] };

function depth(v: unknown, d = 0): number {
  if (d > MAX_DEPTH) return d;
  if (!v || typeof v !== 'object') return d;
  let max = d;
  for (const c of Object.values(v as object)) {
    max = Math.max(max, depth(c, d + 1));
    if (max > MAX_DEPTH) break;
  }
  return max;
}

function hasControlChars(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 9 || (c > 13 && c < 32)) return true;
  }
  return false;
}

/** go-yaml's wording for the parse errors people actually make. */
function goYamlMessage(code: string | undefined, message: string): string {
  switch (code) {
    case 'BAD_INDENT':
    case 'MULTILINE_IMPLICIT_KEY':
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'UNEXPECTED_TOKEN':
      return 'mapping values are not allowed in this context';
    case 'MISSING_CHAR':
    case 'BAD_SCALAR_START':
      return 'did not find expected key';
    case 'TAB_AS_INDENT':
      return 'found character that cannot start any token';
    case 'DUPLICATE_KEY':
      return 'mapping key already defined';
    default:
      return /Nested mappings|Implicit map keys|compact mappings/.test(message)
        ? 'mapping values are not allowed in this context'
        : "could not find expected ':'";
  }
}

function lineOf(text: string, pos: number | undefined): number | undefined {
  if (pos === undefined) return undefined;
  let n = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

export function parseManifestText(text: string, source: string): ReadResult {
  const errors: string[] = [];
  const manifests: Manifest[] = [];
  if (text.length > MAX_MANIFEST_BYTES) {
    return {
      manifests,
      errors: [
        `Error from server (RequestEntityTooLarge): error when creating "${source}": Request entity too large: limit is 3145728`,
      ],
    };
  }
  if (hasControlChars(text.slice(0, 8192))) {
    return {
      manifests,
      errors: [
        `error: error parsing ${source}: error converting YAML to JSON: yaml: control characters are not allowed`,
      ],
    };
  }
  // crude nesting guard before the recursive parser sees it
  let open = 0;
  let maxOpen = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) maxOpen = Math.max(maxOpen, ++open);
    else if (c === 93 || c === 125) open--;
  }
  if (maxOpen > MAX_DEPTH) {
    return {
      manifests,
      errors: [
        `error: error parsing ${source}: error converting YAML to JSON: yaml: exceeded max depth of ${MAX_DEPTH}`,
      ],
    };
  }
  let docs;
  try {
    docs = parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false });
  } catch (e) {
    return {
      manifests,
      errors: [
        `error: error parsing ${source}: error converting YAML to JSON: yaml: ${e instanceof Error ? e.message : String(e)}`,
      ],
    };
  }
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    if ('errors' in doc && doc.errors.length > 0) {
      const err = doc.errors[0];
      const line = err?.linePos?.[0]?.line ?? lineOf(text, err?.pos?.[0]);
      const msg = goYamlMessage(err?.code, err?.message ?? '');
      errors.push(
        `error: error parsing ${source}: error converting YAML to JSON: yaml: ${line ? `line ${line}: ` : ''}${msg}`,
      );
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      errors.push(
        `error: error parsing ${source}: error converting YAML to JSON: yaml: ${e instanceof Error ? e.message : String(e)}`,
      );
      continue;
    }
    if (value === null || value === undefined) continue;
    if (depth(value) > MAX_DEPTH) {
      errors.push(
        `error: error parsing ${source}: error converting YAML to JSON: yaml: exceeded max depth of ${MAX_DEPTH}`,
      );
      continue;
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
      errors.push(
        `error: error validating "${source}": error validating data: invalid object to validate; if you choose to ignore these errors, turn validation off with --validate=false`,
      );
      continue;
    }
    const obj = value as Record<string, unknown>;
    const missing = [
      typeof obj.apiVersion !== 'string' || !obj.apiVersion ? 'apiVersion not set' : '',
      typeof obj.kind !== 'string' || !obj.kind ? 'kind not set' : '',
    ].filter(Boolean);
    if (missing.length > 0) {
      errors.push(
        `error: error validating "${source}": error validating data: [${missing.join(', ')}]; if you choose to ignore these errors, turn validation off with --validate=false`.replace(
          /\[([^,\]]*)\]/,
          '$1',
        ),
      );
      continue;
    }
    if (obj.kind === 'List' && Array.isArray(obj.items)) {
      for (const item of obj.items)
        if (item && typeof item === 'object') manifests.push({ obj: item as KubeObject, source });
      continue;
    }
    if (!obj.metadata || typeof obj.metadata !== 'object' || Array.isArray(obj.metadata))
      obj.metadata = {};
    manifests.push({ obj: obj as KubeObject, source });
  }
  return { manifests, errors };
}

/** Expands every -f argument. */
export function readManifests(env: KubectlEnv, files: string[]): ReadResult {
  const result: ReadResult = { manifests: [], errors: [] };
  for (const f of files) {
    if (f === '-') {
      const r = parseManifestText(env.stdin, 'STDIN');
      result.manifests.push(...r.manifests);
      result.errors.push(...r.errors);
      continue;
    }
    if (/^https?:\/\//.test(f)) {
      result.errors.push(
        `error: unable to read URL "${f}", server reported 404 Not Found, status code=404`,
      );
      continue;
    }
    const path = env.resolve(f);
    if (env.fs.isDir(path)) {
      const entries = env.fs.list(path).filter((n) => /\.(ya?ml|json)$/.test(n));
      for (const n of entries) {
        const text = env.fs.read(`${path}/${n}`) ?? '';
        const r = parseManifestText(text, `${f.replace(/\/$/, '')}/${n}`);
        result.manifests.push(...r.manifests);
        result.errors.push(...r.errors);
      }
      if (entries.length === 0) result.errors.push(`error: no objects passed to apply`);
      continue;
    }
    const text = env.fs.read(path);
    if (text === undefined) {
      result.errors.push(`error: the path "${f}" does not exist`);
      continue;
    }
    const r = parseManifestText(text, f);
    result.manifests.push(...r.manifests);
    result.errors.push(...r.errors);
  }
  return result;
}
