// kubectl wait --for=delete|create|condition=NAME[=VALUE]|jsonpath='{..}'[=VALUE] (kubectl
// pkg/cmd/wait: wait.go, conditional_waiter.go, jsonpath_waiter.go, deletion_waiter.go). The real
// command LISTs the object by name and holds one WATCH until the condition holds or --timeout (30s)
// runs out; here simulated time passes in steps and each step reads what that watch would have
// delivered from the lab's state, so the journey shows the requests kubectl really sends.

import type { ApiResponse } from '../../client/api-client';
import type { SimLab } from '../../lab';
import type { KubeObject, ResourceInfo } from '../../model';
import { notFound as notFoundStatus } from '../../apiserver/status';
import { flag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, isOk, listItems, Out, WAIT_STEP_MS } from './kubectl-env';
import { findJsonPathValues, JsonPathError, relaxedJsonPath } from './jsonpath';
import { qualifiedKind, resolveResource } from './kube-resources';
import { visitTargets } from './kube-targets';

/**
 * A terminal call lets at most this much simulated time pass, even for a longer --timeout: the
 * learner's lab clock is shared, and ten minutes is longer than any exercise waits for.
 */
const MAX_WAIT_SIM_MS = 600_000;

type Check = (obj: KubeObject | undefined) => boolean | Error;

interface Condition {
  kind: 'delete' | 'create' | 'check';
  check: Check;
}

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go's time.ParseDuration, in ms; undefined when Go would reject it. */
export function parseGoDuration(s: string): number | undefined {
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(s);
  if (s === '0' || s === '+0' || s === '-0') return 0;
  if (!m) return undefined;
  let total = 0;
  for (const part of s.replace(/^[+-]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g))
    total += Number(part[1]) * (UNITS[part[2] as string] as number);
  return m[1] === '-' ? -total : total;
}

function conditionFor(forFlag: string): Condition | string {
  const lower = forFlag.toLowerCase();
  if (lower === 'delete') return { kind: 'delete', check: (o) => o === undefined };
  if (lower === 'create') return { kind: 'create', check: (o) => o !== undefined };
  if (forFlag.startsWith('condition=')) {
    let name = forFlag.slice('condition='.length);
    let value = 'true';
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    return { kind: 'check', check: (o) => conditionMet(o, name, value) };
  }
  if (forFlag.startsWith('jsonpath=')) {
    const parts = splitJsonPathInput(forFlag.slice('jsonpath='.length));
    if (parts.length < 1 || parts.length > 2)
      return "jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'";
    let expr: string;
    try {
      expr = relaxedJsonPath(parts[0] as string);
    } catch (e) {
      return (e as Error).message;
    }
    if (expr === '') return 'jsonpath expression cannot be empty';
    let want: string | undefined;
    if (parts.length === 2) {
      want = (parts[1] as string).replace(/^['"]+|['"]+$/g, '');
      if (want === '')
        return "jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3";
    }
    return { kind: 'check', check: (o) => jsonPathMet(o, expr, want) };
  }
  return `unrecognized condition: ${JSON.stringify(forFlag)}`;
}

/** wait.go splitJSONPathInput: split on single '=', keep '=='. */
function splitJsonPathInput(input: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < input.length; i++) {
    if (input[i] === '=') {
      if (input[i + 1] === '=') {
        cur += '==';
        i++;
        continue;
      }
      out.push(cur);
      cur = '';
      continue;
    }
    cur += input[i];
  }
  out.push(cur);
  return out;
}

function conditionMet(o: KubeObject | undefined, name: string, value: string): boolean {
  if (!o) return false;
  const status = (o as { status?: { conditions?: unknown; observedGeneration?: number } }).status;
  const conditions = Array.isArray(status?.conditions) ? status.conditions : [];
  for (const c of conditions as Record<string, unknown>[]) {
    if (typeof c.type !== 'string' || c.type.toLowerCase() !== name.toLowerCase()) continue;
    if (typeof c.status !== 'string') continue;
    const generation = o.metadata?.generation;
    if (typeof generation === 'number') {
      const observed =
        typeof c.observedGeneration === 'number'
          ? c.observedGeneration
          : status?.observedGeneration;
      // a condition from an older generation says nothing about the current spec
      if (typeof observed === 'number' && observed < generation) return false;
    }
    return c.status.toLowerCase() === value.toLowerCase();
  }
  return false;
}

function jsonPathMet(
  o: KubeObject | undefined,
  expr: string,
  want: string | undefined,
): boolean | Error {
  if (!o) return false;
  let found: unknown[];
  try {
    found = findJsonPathValues(expr, o);
  } catch (e) {
    return new Error(e instanceof JsonPathError ? e.message : String(e));
  }
  if (found.length === 0) return false;
  if (found.length > 1) return new Error('given jsonpath expression matches more than one value');
  if (want === undefined) return true;
  const v = found[0];
  if (v !== null && typeof v === 'object')
    return new Error('jsonpath leads to a nested object or list which is not supported');
  return String(v).trim() === want.trim();
}

function fetch(env: KubectlEnv, info: ResourceInfo, name: string, ns: string | undefined) {
  return env.client.request({ verb: 'get', resource: info.resource, namespace: ns, name });
}

/**
 * The object as kubectl's open watch sees it: read from the lab's state, with no request of its
 * own (the watch is one long-running request, sent once). A lab that cannot be read that way is
 * asked with a GET whose -v lines are dropped.
 */
function watched(
  env: KubectlEnv,
  info: ResourceInfo,
  name: string,
  ns: string | undefined,
): { obj?: KubeObject; res?: ApiResponse } {
  const lab = env.client.lab as Partial<Pick<SimLab, 'peek'>>;
  if (typeof lab.peek === 'function')
    return { obj: lab.peek(info.resource, info.namespaced ? ns : undefined, name) };
  const logMark = env.client.log.length;
  const res = fetch(env, info, name, ns);
  env.client.log = env.client.log.slice(0, logMark);
  if (isOk(res)) return { obj: asObject(res) };
  return res.code === 404 ? {} : { res };
}

/** The informer's first LIST (UntilWithSync): by name, through the pager (limit=500). */
function listByName(env: KubectlEnv, info: ResourceInfo, name: string, ns: string | undefined) {
  return env.client.request({
    verb: 'list',
    resource: info.resource,
    namespace: ns,
    query: { fieldSelector: `metadata.name=${name}`, limit: 500 },
  });
}

export function runWait(env: KubectlEnv): Out {
  const out = new Out();
  const rawTimeout = flag(env.args, 'timeout') ?? '30s';
  const timeout = parseGoDuration(rawTimeout);
  if (timeout === undefined)
    return out.err(
      `error: invalid argument "${rawTimeout}" for "--timeout" flag: time: invalid duration "${rawTimeout}"\nSee 'kubectl wait --help' for usage.\n`,
    );
  const cond = conditionFor(flag(env.args, 'for') ?? '');
  if (typeof cond === 'string') return out.fail(cond);
  const effective = timeout < 0 ? 168 * 3_600_000 : timeout;
  const budget = Math.min(effective, MAX_WAIT_SIM_MS);
  const visited = visitTargets(env, out, env.args.positional, resolveResource, {
    allowSelector: true,
    ignoreNotFound: cond.kind !== 'check',
  });
  if (!visited) return out;
  let waited = 0;
  let count = 0;
  for (const v of visited) {
    const ns = v.info.namespaced ? (v.obj?.metadata?.namespace ?? env.namespace) : undefined;
    if (!v.obj && cond.kind === 'check') continue;
    if (!v.obj && cond.kind === 'delete') continue;
    count++;
    const label = `${qualifiedKind(v.info)}/${v.name}`;
    const notFound = (): ApiResponse => ({ code: 404, body: notFoundStatus(v.info, v.name) });
    let obj: KubeObject | undefined = v.obj;
    const uid = v.obj?.metadata?.uid;
    // upstream's waiters (wait.go): --for=create polls the GET every 500 ms; with --timeout=0 the
    // others GET the object once more and check it; otherwise the deletion waiter GETs it, and the
    // condition and deletion waiters LIST it by name and then hold one WATCH until it changes
    let watching = false;
    if (cond.kind !== 'create' && timeout === 0) {
      const res = fetch(env, v.info, v.name, ns);
      if (isOk(res)) obj = asObject(res);
      else if (res.code === 404 && cond.kind === 'delete') obj = undefined;
      else {
        out.apiError(env, res);
        continue;
      }
    } else if (cond.kind !== 'create') {
      if (cond.kind === 'delete') {
        const res = fetch(env, v.info, v.name, ns);
        if (res.code === 404) obj = undefined;
        else if (isOk(res)) obj = asObject(res);
        else {
          out.apiError(env, res);
          continue;
        }
      }
      // a recreated object (another uid) counts as deleted
      if (obj && cond.kind === 'delete' && uid && obj.metadata?.uid !== uid) obj = undefined;
      if (obj) {
        const listed = listByName(env, v.info, v.name, ns);
        if (!isOk(listed)) {
          out.apiError(env, listed);
          continue;
        }
        obj = listItems(listed)[0];
        if (!obj && cond.kind === 'check') {
          // the informer's precondition: the object is gone before the watch starts
          out.apiError(env, notFound());
          continue;
        }
        watching = true;
      }
    }
    let done = false;
    for (;;) {
      const r = cond.check(obj);
      if (r instanceof Error) {
        out.fail(r.message);
        done = true;
        break;
      }
      if (r) {
        out.out(`${label} condition met\n`);
        done = true;
        break;
      }
      if (timeout === 0) {
        out.fail(`condition not met for ${v.info.resource}/${v.name}`);
        done = true;
        break;
      }
      if (waited >= budget) break;
      const before = env.client.lab.now;
      env.advance(WAIT_STEP_MS);
      // a terminal that lets no time pass (letTimePass: false) can never see the condition change
      if (env.client.lab.now === before) break;
      waited += WAIT_STEP_MS;
      if (!watching) {
        // --for=create: one GET per poll, as upstream's PollUntilContextTimeout does
        const res = fetch(env, v.info, v.name, ns);
        if (isOk(res)) obj = asObject(res);
        else if (res.code !== 404) {
          out.apiError(env, res);
          done = true;
          break;
        }
        continue;
      }
      const seen = watched(env, v.info, v.name, ns);
      if (seen.res) {
        out.apiError(env, seen.res);
        done = true;
        break;
      }
      obj = seen.obj;
      if (obj && cond.kind === 'delete' && uid && obj.metadata?.uid !== uid) obj = undefined;
      if (!obj && cond.kind === 'check') {
        // a Deleted event while waiting for a condition ends the wait with NotFound
        out.apiError(env, notFound());
        done = true;
        break;
      }
    }
    // RunWait's create poll ends with wait.ErrorInterrupted's text; the waiters name the object
    if (!done)
      out.fail(
        cond.kind === 'create'
          ? 'timed out waiting for the condition'
          : `timed out waiting for the condition on ${v.info.resource}/${v.name}`,
      );
  }
  if (count === 0 && cond.kind === 'check' && out.exitCode === 0)
    return out.fail('no matching resources found');
  return out;
}
