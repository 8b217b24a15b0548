// The resource builder's argument forms (cli-runtime resource.Builder ResourceTypeOrNameArgs +
// LabelSelectorParam): `TYPE NAME...`, `TYPE/NAME...`, `TYPE -l sel`, `TYPE --all`. Verbs that act
// on existing objects (expose, wait, set env/resources) fetch them through this one path so the
// builder's errors read the same everywhere.

import type { KubeObject, ResourceInfo } from '../../model';
import { flag, flagAll, boolFlag } from './kube-args';
import { mappingFor } from './apply-cmd';
import { readManifests } from './manifest-reader';
import type { KubectlEnv, Out } from './kubectl-env';
import { asObject, isOk, listItems, unknownResource } from './kubectl-env';

export interface Visited {
  info: ResourceInfo;
  name: string;
  /** undefined when the GET failed (the error is already on Out) */
  obj?: KubeObject;
}

export const MISSING_RESOURCE = `You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'`;

/** Parses the arguments into (resource, name) pairs without contacting the server. */
export function parseTargetArgs(
  out: Out,
  args: string[],
  resolve: (t: string) => ResourceInfo | undefined,
): { info: ResourceInfo; names: string[] }[] | undefined {
  const [first, ...rest] = args;
  if (!first) {
    out.fail(MISSING_RESOURCE);
    return undefined;
  }
  if (first.includes('/')) {
    const list: { info: ResourceInfo; names: string[] }[] = [];
    for (const a of args) {
      const i = a.indexOf('/');
      if (i < 0) {
        out.fail(
          `there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'`,
        );
        return undefined;
      }
      const info = resolve(a.slice(0, i));
      if (!info) {
        unknownResource(out, a.slice(0, i));
        return undefined;
      }
      list.push({ info, names: [a.slice(i + 1)] });
    }
    return list;
  }
  const list: { info: ResourceInfo; names: string[] }[] = [];
  for (const t of first.split(',')) {
    const info = resolve(t);
    if (!info) {
      unknownResource(out, t);
      return undefined;
    }
    list.push({ info, names: rest });
  }
  return list;
}

/**
 * GETs each named object, or LISTs by `-l`/`--all` when a type came without names. Objects that
 * are missing leave the server's error on Out and come back without `obj` (ContinueOnError).
 */
export function visitTargets(
  env: KubectlEnv,
  out: Out,
  args: string[],
  resolve: (t: string) => ResourceInfo | undefined,
  opts: { allowSelector: boolean; ignoreNotFound?: boolean } = { allowSelector: true },
): Visited[] | undefined {
  const files = flagAll(env.args, 'f', 'filename');
  const parsed = files.length ? fromFiles(env, out, files) : parseTargetArgs(out, args, resolve);
  if (!parsed) return undefined;
  const selector = opts.allowSelector ? flag(env.args, 'l', 'selector') : undefined;
  const all = opts.allowSelector && boolFlag(env.args, 'all');
  const visited: Visited[] = [];
  for (const { info, names } of parsed) {
    const ns = info.namespaced && !env.allNamespaces ? env.namespace : undefined;
    if (names.length === 0) {
      if (selector === undefined && !all) {
        out.fail('resource(s) were provided, but no name was specified');
        return undefined;
      }
      const res = env.client.request({
        verb: 'list',
        resource: info.resource,
        namespace: ns,
        query: selector ? { labelSelector: selector } : {},
      });
      if (!isOk(res)) {
        out.apiError(env, res);
        continue;
      }
      for (const o of listItems(res))
        visited.push({ info, name: o.metadata?.name ?? '', obj: withKind(o, info) });
      continue;
    }
    for (const name of names) {
      const res = env.client.request({ verb: 'get', resource: info.resource, namespace: ns, name });
      if (!isOk(res)) {
        if (!(opts.ignoreNotFound && res.code === 404)) out.apiError(env, res);
        visited.push({ info, name });
        continue;
      }
      const obj = asObject(res);
      visited.push({ info, name, obj: obj ? withKind(obj, info) : undefined });
    }
  }
  return visited;
}

/** FilenameParam: the objects a manifest names (their namespace or the one in effect). */
function fromFiles(
  env: KubectlEnv,
  out: Out,
  files: string[],
): { info: ResourceInfo; names: string[] }[] | undefined {
  const { manifests, errors } = readManifests(env, files);
  if (errors.length) {
    for (const e of errors) out.err(`${e}\n`);
    return undefined;
  }
  const list: { info: ResourceInfo; names: string[] }[] = [];
  for (const m of manifests) {
    const info = mappingFor(m, out);
    if (!info) return undefined;
    list.push({ info, names: [m.obj.metadata?.name ?? ''] });
  }
  return list;
}

function withKind(o: KubeObject, info: ResourceInfo): KubeObject {
  if (o.kind) return o;
  return {
    ...o,
    apiVersion: info.group ? `${info.group}/${info.version}` : info.version,
    kind: info.kind,
  };
}
