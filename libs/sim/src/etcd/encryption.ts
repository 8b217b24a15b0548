// Encryption at rest, as the apiserver's storage transformers shape it. Without it a Secret's
// bytes sit in etcd readable by anyone with etcdctl (base64 is only the JSON transport). With
// `aescbc` the stored value is `k8s:enc:aescbc:v1:<keyname>:` followed by an IV and ciphertext.
// The "cipher" here is a keyed stream (not real AES): the point the lab teaches is what the
// bytes in etcd look like and who can read them, and the transform must be reversible.

import { fnv32a } from '../shared/hash';

export interface EncryptionConfig {
  provider: 'aescbc';
  keyName: string;
}

export function encryptionPrefix(cfg: EncryptionConfig): string {
  return `k8s:enc:${cfg.provider}:v1:${cfg.keyName}:`;
}

function keystream(keyName: string, iv: string, length: number): number[] {
  const out: number[] = [];
  let state = fnv32a(`${keyName}|${iv}`);
  while (out.length < length) {
    state = fnv32a(`${state}:${out.length}`);
    out.push(state & 0xff, (state >>> 8) & 0xff, (state >>> 16) & 0xff, (state >>> 24) & 0xff);
  }
  return out.slice(0, length);
}

/** Encrypts `plain` (a byte string) under the key; `nonce` makes the IV (deterministic per write). */
export function encryptValue(cfg: EncryptionConfig, plain: string, nonce: string): string {
  let iv = '';
  let s = fnv32a(`iv|${nonce}`);
  for (let i = 0; i < 16; i++) {
    s = fnv32a(`${s}|${i}`);
    iv += String.fromCharCode(s & 0xff);
  }
  const bytes = utf8Encode(plain);
  // PKCS#7-style padding to the 16-byte block size keeps the length CBC-like.
  const pad = 16 - (bytes.length % 16);
  const padded = bytes + String.fromCharCode(pad).repeat(pad);
  const ks = keystream(cfg.keyName, iv, padded.length);
  let cipher = '';
  for (let i = 0; i < padded.length; i++) {
    cipher += String.fromCharCode(padded.charCodeAt(i) ^ (ks[i] as number));
  }
  return encryptionPrefix(cfg) + iv + cipher;
}

/** Returns null when the value is not encrypted with a provider this config knows. */
export function decryptValue(cfg: EncryptionConfig | null, stored: string): string | null {
  if (!stored.startsWith('k8s:enc:')) return stored;
  if (!cfg || !stored.startsWith(encryptionPrefix(cfg))) return null;
  const body = stored.slice(encryptionPrefix(cfg).length);
  const iv = body.slice(0, 16);
  const cipher = body.slice(16);
  const ks = keystream(cfg.keyName, iv, cipher.length);
  let plain = '';
  for (let i = 0; i < cipher.length; i++) {
    plain += String.fromCharCode(cipher.charCodeAt(i) ^ (ks[i] as number));
  }
  const pad = plain.charCodeAt(plain.length - 1);
  return utf8Decode(plain.slice(0, plain.length - pad));
}

/** UTF-16 string -> UTF-8 byte string (one char per byte). */
export function utf8Encode(s: string): string {
  return unescape(encodeURIComponent(s));
}

export function utf8Decode(bytes: string): string {
  try {
    return decodeURIComponent(escape(bytes));
  } catch {
    return bytes;
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** base64 of a byte string. */
export function base64Encode(bytes: string): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes.charCodeAt(i);
    const b = i + 1 < bytes.length ? bytes.charCodeAt(i + 1) : NaN;
    const c = i + 2 < bytes.length ? bytes.charCodeAt(i + 2) : NaN;
    const n = (a << 16) | ((Number.isNaN(b) ? 0 : b) << 8) | (Number.isNaN(c) ? 0 : c);
    out += B64[(n >> 18) & 63];
    out += B64[(n >> 12) & 63];
    out += Number.isNaN(b) ? '=' : B64[(n >> 6) & 63];
    out += Number.isNaN(c) ? '=' : B64[n & 63];
  }
  return out;
}

/** Decodes base64 to a byte string; null when it is not valid base64. */
export function base64Decode(text: string): string | null {
  const s = text.replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(s) || s.length % 4 === 1) return null;
  let out = '';
  let buf = 0;
  let bits = 0;
  for (const ch of s) {
    buf = (buf << 6) | B64.indexOf(ch);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buf >> bits) & 0xff);
    }
  }
  return out;
}
