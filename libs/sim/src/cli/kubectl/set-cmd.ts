// kubectl set env|resources (and `set image`, which lives with the other one-field verbs): change
// the pod template, which makes a Deployment roll out (kubectl pkg/cmd/set: set_env.go,
// set_resources.go, env/env_parse.go, helper.go selectContainers).

import type { KubeObject } from '../../model';
import { boolFlag, flag, flagAll } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, dryRunMode, dryRunSuffix, isOk, Out } from './kubectl-env';
import { parseOutputFormat, printObjects } from './kube-output';
import { qualifiedKind, resolveResource } from './kube-resources';
import { visitTargets } from './kube-targets';
import type { Visited } from './kube-targets';
import { runSetImage } from './modify-cmds';
import { subcommandHelp } from './stream-cmds';
import { deepEqual } from './three-way-merge';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: Record<string, Record<string, string>>;
}
interface Container {
  name: string;
  env?: EnvVar[];
  resources?: { limits?: Record<string, string>; requests?: Record<string, string> };
}
interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
}

const SET_HELP = `Configure application resources.

 These commands help you make changes to existing application resources.

Available Commands:
  env              Update environment variables on a pod template
  image            Update the image of a pod template
  resources        Update resource requests/limits on objects with pod templates
  selector         Set the selector on a resource
  serviceaccount   Update the service account of a resource
  subject          Update the user, group, or service account in a role binding or cluster role binding

Usage:
  kubectl set SUBCOMMAND [options]

Use "kubectl set <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`;

export function runSet(env: KubectlEnv): Out {
  const sub = env.args.positional[0];
  if (sub === 'env') return runSetEnv(env);
  if (sub === 'resources') return runSetResources(env);
  if (sub === 'image') return runSetImage(env);
  if (sub === 'serviceaccount' || sub === 'sa') return runSetServiceAccount(env);
  if (sub === 'selector') return runSetSelector(env);
  return subcommandHelp(new Out(), 'set', SET_HELP, sub);
}

/** updatepodspec.go: the pod spec inside a Pod or a pod template. */
function podSpecOf(obj: KubeObject): PodSpec | undefined {
  const spec = obj.spec as { template?: { spec?: PodSpec }; containers?: Container[] } | undefined;
  if (obj.kind === 'Pod') return spec as PodSpec | undefined;
  return spec?.template?.spec;
}

/** helper.go selectContainers: path.Match on the container name. */
function selectContainers(spec: PodSpec, selector: string): Container[] {
  const re = new RegExp(
    `^${selector
      .replace(/[.+^${}()|\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return [...(spec.containers ?? []), ...(spec.initContainers ?? [])].filter((c) =>
    re.test(c.name),
  );
}

function templatePatch(obj: KubeObject, spec: Record<string, unknown>): Record<string, unknown> {
  return obj.kind === 'Pod' ? { spec } : { spec: { template: { spec } } };
}

function sendPatch(
  env: KubectlEnv,
  out: Out,
  v: Visited,
  body: unknown,
  errPrefix: string,
): KubeObject | undefined {
  const res = env.client.request({
    verb: 'patch',
    resource: v.info.resource,
    namespace: v.info.namespaced ? env.namespace : undefined,
    name: v.name,
    patchType: 'strategic',
    body,
    query: {
      fieldManager: 'kubectl-set',
      ...(dryRunMode(env) === 'server' ? { dryRun: true } : {}),
    },
  });
  if (!isOk(res)) {
    const text = out.stderr;
    out.apiError(env, res);
    // kubectl wraps the server's error: "failed to patch ... <Status message>"
    const added = out.stderr.slice(text.length).replace(/^Error from server \([^)]*\): /, '');
    out.stderr = `${text}error: ${errPrefix}${added}`;
    return undefined;
  }
  return asObject(res);
}

const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** env_parse.go ParseEnv */
function parseEnv(specs: string[]): { set: EnvVar[]; remove: string[] } | string {
  const set: EnvVar[] = [];
  const remove: string[] = [];
  for (const s of specs) {
    if (s.includes('=')) {
      const i = s.indexOf('=');
      const name = s.slice(0, i);
      if (!ENV_NAME.test(name))
        return `${JSON.stringify(name)} is not a valid key name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`;
      set.push({ name, value: s.slice(i + 1) });
    } else if (s.endsWith('-')) remove.push(s.slice(0, -1));
    else return `unknown environment variable: ${s}`;
  }
  return { set, remove };
}

/** env.SplitEnvironmentFromResources: every env argument comes after the last resource. */
function splitEnvArgs(args: string[]): [string[], string[]] | undefined {
  const resources: string[] = [];
  const envArgs: string[] = [];
  for (const a of args) {
    const isEnv = /^.+=/s.test(a) || a.endsWith('-');
    if (isEnv) envArgs.push(a);
    else if (envArgs.length) return undefined;
    else resources.push(a);
  }
  return [resources, envArgs];
}

function refString(from: EnvVar['valueFrom']): string {
  if (from?.fieldRef) return `field path ${from.fieldRef.fieldPath}`;
  if (from?.resourceFieldRef) return `resource ${from.resourceFieldRef.resource}`;
  if (from?.configMapKeyRef)
    return `configmap ${from.configMapKeyRef.name}, key ${from.configMapKeyRef.key}`;
  if (from?.secretKeyRef) return `secret ${from.secretKeyRef.name}, key ${from.secretKeyRef.key}`;
  return 'invalid valueFrom';
}

function runSetEnv(env: KubectlEnv): Out {
  const out = new Out();
  const args = env.args.positional.slice(1);
  const split = splitEnvArgs(args);
  if (!split)
    return out.fail(
      `all resources must be specified before environment changes: ${args.join(' ')}`,
    );
  const [resources, envArgs] = split;
  const list = boolFlag(env.args, 'list');
  const output = flag(env.args, 'o', 'output');
  const mode = dryRunMode(env);
  if (resources.length < 1)
    return out.fail(
      'one or more resources must be specified as <resource> <name> or <resource>/<name>',
    );
  if (list && output) return out.fail('--list and --output may not be specified together');
  const parsed = parseEnv([...flagAll(env.args, 'env'), ...envArgs]);
  if (typeof parsed === 'string') return out.fail(parsed);
  const overwrite = flag(env.args, 'overwrite') !== 'false';
  const selector = flag(env.args, 'c', 'containers') ?? '*';
  const format = parseOutputFormat(output);
  if (typeof format === 'string') return out.fail(format);
  const visited = visitTargets(env, out, resources, resolveResource);
  // the builder fetches every object first: one missing object fails the command
  if (!visited || out.exitCode) return out;
  for (const v of visited) {
    if (!v.obj) continue;
    const spec = podSpecOf(v.obj);
    if (!spec) {
      out.fail(
        `${v.info.resource}/${v.name} the object is not a pod or does not have a pod template: *v1.${v.obj.kind}`,
      );
      continue;
    }
    const containers = selectContainers(spec, selector);
    if (containers.length === 0) {
      out.err(
        `warning: ${v.obj.kind}/${v.name} does not have any containers matching ${JSON.stringify(selector)}\n`,
        0,
      );
      continue;
    }
    const changed: Container[] = [];
    let conflict: string | undefined;
    for (const c of containers) {
      const before = c.env ?? [];
      if (!overwrite) {
        for (const e of parsed.set) {
          const old = before.find((x) => x.name === e.name);
          if (old && old.value !== e.value)
            conflict = `'${e.name}' already has a value (${old.value ?? ''}), and --overwrite is false`;
        }
      }
      const after = before
        .filter((x) => !parsed.remove.includes(x.name))
        .map((x) => parsed.set.find((e) => e.name === x.name) ?? x);
      for (const e of parsed.set) {
        if (!after.some((x) => x.name === e.name) && !parsed.remove.includes(e.name)) after.push(e);
      }
      if (list) {
        out.out(`# ${v.obj.kind} ${v.name}, container ${c.name}\n`);
        for (const e of after)
          out.out(
            e.valueFrom
              ? `# ${e.name} from ${refString(e.valueFrom)}\n`
              : `${e.name}=${e.value ?? ''}\n`,
          );
        continue;
      }
      if (deepEqual(before, after)) continue;
      const removed = before.filter((x) => !after.some((a) => a.name === x.name));
      const upserts = after.filter(
        (a) =>
          !deepEqual(
            a,
            before.find((b) => b.name === a.name),
          ),
      );
      changed.push({
        name: c.name,
        env: [...upserts, ...removed.map((r) => ({ name: r.name, $patch: 'delete' }) as EnvVar)],
      });
      c.env = after;
    }
    if (conflict) {
      out.fail(`${v.info.resource}/${v.name} ${conflict}`);
      continue;
    }
    if (list || changed.length === 0) continue;
    const label = `${qualifiedKind(v.info)}/${v.name}`;
    let result: KubeObject | undefined = v.obj;
    if (mode !== 'client') {
      result = sendPatch(
        env,
        out,
        v,
        templatePatch(v.obj, { containers: changed }),
        'failed to patch env update to pod template: ',
      );
      if (!result) continue;
    }
    if (format.kind !== 'table') out.out(printObjects(format, [result], true)[0]);
    else out.out(`${label} env updated${dryRunSuffix(mode)}\n`);
  }
  return out;
}

const QUANTITY = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

/** generateversioned.populateResourceListV1 */
function parseResourceList(spec: string | undefined): Record<string, string> | string {
  const result: Record<string, string> = {};
  if (!spec) return result;
  for (const kv of spec.split(',')) {
    const pieces = kv.split('=');
    if (pieces.length !== 2)
      return `Invalid argument syntax [${pieces.join(' ')}], expected <resource>=<value>`;
    if (!QUANTITY.test(pieces[1] as string))
      return "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    result[pieces[0] as string] = pieces[1] as string;
  }
  return result;
}

function runSetResources(env: KubectlEnv): Out {
  const out = new Out();
  const limitsFlag = flag(env.args, 'limits');
  const requestsFlag = flag(env.args, 'requests');
  const mode = dryRunMode(env);
  const format = parseOutputFormat(flag(env.args, 'o', 'output'));
  if (typeof format === 'string') return out.fail(format);
  const visited = visitTargets(env, out, env.args.positional.slice(1), resolveResource);
  if (!visited || out.exitCode) return out;
  if (boolFlag(env.args, 'all') && flag(env.args, 'l', 'selector'))
    return out.fail('cannot set --all and --selector at the same time');
  if (!limitsFlag && !requestsFlag)
    return out.fail(
      'you must specify an update to requests or limits (in the form of --requests/--limits)',
    );
  const limits = parseResourceList(limitsFlag);
  if (typeof limits === 'string') return out.fail(limits);
  const requests = parseResourceList(requestsFlag);
  if (typeof requests === 'string') return out.fail(requests);
  const selector = flag(env.args, 'c', 'containers') ?? '*';
  const errors: string[] = [];
  for (const v of visited) {
    if (!v.obj) continue;
    const spec = podSpecOf(v.obj);
    if (!spec) {
      errors.push(
        `error: ${v.info.resource}/${v.name} the object is not a pod or does not have a pod template: *v1.${v.obj.kind}\n`,
      );
      continue;
    }
    const containers = selectContainers(spec, selector);
    if (containers.length === 0) {
      errors.push(`error: unable to find container named ${selector}\n`);
      continue;
    }
    const changed: Container[] = [];
    for (const c of containers) {
      const before = c.resources ?? {};
      const after = {
        ...before,
        ...(limitsFlag ? { limits: { ...(before.limits ?? {}), ...limits } } : {}),
        ...(requestsFlag ? { requests: { ...(before.requests ?? {}), ...requests } } : {}),
      };
      if (deepEqual(before, after)) continue;
      c.resources = after;
      changed.push({
        name: c.name,
        resources: {
          ...(limitsFlag ? { limits } : {}),
          ...(requestsFlag ? { requests } : {}),
        },
      });
    }
    if (changed.length === 0) continue;
    let result: KubeObject | undefined = v.obj;
    if (mode !== 'client') {
      result = sendPatch(
        env,
        out,
        v,
        templatePatch(v.obj, { containers: changed }),
        'failed to patch resources update to pod template ',
      );
      if (!result) continue;
    }
    if (format.kind !== 'table') out.out(printObjects(format, [result], true)[0]);
    else
      out.out(
        `${qualifiedKind(v.info)}/${v.name} resource requirements updated${dryRunSuffix(mode)}\n`,
      );
  }
  for (const e of errors) out.err(e);
  return out;
}

/** set_serviceaccount.go: the last argument names the ServiceAccount for the pod template. */
function runSetServiceAccount(env: KubectlEnv): Out {
  const out = new Out();
  const args = env.args.positional.slice(1);
  if (args.length === 0) return out.fail('serviceaccount is required');
  const account = args[args.length - 1] as string;
  const mode = dryRunMode(env);
  const visited = visitTargets(env, out, args.slice(0, -1), resolveResource);
  if (!visited || out.exitCode) return out;
  for (const v of visited) {
    if (!v.obj) continue;
    const spec = podSpecOf(v.obj);
    if (!spec) {
      out.fail(
        `${v.info.resource}/${v.name} the object is not a pod or does not have a pod template: *v1.${v.obj.kind}`,
      );
      continue;
    }
    if ((spec as { serviceAccountName?: string }).serviceAccountName === account) continue;
    if (mode !== 'client') {
      const done = sendPatch(
        env,
        out,
        v,
        templatePatch(v.obj, { serviceAccountName: account }),
        'failed to patch ServiceAccountName ',
      );
      if (!done) continue;
    }
    out.out(`${qualifiedKind(v.info)}/${v.name} serviceaccount updated${dryRunSuffix(mode)}\n`);
  }
  return out;
}

/** set_selector.go: replaces a Service's selector with the equality terms given last. */
function runSetSelector(env: KubectlEnv): Out {
  const out = new Out();
  const args = env.args.positional.slice(1);
  if (args.length < 2)
    return out.err(
      "error: one resource and selector are required\nSee 'kubectl set selector -h' for help and examples\n",
    );
  const expr = args[args.length - 1] as string;
  const selector: Record<string, string> = {};
  for (const term of expr.split(',').filter(Boolean)) {
    const m = /^([A-Za-z0-9._/-]+)\s*==?\s*([A-Za-z0-9._-]*)$/.exec(term.trim());
    if (!m)
      return out.fail(
        `couldn't parse the selector string "${expr}": unable to parse requirement: found '${term}', expected: '=', '!=', '==', 'in', notin'`,
      );
    selector[m[1] as string] = m[2] as string;
  }
  const mode = dryRunMode(env);
  const visited = visitTargets(env, out, args.slice(0, -1), resolveResource);
  if (!visited || out.exitCode) return out;
  for (const v of visited) {
    if (!v.obj) continue;
    if (v.obj.kind !== 'Service') {
      out.fail('setting a selector is only supported for Services');
      continue;
    }
    const before = ((v.obj.spec as { selector?: Record<string, string> })?.selector ??
      {}) as Record<string, string | null>;
    const change: Record<string, string | null> = { ...selector };
    for (const k of Object.keys(before)) if (!(k in selector)) change[k] = null;
    if (deepEqual(before, selector)) continue;
    if (mode !== 'client') {
      const done = sendPatch(env, out, v, { spec: { selector: change } }, '');
      if (!done) continue;
    }
    out.out(`${qualifiedKind(v.info)}/${v.name} selector updated${dryRunSuffix(mode)}\n`);
  }
  return out;
}
