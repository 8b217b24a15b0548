// What every kubectl verb receives: the parsed flags, a client bound to the kubeconfig user, the
// namespace in effect, stdin and the host filesystem; and the Out it writes to.

import type { ApiResponse } from '../../client/api-client';
import type { KubeObject, ResourceInfo } from '../../model';
import { isStatus } from '../../model';
import type { FileSystem } from '../shell/vfs';
import type { KubeClient } from './kube-client';
import type { ParsedArgs } from './kube-args';
import { flag } from './kube-args';
import { formatResponseError } from './kube-errors';
import { resolveResource } from './kube-resources';

export interface KubectlEnv {
  client: KubeClient;
  args: ParsedArgs;
  /** -n / --namespace, else the context's namespace, else default */
  namespace: string;
  /** true when -n was given explicitly */
  namespaceExplicit: boolean;
  allNamespaces: boolean;
  stdin: string;
  fs: FileSystem;
  resolve(path: string): string;
  host: string;
  /** lets simulated time pass (get -w, rollout status, logs -f, wait) */
  advance(ms: number): void;
  /** where `kubectl edit` stages the object for the editor */
  editorFile: string;
}

/**
 * Commands that wait (rollout status, get -w, delete, drain, logs -f) let simulated time run, but a
 * terminal call never runs more than this much of it: the real command would keep waiting until
 * the learner pressed Ctrl-C, and the lab's clock keeps going after the call returns anyway.
 */
export const MAX_WAIT_MS = 30_000;
export const WAIT_STEP_MS = 500;

export class Out {
  stdout = '';
  stderr = '';
  exitCode = 0;
  openEditor?: { path: string; host: string; afterSave?: string };

  out(s: string): this {
    this.stdout += s;
    return this;
  }

  err(s: string, code = 1): this {
    this.stderr += s;
    if (code) this.exitCode = code;
    return this;
  }

  /** `error: ...` the way cmdutil.CheckErr prints plain errors. */
  fail(msg: string): this {
    return this.err(`error: ${msg}\n`);
  }

  apiError(
    env: KubectlEnv,
    res: ApiResponse,
    context?: Parameters<typeof formatResponseError>[2],
  ): this {
    return this.err(formatResponseError(res, env.client.server, context));
  }
}

export function isOk(res: ApiResponse): boolean {
  return res.code >= 200 && res.code < 300 && !isStatus(res.body);
}

export function asObject(res: ApiResponse): KubeObject | undefined {
  const b = res.body;
  return b && typeof b === 'object' && !isStatus(b) && 'metadata' in b
    ? (b as KubeObject)
    : undefined;
}

export function listItems(res: ApiResponse): KubeObject[] {
  const b = res.body as { items?: unknown };
  return b && typeof b === 'object' && Array.isArray(b.items) ? (b.items as KubeObject[]) : [];
}

export function unknownResource(out: Out, arg: string): Out {
  return out.fail(`the server doesn't have a resource type "${arg}"`);
}

/** Resolves `TYPE NAME` or `TYPE/NAME` from the first positionals. */
export function typeAndName(
  env: KubectlEnv,
  out: Out,
  positional: string[],
): { info: ResourceInfo; name: string; rest: string[] } | undefined {
  const [first, second, ...rest] = positional;
  if (!first) return undefined;
  if (first.includes('/')) {
    const [t, n] = first.split('/', 2) as [string, string];
    const info = resolveResource(t);
    if (!info) {
      unknownResource(out, t);
      return undefined;
    }
    return { info, name: n, rest: second !== undefined ? [second, ...rest] : rest };
  }
  const info = resolveResource(first);
  if (!info) {
    unknownResource(out, first);
    return undefined;
  }
  if (second === undefined) return undefined;
  return { info, name: second, rest };
}

export function nsFor(env: KubectlEnv, info: ResourceInfo): string | undefined {
  return info.namespaced ? env.namespace : undefined;
}

export function dryRunMode(env: KubectlEnv): 'none' | 'client' | 'server' | 'invalid' {
  const v = flag(env.args, 'dry-run');
  if (v === undefined || v === 'none' || v === 'false') return 'none';
  if (v === 'client' || v === 'true') return 'client';
  if (v === 'server') return 'server';
  return 'invalid';
}

export function dryRunSuffix(mode: 'none' | 'client' | 'server' | 'invalid'): string {
  return mode === 'client' ? ' (dry run)' : mode === 'server' ? ' (server dry run)' : '';
}
