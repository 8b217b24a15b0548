// How objects are stored in etcd. The simulator stores JSON (not protobuf) so learners can read
// `etcdctl get` output, but keeps the two facts that matter: a Secret's data sits there as plain
// bytes (base64 is only the API's JSON transport), unless encryption at rest wraps the whole
// value in `k8s:enc:aescbc:v1:<key>:`.

import type { EncryptionConfig } from '../etcd/encryption';
import {
  base64Decode,
  base64Encode,
  decryptValue,
  encryptValue,
  utf8Decode,
  utf8Encode,
} from '../etcd/encryption';
import type { KubeObject } from '../model';

const SECRETS_PREFIX = '/registry/secrets/';

export function encodeObject(
  key: string,
  obj: KubeObject,
  encryption: EncryptionConfig | null,
  nonce: string,
): string {
  if (!key.startsWith(SECRETS_PREFIX)) return JSON.stringify(obj);
  const data = (obj as { data?: Record<string, string> }).data;
  const stored: Record<string, unknown> = { ...obj };
  if (data) {
    const raw: Record<string, string> = {};
    for (const k of Object.keys(data).sort())
      raw[k] = utf8Decode(base64Decode(data[k] as string) ?? '');
    stored['data'] = raw;
  }
  const json = JSON.stringify(stored);
  return encryption ? encryptValue(encryption, json, nonce) : json;
}

/**
 * encodeObject, deferred until etcd's value is read when that is safe: an object outside
 * /registry/secrets/ is plain JSON, and the apiserver stamps only its resourceVersion on it after
 * the put (the watch cache then freezes it), so the deferred text is taken with the
 * resourceVersion it had at the put. Secrets are encoded (and maybe encrypted) at once.
 */
export function encodeLazily(
  key: string,
  obj: KubeObject,
  encryption: EncryptionConfig | null,
  revision: number,
): string | (() => string) {
  // the encryption nonce is the key at the revision written (only Secrets are encrypted)
  if (key.startsWith(SECRETS_PREFIX))
    return encodeObject(key, obj, encryption, `${key}@${revision}`);
  const rv = obj.metadata.resourceVersion;
  return () =>
    obj.metadata.resourceVersion === rv
      ? JSON.stringify(obj)
      : JSON.stringify({ ...obj, metadata: { ...obj.metadata, resourceVersion: rv } });
}

export type Decoded = { ok: true; obj: KubeObject } | { ok: false; error: string };

export function decodeObject(
  key: string,
  value: string,
  encryption: EncryptionConfig | null,
): Decoded {
  let text: string | null = value;
  if (value.startsWith('k8s:enc:')) {
    text = decryptValue(encryption, value);
    if (text === null) {
      return {
        ok: false,
        error: `no matching prefix found in the encryption configuration for key "${key}"`,
      };
    }
  }
  let obj: KubeObject;
  try {
    obj = JSON.parse(text) as KubeObject;
  } catch {
    return { ok: false, error: `unable to decode object stored at key "${key}": corrupted data` };
  }
  if (!obj || typeof obj !== 'object' || typeof obj.kind !== 'string' || !obj.metadata) {
    return {
      ok: false,
      error: `unable to decode object stored at key "${key}": Object 'Kind' is missing`,
    };
  }
  if (key.startsWith(SECRETS_PREFIX)) {
    const data = (obj as { data?: Record<string, string> }).data;
    if (data) {
      const enc: Record<string, string> = {};
      for (const k of Object.keys(data)) enc[k] = base64Encode(utf8Encode(data[k] as string));
      (obj as { data?: Record<string, string> }).data = enc;
    }
  }
  return { ok: true, obj };
}

/**
 * True when deepClone(v) would be the same data: plain objects (Object prototype, no undefined
 * values) and plain arrays down to the leaves. Frozen objects count only with `allowFrozen`
 * (a value the apiserver will change must not have any).
 */
export function isPlainData(v: unknown, allowFrozen: boolean): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (!allowFrozen && Object.isFrozen(v)) return false;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return false;
    for (let i = 0; i < v.length; i++) if (!isPlainData(v[i], allowFrozen)) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v as Record<string, unknown>) {
    const x = (v as Record<string, unknown>)[k];
    if (x === undefined || !isPlainData(x, allowFrozen)) return false;
  }
  return true;
}

/** Fast deep clone for JSON data (objects handed out must never alias the cache). */
export function deepClone<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(deepClone) as unknown as T;
  const out: Record<string, unknown> = {};
  for (const k in v as Record<string, unknown>) {
    const x = (v as Record<string, unknown>)[k];
    // leaves are copied here rather than by a call each
    if (x !== undefined) out[k] = x !== null && typeof x === 'object' ? deepClone(x) : x;
  }
  return out as T;
}
