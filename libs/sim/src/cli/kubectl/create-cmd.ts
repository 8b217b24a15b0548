// kubectl create <kind> NAME ... (the generators of kubectl pkg/cmd/create) and create -f.

import type { KubeObject, ResourceInfo } from '../../model';
import { resourceInfo } from '../../model';
import { base64Encode } from '../text/base64';
import { boolFlag, flag, flagAll } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, dryRunMode, dryRunSuffix, isOk, Out } from './kubectl-env';
import { runCreateFromFiles } from './apply-cmd';
import { parseOutputFormat, printObjects } from './kube-output';
import { qualifiedKind, resolveResource } from './kube-resources';

const SUBCOMMANDS = [
  'clusterrole',
  'clusterrolebinding',
  'configmap',
  'deployment',
  'job',
  'namespace',
  'role',
  'rolebinding',
  'secret',
  'service',
  'serviceaccount',
];

const ALIASES: Record<string, string> = {
  cm: 'configmap',
  deploy: 'deployment',
  ns: 'namespace',
  sa: 'serviceaccount',
  svc: 'service',
};

type Built = { obj: KubeObject; info: ResourceInfo } | string;

function meta(name: string, extra: Record<string, unknown> = {}): KubeObject['metadata'] {
  return { creationTimestamp: null, name, ...extra } as unknown as KubeObject['metadata'];
}

/** `nginx:1.27` -> `nginx`, `registry.k8s.io/pause:3.10` -> `pause` (kubectl's container name). */
export function containerNameFor(image: string): string {
  const last = image.split('/').pop() ?? image;
  return (
    last
      .split('@')[0]
      ?.split(':')[0]
      ?.replace(/[^a-z0-9-]/g, '-') || 'container'
  );
}

function literalPairs(env: KubectlEnv, out: Out): Record<string, string> | undefined {
  const data: Record<string, string> = {};
  for (const lit of flagAll(env.args, 'from-literal')) {
    const i = lit.indexOf('=');
    if (i <= 0) {
      out.fail(`invalid literal source ${lit}, expected key=value`);
      return undefined;
    }
    data[lit.slice(0, i)] = lit.slice(i + 1);
  }
  for (const f of flagAll(env.args, 'from-file')) {
    const i = f.indexOf('=');
    const [key, path] = i > 0 ? [f.slice(0, i), f.slice(i + 1)] : [f.split('/').pop() as string, f];
    const text = env.fs.read(env.resolve(path));
    if (text === undefined) {
      out.fail(`error reading ${path}: no such file or directory`);
      return undefined;
    }
    data[key] = text;
  }
  return data;
}

function rules(env: KubectlEnv, out: Out): Record<string, unknown>[] | undefined {
  const verbs = flagAll(env.args, 'verb').flatMap((v) => v.split(','));
  const resources = flagAll(env.args, 'resource').flatMap((v) => v.split(','));
  const names = flagAll(env.args, 'resource-name').flatMap((v) => v.split(','));
  if (verbs.length === 0) {
    out.fail('at least one verb must be specified');
    return undefined;
  }
  if (resources.length === 0) {
    out.fail('at least one resource must be specified');
    return undefined;
  }
  const byGroup = new Map<string, string[]>();
  for (const r of resources) {
    const [base, sub] = r.split('/', 2) as [string, string | undefined];
    const info = resolveResource(base);
    if (!info) {
      out.fail(`the server doesn't have a resource type "${base}"`);
      return undefined;
    }
    const list = byGroup.get(info.group) ?? [];
    list.push(sub ? `${info.resource}/${sub}` : info.resource);
    byGroup.set(info.group, list);
  }
  return [...byGroup.entries()].map(([group, res]) => ({
    apiGroups: [group],
    resources: res,
    ...(names.length ? { resourceNames: names } : {}),
    verbs,
  }));
}

function subjects(env: KubectlEnv): Record<string, unknown>[] {
  const s: Record<string, unknown>[] = [];
  for (const u of flagAll(env.args, 'user'))
    s.push({ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: u });
  for (const g of flagAll(env.args, 'group'))
    s.push({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: g });
  for (const sa of flagAll(env.args, 'serviceaccount')) {
    const [ns, name] = sa.split(':', 2) as [string, string];
    s.push({ kind: 'ServiceAccount', name, namespace: ns });
  }
  return s;
}

function build(env: KubectlEnv, out: Out, kind: string, name: string, rest: string[]): Built {
  const info = (r: string) => resourceInfo(r) as ResourceInfo;
  switch (kind) {
    case 'namespace':
      return {
        info: info('namespaces'),
        obj: { apiVersion: 'v1', kind: 'Namespace', metadata: meta(name), spec: {}, status: {} },
      };
    case 'serviceaccount':
      return {
        info: info('serviceaccounts'),
        obj: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(name) },
      };
    case 'deployment': {
      const images = flagAll(env.args, 'image');
      if (images.length === 0) return 'required flag(s) "image" not set';
      const replicas = Number(flag(env.args, 'replicas') ?? '1');
      const port = flag(env.args, 'port');
      const labels = { app: name };
      const containers = images.map((image) => ({
        image,
        name: containerNameFor(image),
        ...(port ? { ports: [{ containerPort: Number(port) }] } : {}),
        resources: {},
      }));
      return {
        info: info('deployments'),
        obj: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: meta(name, { labels }),
          spec: {
            replicas,
            selector: { matchLabels: labels },
            strategy: {},
            template: { metadata: { creationTimestamp: null, labels }, spec: { containers } },
          },
          status: {},
        },
      };
    }
    case 'job': {
      const image = flag(env.args, 'image');
      if (!image) return 'required flag(s) "image" not set';
      const command = env.args.dashArgs ?? [];
      return {
        info: info('jobs'),
        obj: {
          apiVersion: 'batch/v1',
          kind: 'Job',
          metadata: meta(name),
          spec: {
            template: {
              metadata: { creationTimestamp: null },
              spec: {
                containers: [
                  { image, name, ...(command.length ? { command } : {}), resources: {} },
                ],
                restartPolicy: 'Never',
              },
            },
          },
          status: {},
        },
      };
    }
    case 'secret': {
      if (rest[0] !== undefined && name !== 'generic') return `Unknown secret type ${name}`;
      const secretName = rest[0];
      if (name !== 'generic' || !secretName)
        return name === 'generic'
          ? 'exactly one NAME is required, got 0'
          : `unknown command "${name}" for "kubectl create secret"`;
      const data = literalPairs(env, out);
      if (!data) return '';
      return {
        info: info('secrets'),
        obj: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: meta(secretName),
          ...(Object.keys(data).length
            ? {
                data: Object.fromEntries(
                  Object.entries(data).map(([k, v]) => [k, base64Encode(v)]),
                ),
              }
            : {}),
          type: flag(env.args, 'type') ?? 'Opaque',
        },
      };
    }
    case 'configmap': {
      const data = literalPairs(env, out);
      if (!data) return '';
      return {
        info: info('configmaps'),
        obj: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: meta(name),
          ...(Object.keys(data).length ? { data } : {}),
        },
      };
    }
    case 'role':
    case 'clusterrole': {
      const r = rules(env, out);
      if (!r) return '';
      return {
        info: info(kind === 'role' ? 'roles' : 'clusterroles'),
        obj: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: kind === 'role' ? 'Role' : 'ClusterRole',
          metadata: meta(name),
          rules: r,
        },
      };
    }
    case 'rolebinding':
    case 'clusterrolebinding': {
      const role = flag(env.args, 'role');
      const clusterRole = flag(env.args, 'clusterrole');
      if (kind === 'clusterrolebinding' && !clusterRole)
        return 'required flag(s) "clusterrole" not set';
      if (kind === 'rolebinding' && !role && !clusterRole)
        return 'exactly one of clusterrole or role must be specified';
      return {
        info: info(kind === 'rolebinding' ? 'rolebindings' : 'clusterrolebindings'),
        obj: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: kind === 'rolebinding' ? 'RoleBinding' : 'ClusterRoleBinding',
          metadata: meta(name),
          roleRef: {
            apiGroup: 'rbac.authorization.k8s.io',
            kind: clusterRole ? 'ClusterRole' : 'Role',
            name: clusterRole ?? role,
          },
          ...(subjects(env).length ? { subjects: subjects(env) } : {}),
        },
      };
    }
    case 'service': {
      const svcName = rest[0];
      if (name !== 'clusterip' && name !== 'nodeport')
        return `unknown command "${name}" for "kubectl create service"`;
      if (!svcName) return 'exactly one NAME is required, got 0';
      const tcp = flagAll(env.args, 'tcp').flatMap((t) => t.split(','));
      if (tcp.length === 0 && flag(env.args, 'clusterip') !== 'None')
        return 'at least one tcp port specifier must be provided';
      const ports = tcp.map((spec) => {
        const [port, target] = spec.split(':') as [string, string | undefined];
        return {
          name: `${port}-${target ?? port}`,
          port: Number(port),
          protocol: 'TCP',
          targetPort: Number(target ?? port),
        };
      });
      return {
        info: info('services'),
        obj: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: meta(svcName, { labels: { app: svcName } }),
          spec: {
            ports,
            selector: { app: svcName },
            type: name === 'nodeport' ? 'NodePort' : 'ClusterIP',
            ...(flag(env.args, 'clusterip') ? { clusterIP: flag(env.args, 'clusterip') } : {}),
          },
          status: { loadBalancer: {} },
        },
      };
    }
    default:
      return `unknown command "${kind}" for "kubectl create"`;
  }
}

function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as object)
        .filter(([, x]) => x !== null)
        .map(([k, x]) => [k, stripNulls(x)]),
    );
  }
  return v;
}

export function runCreate(env: KubectlEnv): Out {
  if (flagAll(env.args, 'f', 'filename').length > 0) return runCreateFromFiles(env);
  const out = new Out();
  const [rawKind, name, ...rest] = env.args.positional;
  if (!rawKind) {
    return out.err(
      `error: must specify one of -f and -k\nSee 'kubectl create -h' for help and examples\n`,
    );
  }
  const kind = ALIASES[rawKind] ?? rawKind;
  if (!SUBCOMMANDS.includes(kind))
    return out.err(`error: unknown command "${rawKind}" for "kubectl create"\n`);
  if (!name)
    return out.fail(
      kind === 'secret' || kind === 'service'
        ? `Unknown ${kind} type: ${''}`
        : 'exactly one NAME is required, got 0',
    );
  const mode = dryRunMode(env);
  if (mode === 'invalid')
    return out.fail(
      `Invalid dry-run value (${flag(env.args, 'dry-run')}). Must be "none", "server", or "client".`,
    );
  const format = parseOutputFormat(flag(env.args, 'o', 'output'));
  if (typeof format === 'string') return out.fail(format);
  const built = build(env, out, kind, name, rest);
  if (typeof built === 'string') return built ? out.fail(built) : out;
  const { info, obj } = built;
  if (info.namespaced && !(kind === 'namespace'))
    obj.metadata = {
      ...obj.metadata,
      ...(env.namespaceExplicit ? { namespace: env.namespace } : {}),
    };
  let result: KubeObject | undefined = obj;
  if (mode !== 'client') {
    const res = env.client.request({
      verb: 'create',
      resource: info.resource,
      namespace: info.namespaced ? env.namespace : undefined,
      body: stripNulls(obj),
      query: {
        fieldManager: 'kubectl-create',
        fieldValidation: 'Strict',
        ...(mode === 'server' ? { dryRun: true } : {}),
      },
    });
    if (!isOk(res)) return out.apiError(env, res);
    result = asObject(res);
  }
  if (format.kind !== 'table')
    return out.out(printObjects(format, result ? [result] : [], true)[0]);
  if (boolFlag(env.args, 'quiet')) return out;
  return out.out(
    `${qualifiedKind(info)}/${result?.metadata?.name ?? obj.metadata?.name} created${dryRunSuffix(mode)}\n`,
  );
}
