// kubectl diff -f FILE (kubectl pkg/cmd/diff/diff.go): for every object, the live version and the
// version `apply` would leave (a server-side dry run of apply's patch, or of the create) are
// written as YAML into /tmp/LIVE-<n> and /tmp/MERGED-<n> and compared with `diff -u -N`.
// managedFields are dropped and Secret values masked, as kubectl does. Exit 1 when anything
// differs, 0 when nothing does, above 1 on errors.

import type { KubeObject } from '../../model';
import { groupVersion } from '../../model';
import { boolFlag, flagAll } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, isOk, Out } from './kubectl-env';
import { toYaml } from './kube-output';
import { LAST_APPLIED, mappingFor, namespaceFor } from './apply-cmd';
import { readManifests } from './manifest-reader';
import { threeWayPatch } from './three-way-merge';
import { unifiedHunks } from './unified-diff';

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

function tmpName(seed: string): string {
  let h = 0x811c9dc5;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return String(h);
}

/** GNU diff's header time: the file's mtime with nanoseconds. */
function stamp(ms: number, nanos: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${String(d.getUTCMilliseconds() * 1_000_000 + nanos).padStart(9, '0')} +0000`;
}

function forDiff(obj: KubeObject | undefined, showManaged: boolean): KubeObject | undefined {
  if (!obj) return undefined;
  const o = clone(obj);
  if (!showManaged && o.metadata) delete (o.metadata as { managedFields?: unknown }).managedFields;
  return o;
}

/** diff.go Masker: Secret values never reach the terminal. */
function mask(live: KubeObject | undefined, merged: KubeObject | undefined): void {
  const isSecret = (o: KubeObject | undefined) => o?.kind === 'Secret';
  if (!isSecret(live) && !isSecret(merged)) return;
  for (const field of ['data', 'stringData'] as const) {
    const a = (live as Record<string, unknown> | undefined)?.[field] as
      Record<string, string> | undefined;
    const b = (merged as Record<string, unknown> | undefined)?.[field] as
      Record<string, string> | undefined;
    for (const k of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
      const same = a?.[k] === b?.[k];
      if (a && k in a) a[k] = same ? '***' : '*** (before)';
      if (b && k in b) b[k] = same ? '***' : '*** (after)';
    }
  }
}

export function runDiff(env: KubectlEnv): Out {
  const out = new Out();
  const files = flagAll(env.args, 'f', 'filename');
  if (files.length === 0) {
    // CheckDiffErr: kubectl's own errors exit 2, so that 1 keeps meaning "differences"
    return out.err('error: must specify one of -f and -k\n', 2);
  }
  const showManaged = boolFlag(env.args, 'show-managed-fields');
  const { manifests, errors } = readManifests(env, files);
  const liveDir = `/tmp/LIVE-${tmpName(`live${env.client.nowWallMs()}`)}`;
  const mergedDir = `/tmp/MERGED-${tmpName(`merged${env.client.nowWallMs()}`)}`;
  let text = '';
  let failed = false;
  let seq = 0;
  for (const m of manifests) {
    const errOut = new Out();
    const info = mappingFor(m, errOut);
    const ns = info ? namespaceFor(env, info, m.obj, errOut) : false;
    const name = m.obj.metadata?.name;
    if (!info || ns === false || !name) {
      out.err(errOut.stderr || 'error: resource name may not be empty\n', 0);
      failed = true;
      continue;
    }
    // util.GetModifiedConfiguration(annotate=false): the file's object with its own annotations
    // (an empty map when it has none), the last-applied one left out
    const modified = clone(m.obj);
    const own = { ...(modified.metadata?.annotations ?? {}) };
    delete own[LAST_APPLIED];
    modified.metadata = {
      ...modified.metadata,
      ...(ns ? { namespace: ns } : {}),
      annotations: own,
    };
    const live = env.client.request({ verb: 'get', resource: info.resource, namespace: ns, name });
    let current: KubeObject | undefined;
    let merged: KubeObject | undefined;
    if (live.code === 404) {
      const res = env.client.request({
        verb: 'create',
        resource: info.resource,
        namespace: ns,
        // a new object is created (dry run) from the file's object as it is
        body: ns ? { ...m.obj, metadata: { ...m.obj.metadata, namespace: ns } } : m.obj,
        query: { fieldManager: 'kubectl-client-side-apply', dryRun: true },
      });
      if (!isOk(res)) {
        out.apiError(env, res);
        failed = true;
        continue;
      }
      merged = asObject(res);
    } else {
      current = asObject(live);
      if (!isOk(live) || !current) {
        out.apiError(env, live);
        failed = true;
        continue;
      }
      const lastText = current.metadata?.annotations?.[LAST_APPLIED];
      let original: unknown = {};
      try {
        original = lastText ? JSON.parse(lastText) : {};
      } catch {
        original = {};
      }
      const patch = threeWayPatch(original, modified, current);
      if (Object.keys(patch).length === 0) merged = current;
      else {
        const res = env.client.request({
          verb: 'patch',
          resource: info.resource,
          namespace: ns,
          name,
          patchType: 'strategic',
          body: patch,
          query: { fieldManager: 'kubectl-client-side-apply', dryRun: true },
        });
        if (!isOk(res)) {
          out.apiError(env, res);
          failed = true;
          continue;
        }
        merged = asObject(res);
      }
    }
    const a = forDiff(current, showManaged);
    const b = forDiff(merged, showManaged);
    mask(a, b);
    const before = a ? toYaml(a) : '';
    const after = b ? toYaml(b) : '';
    const hunks = unifiedHunks(before, after);
    if (!hunks) continue;
    const file = `${groupVersion(info).replace('/', '.')}.${info.kind}.${ns ? `${ns}.` : ''}${name}`;
    const now = env.client.nowWallMs();
    text += `diff -u -N ${liveDir}/${file} ${mergedDir}/${file}\n`;
    text += `--- ${liveDir}/${file}\t${a ? stamp(now, 101_318 + seq * 2) : '1970-01-01 00:00:00.000000000 +0000'}\n`;
    text += `+++ ${mergedDir}/${file}\t${stamp(now, 102_907 + seq * 2)}\n`;
    text += hunks;
    seq++;
  }
  for (const e of errors) out.err(`${e}\n`, 0);
  out.out(text);
  // diff's own exit status (1: differences) unless kubectl itself failed (CheckDiffErr: 2)
  out.exitCode = failed || errors.length ? 2 : text ? 1 : 0;
  return out;
}
