// Hashes Kubernetes uses for names: fnv32a for pod-template-hash (controller_utils.ComputeHash),
// and SafeEncodeString to render it in the vowel-free alphabet.

import { SAFE_ALPHABET } from '../runtime/rng';

export function fnv32a(input: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) {
    h ^= input.charCodeAt(i) & 0xff;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: maps each character of s onto the safe alphabet. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHABET[s.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

/** Stable JSON (sorted keys), so hashes do not depend on key insertion order. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}

/** pod-template-hash: SafeEncodeString(String(fnv32a(template + collisionCount))). */
export function computePodTemplateHash(template: unknown, collisionCount?: number): string {
  const base =
    stableStringify(template) + (collisionCount === undefined ? '' : String(collisionCount));
  return safeEncodeString(String(fnv32a(base)));
}

/** fnv32a(input) and fnv32a(input + '#') as 16 hex digits; the second continues the first's state. */
export function hex16(input: string): string {
  const h = fnv32a(input);
  const g = Math.imul(h ^ 0x23, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0') + g.toString(16).padStart(8, '0');
}
