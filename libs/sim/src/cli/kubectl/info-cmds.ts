// kubectl version, cluster-info, api-resources, explain and proxy.

import { RESOURCES, groupVersion } from '../../model';
import { formatTabbed, GET_TABWRITER } from '../text/tab-writer';
import type { ParsedArgs } from './kube-args';
import { flag } from './kube-args';
import { GIT_COMMIT, KUBECTL_VERSION } from './kube-client';
import type { KubectlEnv } from './kubectl-env';
import { isOk, Out } from './kubectl-env';
import { toYaml } from './kube-output';
import { hostPort } from './kube-errors';
import { resolveResource } from './kube-resources';

export function versionInfo(): Record<string, string> {
  return {
    major: '1',
    minor: '32',
    gitVersion: KUBECTL_VERSION,
    gitCommit: GIT_COMMIT,
    gitTreeState: 'clean',
    buildDate: '2025-05-15T08:19:11Z',
    goVersion: 'go1.23.8',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function runVersion(env: KubectlEnv | null, args: ParsedArgs): Out {
  const out = new Out();
  const o = flag(args, 'o', 'output');
  let server: Record<string, string> | undefined;
  let serverErr: string | undefined;
  if (env) {
    const res = env.client.request({ verb: 'get', resource: 'namespaces', name: 'default' });
    if (res.code === 0)
      serverErr = `The connection to the server ${hostPort(env.client.server)} was refused - did you specify the right host or port?\n`;
    else if (res.code === 401)
      serverErr =
        'error: You must be logged in to the server (the server has asked for the client to provide credentials)\n';
    else server = versionInfo();
  }
  if (o === 'json' || o === 'yaml') {
    const doc = {
      clientVersion: versionInfo(),
      kustomizeVersion: 'v5.5.0',
      ...(server ? { serverVersion: server } : {}),
    };
    out.out(o === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : toYaml(doc));
  } else {
    out.out(`Client Version: ${KUBECTL_VERSION}\nKustomize Version: v5.5.0\n`);
    if (server) out.out(`Server Version: ${server.gitVersion}\n`);
  }
  if (serverErr) out.err(serverErr);
  return out;
}

export function runClusterInfo(env: KubectlEnv): Out {
  const out = new Out();
  if (env.args.positional[0] === 'dump')
    return out.fail('cluster-info dump is not available in this lab');
  const res = env.client.request({
    verb: 'list',
    resource: 'services',
    namespace: 'kube-system',
    query: { labelSelector: 'kubernetes.io/cluster-service=true' },
  });
  if (!isOk(res)) return out.apiError(env, res);
  const green = (s: string) => `\u001b[0;32m${s}\u001b[0m`;
  const yellow = (s: string) => `\u001b[0;33m${s}\u001b[0m`;
  out.out(`${green('Kubernetes control plane')} is running at ${yellow(env.client.server)}\n`);
  for (const svc of (
    res.body as {
      items?: {
        metadata: { name: string; labels?: Record<string, string> };
        spec?: { ports?: { name?: string }[] };
      }[];
    }
  ).items ?? []) {
    const name = svc.metadata.labels?.['kubernetes.io/name'] ?? svc.metadata.name;
    const port = svc.spec?.ports?.[0]?.name;
    out.out(
      `${green(name)} is running at ${yellow(`${env.client.server}/api/v1/namespaces/kube-system/services/${svc.metadata.name}${port ? `:${port}` : ''}/proxy`)}\n`,
    );
  }
  return out.out(
    `\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n`,
  );
}

export function runApiResources(env: KubectlEnv): Out {
  const out = new Out();
  const res = env.client.request({ verb: 'get', resource: 'namespaces', name: 'default' });
  if (res.code === 0) return out.apiError(env, res);
  const nsFilter = flag(env.args, 'namespaced');
  const list = [...RESOURCES]
    .filter((r) => nsFilter === undefined || String(r.namespaced) === nsFilter)
    // apiresources.go sortableResource: by API group name (core "" first), then resource name
    .sort((a, b) =>
      a.group !== b.group ? (a.group < b.group ? -1 : 1) : a.resource < b.resource ? -1 : 1,
    );
  if (flag(env.args, 'o', 'output') === 'name')
    return out.out(
      list.map((r) => `${r.group ? `${r.resource}.${r.group}` : r.resource}\n`).join(''),
    );
  const wide = flag(env.args, 'o', 'output') === 'wide';
  let text = `NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND${wide ? '\tVERBS\tCATEGORIES' : ''}\n`;
  for (const r of list)
    text += `${r.resource}\t${r.shortNames.join(',')}\t${groupVersion(r)}\t${r.namespaced}\t${r.kind}${wide ? `\t${r.verbs.join(',')}\t${(r.categories ?? []).join(',')}` : ''}\n`;
  return out.out(formatTabbed(text, GET_TABWRITER));
}

const EXPLAIN: Record<
  string,
  { kind: string; version: string; type: string; doc: string; fields?: [string, string][] }
> = {
  pods: {
    kind: 'Pod',
    version: 'v1',
    type: 'Object',
    doc: 'Pod is a collection of containers that can run on a host. This resource is created\n    by clients and scheduled onto hosts.',
    fields: [
      ['apiVersion', '<string>'],
      ['kind', '<string>'],
      ['metadata', '<ObjectMeta>'],
      ['spec', '<PodSpec>'],
      ['status', '<PodStatus>'],
    ],
  },
  'pods.spec.nodename': {
    kind: 'Pod',
    version: 'v1',
    type: 'string',
    doc: 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a\n    candidate for scheduling by the scheduler defined in schedulerName. Once this\n    field is set, the kubelet for this node becomes responsible for the lifecycle\n    of this pod. This field should not be used to express a desire for the pod to\n    be scheduled on a specific node.',
  },
  deployments: {
    kind: 'Deployment',
    version: 'apps/v1',
    type: 'Object',
    doc: 'Deployment enables declarative updates for Pods and ReplicaSets.',
    fields: [
      ['apiVersion', '<string>'],
      ['kind', '<string>'],
      ['metadata', '<ObjectMeta>'],
      ['spec', '<DeploymentSpec>'],
      ['status', '<DeploymentStatus>'],
    ],
  },
  'deployments.spec.replicas': {
    kind: 'Deployment',
    version: 'apps/v1',
    type: 'integer',
    doc: 'Number of desired pods. This is a pointer to distinguish between explicit zero\n    and not specified. Defaults to 1.',
  },
  services: {
    kind: 'Service',
    version: 'v1',
    type: 'Object',
    doc: 'Service is a named abstraction of software service (for example, mysql)\n    consisting of local port (for example 3306) that the proxy listens on, and the\n    selector that determines which pods will answer requests sent through the\n    proxy.',
    fields: [
      ['apiVersion', '<string>'],
      ['kind', '<string>'],
      ['metadata', '<ObjectMeta>'],
      ['spec', '<ServiceSpec>'],
      ['status', '<ServiceStatus>'],
    ],
  },
};

export function runExplain(env: KubectlEnv): Out {
  const out = new Out();
  const arg = env.args.positional[0];
  if (!arg)
    return out.fail(
      'You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.',
    );
  const [type, ...path] = arg.split('.');
  const info = resolveResource(type as string);
  if (!info) return out.fail(`the server doesn't have a resource type "${type}"`);
  const key = [info.resource, ...path].join('.').toLowerCase();
  const e = EXPLAIN[key];
  if (!e) {
    return path.length
      ? out.fail(`field "${path[path.length - 1]}" does not exist`)
      : out.out(
          `GROUP:      ${info.group}\nKIND:       ${info.kind}\nVERSION:    ${info.version}\n\nDESCRIPTION:\n    ${info.kind} (documentation is abridged in this lab)\n`,
        );
  }
  const head = `${info.group ? `GROUP:      ${info.group}\n` : ''}KIND:       ${e.kind}\nVERSION:    ${info.version}\n\n`;
  if (path.length)
    return out.out(
      `${head}FIELD: ${path[path.length - 1]} <${e.type}>\n\n\nDESCRIPTION:\n    ${e.doc}\n    \n`,
    );
  let text = `${head}DESCRIPTION:\n    ${e.doc}\n    \nFIELDS:\n`;
  for (const [f, t] of e.fields ?? []) text += `  ${f}\t${t}\n\n`;
  return out.out(text);
}

export function runProxy(env: KubectlEnv, start: (port: number) => void, background: boolean): Out {
  const out = new Out();
  const port = Number(flag(env.args, 'port', 'p') ?? '8001');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return out.fail(`invalid port ${flag(env.args, 'port', 'p')}`);
  start(port);
  // the real proxy blocks in the foreground; the lab keeps it serving either way (`&` or not)
  void background;
  return out.out(`Starting to serve on 127.0.0.1:${port}\n`);
}
