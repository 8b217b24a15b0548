import { createHash } from 'node:crypto';
import type { TLabObjectRecord } from './lab.repository';
import type { TLabStatePartRecord } from './lab-snapshot';

// The same digests `loadLabDigests` has PostgreSQL compute over the stored rows, computed here
// over a lab in memory: equal digests mean the instance holds exactly the stored keyspace and
// parts. Any difference in encoding or order only makes them differ (the caller then restores
// the lab from the rows), never makes different states look equal.

function md5(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

/** Byte order of UTF-8 text, which is UTF-16 code unit order for the ASCII keys etcd holds. */
function byKey(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `kvs` in any order; '' when there is none (PostgreSQL's string_agg of no rows). */
export function keyspaceDigest(kvs: readonly TLabObjectRecord[]): string {
  if (kvs.length === 0) return '';
  const sorted = [...kvs].sort((a, b) => byKey(a.key, b.key));
  const hash = createHash('md5');
  for (const kv of sorted) {
    hash.update(
      `${kv.key}\n${kv.createRevision}\n${kv.modRevision}\n${kv.version}\n${md5(kv.value)}\n`,
      'utf8',
    );
  }
  return hash.digest('hex');
}

export function partsDigest(parts: readonly TLabStatePartRecord[]): string {
  if (parts.length === 0) return '';
  const sorted = [...parts].sort((a, b) => byKey(a.name, b.name));
  return md5(sorted.map((p) => `${p.name}\n${md5(p.value)}`).join('\n'));
}
