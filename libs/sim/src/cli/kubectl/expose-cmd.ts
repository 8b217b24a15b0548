// kubectl expose (TYPE NAME | TYPE/NAME): a Service whose selector, ports and protocols come from
// the exposed object (kubectl pkg/cmd/expose/expose.go createService and polymorphichelpers
// canbeexposed.go, mapbasedselectorforobject.go, portsforobject.go, multiprotocolsforobject.go).

import type { KubeObject } from '../../model';
import { flag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, dryRunMode, dryRunSuffix, isOk, Out } from './kubectl-env';
import { parseOutputFormat, printObjects } from './kube-output';
import { resolveResource } from './kube-resources';
import { visitTargets } from './kube-targets';

interface Port {
  containerPort?: number;
  port?: number;
  protocol?: string;
}
interface PodSpecLike {
  containers?: { ports?: Port[] }[];
}
interface Exposable {
  kind?: string;
  metadata?: KubeObject['metadata'];
  spec?: {
    selector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } & Record<
      string,
      unknown
    >;
    template?: { spec?: PodSpecLike };
    ports?: Port[];
    containers?: { ports?: Port[] }[];
  };
}

/** canbeexposed.go: the GroupKinds kubectl knows how to take a selector from. */
const EXPOSABLE: Record<string, string> = {
  Pod: '',
  Service: '',
  ReplicationController: '',
  Deployment: 'apps',
  ReplicaSet: 'apps',
};

function groupKind(kind: string, group: string): string {
  return group ? `${kind}.${group}` : kind;
}

/** Go ranges over a map in random order; kubectl's output does not depend on it, ours is sorted. */
function makeLabels(m: Record<string, string>): string {
  return Object.entries(m)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

function selectorFor(o: Exposable): string | Error {
  const spec = o.spec ?? {};
  switch (o.kind) {
    case 'Pod': {
      const labels = o.metadata?.labels ?? {};
      if (Object.keys(labels).length === 0)
        return new Error('the pod has no labels and cannot be exposed');
      return makeLabels(labels);
    }
    case 'Service': {
      const sel = spec.selector as Record<string, string> | undefined;
      if (!sel) return new Error('the service has no pod selector set');
      return makeLabels(sel);
    }
    case 'ReplicationController':
      return makeLabels((spec.selector as Record<string, string> | undefined) ?? {});
    case 'Deployment':
    case 'ReplicaSet': {
      const word = o.kind === 'Deployment' ? 'deployment' : 'replicaset';
      const ml = spec.selector?.matchLabels ?? {};
      if (Object.keys(ml).length === 0)
        return new Error(`invalid ${word}: no selectors, therefore cannot be exposed`);
      if ((spec.selector?.matchExpressions ?? []).length > 0)
        return new Error(
          `couldn't convert expressions - "${JSON.stringify(spec.selector?.matchExpressions)}" to map-based selector format`,
        );
      return makeLabels(ml);
    }
    default:
      return new Error(`cannot extract pod selector from ${o.kind}`);
  }
}

function podPorts(o: Exposable): Port[] {
  if (o.kind === 'Service')
    return (o.spec?.ports ?? []).map((p) => ({ containerPort: p.port, protocol: p.protocol }));
  const spec = o.kind === 'Pod' ? (o.spec as PodSpecLike) : o.spec?.template?.spec;
  return (spec?.containers ?? []).flatMap((c) => c.ports ?? []);
}

/** portsforobject.go: container ports, duplicates removed, in order. */
function portsFor(o: Exposable): string[] {
  const seen = new Set<string>();
  for (const p of podPorts(o)) if (p.containerPort !== undefined) seen.add(String(p.containerPort));
  return [...seen];
}

/** multiprotocolsforobject.go: port -> protocols (TCP when unset). */
function protocolsFor(o: Exposable): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const p of podPorts(o)) {
    if (p.containerPort === undefined) continue;
    const key = String(p.containerPort);
    const proto = p.protocol ?? 'TCP';
    const list = m.get(key) ?? [];
    if (!list.includes(proto)) list.push(proto);
    m.set(key, list);
  }
  return m;
}

/** expose.go parseLabels */
function parseLabels(spec: string): Record<string, string> | Error {
  if (!spec) return new Error('no label spec passed');
  const labels: Record<string, string> = {};
  for (const part of spec.split(',')) {
    const kv = part.split('=');
    if (kv.length !== 2) return new Error(`unexpected label spec: ${part}`);
    if (!kv[0]) return new Error('unexpected empty label key');
    labels[kv[0]] = kv[1] as string;
  }
  return labels;
}

function intOrString(s: string): number | string {
  return /^-?\d+$/.test(s) ? Number(s) : s;
}

export function runExpose(env: KubectlEnv): Out {
  const out = new Out();
  const mode = dryRunMode(env);
  if (mode === 'invalid')
    return out.fail(
      `Invalid dry-run value (${flag(env.args, 'dry-run')}). Must be "none", "server", or "client".`,
    );
  const format = parseOutputFormat(flag(env.args, 'o', 'output'));
  if (typeof format === 'string') return out.fail(format);
  const visited = visitTargets(env, out, env.args.positional, resolveResource, {
    allowSelector: false,
  });
  if (!visited) return out;
  for (const v of visited) {
    if (!v.obj) continue;
    const err = exposeOne(env, out, v.obj as Exposable, mode, format);
    if (err) return out.fail(err);
  }
  return out;
}

function exposeOne(
  env: KubectlEnv,
  out: Out,
  obj: Exposable,
  mode: ReturnType<typeof dryRunMode>,
  format: Exclude<ReturnType<typeof parseOutputFormat>, string>,
): string | undefined {
  const kind = obj.kind ?? '';
  const group = (obj as { apiVersion?: string }).apiVersion?.includes('/')
    ? String((obj as { apiVersion?: string }).apiVersion).split('/')[0]
    : '';
  if (!(kind in EXPOSABLE) || EXPOSABLE[kind] !== group)
    return `cannot expose a ${groupKind(kind, group ?? '')}`;
  let selector = flag(env.args, 'selector') ?? '';
  if (!selector) {
    const s = selectorFor(obj);
    if (s instanceof Error)
      return `couldn't retrieve selectors via --selector flag or introspection: ${s.message}`;
    selector = s;
  }
  const clusterIP = flag(env.args, 'cluster-ip') ?? '';
  let port = flag(env.args, 'port') ?? '';
  let ports = '';
  if (!port) {
    const found = portsFor(obj);
    if (found.length === 0 && clusterIP !== 'None')
      return "couldn't find port via --port flag or introspection";
    if (found.length === 1) port = found[0] as string;
    else ports = found.join(',');
  }
  const protoMap = protocolsFor(obj);
  const labelSpec = flag(env.args, 'labels', 'l') ?? makeLabels(obj.metadata?.labels ?? {});

  const sel = parseLabels(selector);
  if (sel instanceof Error) return sel.message;
  let labels: Record<string, string> | undefined;
  if (labelSpec) {
    const l = parseLabels(labelSpec);
    if (l instanceof Error) return l.message;
    labels = l;
  }
  const name = flag(env.args, 'name') || (obj.metadata?.name ?? '').slice(0, 63);
  const userProtocol = flag(env.args, 'protocol') ?? '';
  const portList = (ports || port).split(',').filter((p) => p !== '');
  const svcPorts: Record<string, unknown>[] = [];
  for (const [i, p] of portList.entries()) {
    if (!/^[+-]?\d+$/.test(p)) return `strconv.Atoi: parsing ${JSON.stringify(p)}: invalid syntax`;
    const portName = portList.length > 1 ? `port-${i + 1}` : '';
    let protocol = userProtocol;
    const protos = protoMap.get(p);
    if (!protocol) {
      protocol = 'TCP';
      if (protos && protos.length > 1) {
        for (const pr of protos)
          svcPorts.push({
            name: `port-${i + 1}-${pr.toLowerCase()}`,
            port: Number(p),
            protocol: pr,
          });
        continue;
      }
      if (protos?.length === 1) protocol = protos[0] as string;
    }
    svcPorts.push({ ...(portName ? { name: portName } : {}), port: Number(p), protocol });
  }
  const targetPort = flag(env.args, 'target-port');
  for (const sp of svcPorts) sp.targetPort = targetPort ? intOrString(targetPort) : sp.port;
  const spec: Record<string, unknown> = { ports: svcPorts, selector: sel };
  const externalIP = flag(env.args, 'external-ip');
  if (externalIP) spec.externalIPs = [externalIP];
  const type = flag(env.args, 'type');
  if (type) spec.type = type;
  if (type === 'LoadBalancer' && flag(env.args, 'load-balancer-ip'))
    spec.loadBalancerIP = flag(env.args, 'load-balancer-ip');
  const affinity = flag(env.args, 'session-affinity');
  if (affinity) {
    if (affinity !== 'None' && affinity !== 'ClientIP')
      return `unknown session affinity: ${affinity}`;
    spec.sessionAffinity = affinity;
  }
  if (clusterIP) spec.clusterIP = clusterIP;
  const svc = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      creationTimestamp: null,
      ...(labels ? { labels } : {}),
      name,
      ...(mode === 'client' && env.namespaceExplicit ? { namespace: env.namespace } : {}),
    },
    spec,
    status: { loadBalancer: {} },
  };
  let result = svc as unknown as KubeObject | undefined;
  if (mode !== 'client') {
    const { creationTimestamp: _drop, ...meta } = svc.metadata;
    void _drop;
    const res = env.client.request({
      verb: 'create',
      resource: 'services',
      namespace: env.namespace,
      body: { ...svc, metadata: meta },
      query: { fieldManager: 'kubectl-expose', ...(mode === 'server' ? { dryRun: true } : {}) },
    });
    if (!isOk(res)) {
      out.apiError(env, res);
      return undefined;
    }
    result = asObject(res);
  }
  if (format.kind !== 'table') {
    out.out(printObjects(format, result ? [result] : [], true)[0]);
    return undefined;
  }
  out.out(`service/${result?.metadata?.name ?? name} exposed${dryRunSuffix(mode)}\n`);
  return undefined;
}
