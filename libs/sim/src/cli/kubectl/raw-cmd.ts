// kubectl get --raw PATH and kubectl api-versions. --raw sends one GET to the path as the
// kubeconfig user and copies the body to stdout unchanged: the apiserver's compact JSON with the
// encoder's trailing newline (curl through `kubectl proxy` gets it indented, because the
// apiserver pretty-prints for curl's User-Agent), `ok` without a newline for the health checks.

import type { ApiResponse } from '../../client/api-client';
import { RESOURCES, groupVersion } from '../../model';
import { parseApiPath } from '../node/proxy-curl';
import type { KubectlEnv } from './kubectl-env';
import { Out } from './kubectl-env';
import { versionInfo } from './info-cmds';

const SERVER_ADDRESS = '172.18.0.2:6443';

function groups(): { name: string; versions: string[] }[] {
  const byGroup = new Map<string, Set<string>>();
  for (const r of RESOURCES) {
    if (!r.group) continue;
    const set = byGroup.get(r.group) ?? new Set<string>();
    set.add(r.version);
    byGroup.set(r.group, set);
  }
  return [...byGroup.entries()].map(([name, v]) => ({ name, versions: [...v] }));
}

function notFound(): ApiResponse {
  return {
    code: 404,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    },
  };
}

export function runGetRaw(env: KubectlEnv, path: string): Out {
  const out = new Out();
  if (env.args.positional.length > 0)
    return out.fail('arguments may not be passed when --raw is specified');
  // every path needs a reachable, authenticated apiserver first
  const probe = env.client.request({ verb: 'get', resource: 'namespaces', name: 'default' });
  if (probe.code === 0 || probe.code === 401) return out.apiError(env, probe);
  const bare = path.split('?')[0] as string;
  switch (bare) {
    case '/healthz':
    case '/livez':
    case '/readyz':
      return out.out('ok');
    case '/version':
      return out.out(JSON.stringify(versionInfo(), null, 2));
    case '/api':
      return out.out(
        `${JSON.stringify({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: SERVER_ADDRESS }] })}\n`,
      );
    case '/apis':
      return out.out(
        `${JSON.stringify({
          kind: 'APIGroupList',
          apiVersion: 'v1',
          groups: groups().map((g) => ({
            name: g.name,
            versions: g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v })),
            preferredVersion: {
              groupVersion: `${g.name}/${g.versions[0]}`,
              version: g.versions[0],
            },
          })),
        })}\n`,
      );
    default:
      break;
  }
  const discovery = discoveryDoc(bare);
  if (discovery) return out.out(`${JSON.stringify(discovery)}\n`);
  const req = parseApiPath(path);
  const res = req ? env.client.request(req) : notFound();
  if (res.code < 200 || res.code >= 300) return out.apiError(env, res);
  return out.out(typeof res.body === 'string' ? res.body : `${JSON.stringify(res.body)}\n`);
}

/** /api/v1, /apis/GROUP/VERSION (APIResourceList) and /apis/GROUP (APIGroup), as discovery serves them. */
function discoveryDoc(path: string): Record<string, unknown> | undefined {
  const seg = path.split('/').filter(Boolean);
  const core = seg[0] === 'api' && seg[1] === 'v1' && seg.length === 2;
  const grouped = seg[0] === 'apis' && seg.length === 3;
  if (core || grouped) {
    const group = core ? '' : (seg[1] as string);
    const version = core ? 'v1' : (seg[2] as string);
    const list = RESOURCES.filter((r) => r.group === group && r.version === version);
    if (list.length === 0) return undefined;
    return {
      kind: 'APIResourceList',
      ...(core ? {} : { apiVersion: 'v1' }),
      groupVersion: core ? 'v1' : `${group}/${version}`,
      resources: list.map((r) => ({
        name: r.resource,
        singularName: r.singular,
        namespaced: r.namespaced,
        kind: r.kind,
        verbs: r.verbs,
        ...(r.shortNames.length ? { shortNames: r.shortNames } : {}),
        ...(r.categories?.length ? { categories: r.categories } : {}),
      })),
    };
  }
  if (seg[0] === 'apis' && seg.length === 2) {
    const g = groups().find((x) => x.name === seg[1]);
    if (!g) return undefined;
    const versions = g.versions.map((v) => ({ groupVersion: `${g.name}/${v}`, version: v }));
    return {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: g.name,
      versions,
      preferredVersion: versions[0],
    };
  }
  return undefined;
}

/** `kubectl api-versions`: every group/version discovery serves, sorted as strings. */
export function runApiVersions(env: KubectlEnv): Out {
  const out = new Out();
  const probe = env.client.request({ verb: 'get', resource: 'namespaces', name: 'default' });
  if (probe.code === 0 || probe.code === 401) return out.apiError(env, probe);
  const all = [...new Set(RESOURCES.map((r) => groupVersion(r)))].sort();
  return out.out(all.map((v) => `${v}\n`).join(''));
}
