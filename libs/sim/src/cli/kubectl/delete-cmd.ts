// kubectl delete: by TYPE NAME, TYPE/NAME, -f, -l, --all; --grace-period, --force, --wait.

import type { ResourceInfo } from '../../model';
import { boolFlag, flag, flagAll } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { isOk, listItems, MAX_WAIT_MS, Out, unknownResource, WAIT_STEP_MS } from './kubectl-env';
import { qualifiedKind, resolveResource } from './kube-resources';
import { mappingFor, namespaceFor } from './apply-cmd';
import { readManifests } from './manifest-reader';

const NO_RESOURCES = `error: You must provide one or more resources by argument or filename.
Example resource specifications include:
   '-f rsrc.yaml'
   '--filename=rsrc.json'
   '<resource> <name>'
   '<resource>'
`;

interface Victim {
  info: ResourceInfo;
  name: string;
  namespace?: string;
  source?: string;
}

export function runDelete(env: KubectlEnv): Out {
  const out = new Out();
  const victims: Victim[] = [];
  const files = flagAll(env.args, 'f', 'filename');
  const ns = (info: ResourceInfo) => (info.namespaced ? env.namespace : undefined);
  if (files.length > 0) {
    const { manifests, errors } = readManifests(env, files);
    for (const e of errors) out.err(`${e}\n`);
    for (const m of manifests) {
      const info = mappingFor(m, out);
      if (!info) continue;
      const n = namespaceFor(env, info, m.obj, out);
      if (n === false) continue;
      victims.push({
        info,
        name: String(m.obj.metadata?.name ?? ''),
        namespace: n,
        source: m.source,
      });
    }
  } else {
    const [first, ...rest] = env.args.positional;
    if (!first) return out.err(NO_RESOURCES);
    if (first.includes('/')) {
      for (const p of env.args.positional) {
        const [t, n] = p.split('/', 2) as [string, string];
        const info = resolveResource(t);
        if (!info) return unknownResource(out, t);
        victims.push({ info, name: n, namespace: ns(info) });
      }
    } else {
      for (const t of first.split(',')) {
        const info = resolveResource(t);
        if (!info) return unknownResource(out, t);
        const selector = flag(env.args, 'l', 'selector');
        if (rest.length === 0) {
          if (!selector && !boolFlag(env.args, 'all') && !flag(env.args, 'field-selector')) {
            return out.fail('resource(s) were provided, but no name was specified');
          }
          const res = env.client.request({
            verb: 'list',
            resource: info.resource,
            namespace: env.allNamespaces ? undefined : ns(info),
            query: {
              ...(selector ? { labelSelector: selector } : {}),
              ...(flag(env.args, 'field-selector')
                ? { fieldSelector: flag(env.args, 'field-selector') }
                : {}),
            },
          });
          if (!isOk(res)) return out.apiError(env, res);
          for (const o of listItems(res))
            victims.push({
              info,
              name: String(o.metadata?.name),
              namespace: o.metadata?.namespace,
            });
        } else for (const n of rest) victims.push({ info, name: n, namespace: ns(info) });
      }
    }
  }
  const force = boolFlag(env.args, 'force');
  const graceRaw = flag(env.args, 'grace-period');
  let grace = graceRaw === undefined ? undefined : Number(graceRaw);
  if (grace !== undefined && !Number.isInteger(grace))
    return out.fail(
      `invalid argument "${graceRaw}" for "--grace-period" flag: strconv.ParseInt: parsing "${graceRaw}": invalid syntax`,
    );
  if (force && (grace === undefined || grace < 0)) grace = 0;
  if (force && grace === 0) {
    out.err(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
      0,
    );
  } else if (grace === 0) grace = 1; // kubectl turns --grace-period=0 without --force into 1
  if (victims.length === 0 && out.exitCode === 0) {
    return out.err(env.allNamespaces ? 'No resources found\n' : `No resources found\n`, 0);
  }
  const deleted: Victim[] = [];
  for (const v of victims) {
    const res = env.client.request({
      verb: 'delete',
      resource: v.info.resource,
      namespace: v.namespace,
      name: v.name,
      query: {
        ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}),
        ...(flag(env.args, 'dry-run') === 'server' ? { dryRun: true } : {}),
      },
    });
    if (!isOk(res) && res.code !== 202) {
      if (res.code === 404 && boolFlag(env.args, 'ignore-not-found')) continue;
      out.apiError(env, res, v.source ? { verb: 'deleting', file: v.source } : undefined);
      continue;
    }
    const label = `${qualifiedKind(v.info)} "${v.name}"`;
    out.out(`${label} ${force && grace === 0 ? 'force deleted' : 'deleted'}\n`);
    deleted.push(v);
  }
  // kubectl waits (--wait=true) until the objects are really gone: let simulated time run
  if (flag(env.args, 'wait') !== 'false' && !(force && grace === 0)) waitGone(env, deleted);
  return out;
}

function waitGone(env: KubectlEnv, victims: Victim[]): void {
  for (let t = 0; t < MAX_WAIT_MS && victims.length > 0; t += WAIT_STEP_MS) {
    victims = victims.filter((v) => lookup(env, v));
    if (victims.length === 0) return;
    env.advance(WAIT_STEP_MS);
  }
}

function lookup(env: KubectlEnv, v: Victim): boolean {
  const res = env.client.lab.request(env.client.user, {
    verb: 'get',
    resource: v.info.resource,
    namespace: v.namespace,
    name: v.name,
  }) as { code?: number };
  return res.code !== 404;
}
