// Verbs that hold a live stream open: port-forward, attach, cp, and top (which needs the metrics
// API). port-forward is simulated: the forward stays registered with the terminal (as `kubectl
// proxy` does), and `curl localhost:PORT` in the same shell reaches the pod. attach and cp into a
// pod need a container filesystem or an interactive stream the lab does not model, and say so.

import type { KubeObject } from '../../model';
import type { Lab } from '../../lab/lab-types';
import type { NodeHost } from '../../node';
import { httpConnect } from '../../node';
import type { CommandResult } from '../shell/command-types';
import { fail } from '../shell/command-types';
import { ADMIN_USER } from './kubeconfig';
import { flag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, isOk, listItems, Out } from './kubectl-env';
import { resolveResource } from './kube-resources';
import { podFile } from './logs-exec-cmd';

export interface PortForward {
  localPort: number;
  namespace: string;
  pod: string;
  podPort: number;
  /** started with `&`: its "Handling connection for PORT" lines land in this terminal */
  background?: boolean;
}

type Pod = KubeObject & {
  spec?: { containers?: { name: string; ports?: { name?: string; containerPort?: number }[] }[] };
  status?: { phase?: string; podIP?: string };
};
type Svc = KubeObject & {
  spec?: {
    selector?: Record<string, string>;
    ports?: { name?: string; port?: number; targetPort?: number | string }[];
  };
};

const TOP_HELP = `Display resource (CPU/memory) usage.

 The top command allows you to see the resource consumption for nodes or pods.

 This command requires Metrics Server to be correctly configured and working on the server.

Available Commands:
  node          Display resource (CPU/memory) usage of nodes
  pod           Display resource (CPU/memory) usage of pods

Usage:
  kubectl top [flags] [options]

Use "kubectl top <command> --help" for more information about a given command.
Use "kubectl options" for a list of global command-line options (applies to all commands).
`;

/**
 * cmdutil.DefaultSubCommandRun: a group command without a subcommand prints its help on stderr
 * and exits 1; with an unknown one it is a usage error.
 */
export function subcommandHelp(
  out: Out,
  group: string,
  help: string,
  arg: string | undefined,
): Out {
  if (arg !== undefined)
    return out.err(
      `error: unknown command ${JSON.stringify(arg)}\nSee 'kubectl ${group} -h' for help and examples\n`,
    );
  return out.err(help);
}

/** top_node.go / top_pod.go: discovery has no metrics.k8s.io group without metrics-server. */
export function runTop(env: KubectlEnv): Out {
  const out = new Out();
  const sub = env.args.positional[0];
  if (!sub || !['node', 'nodes', 'no', 'pod', 'pods', 'po'].includes(sub))
    return subcommandHelp(out, 'top', TOP_HELP, sub);
  const res = env.client.request({ verb: 'get', resource: 'namespaces', name: 'default' });
  if (res.code === 0 || res.code === 401) return out.apiError(env, res);
  // the lab runs no metrics-server, so discovery never lists metrics.k8s.io
  return out.fail('Metrics API not available');
}

function podsFor(env: KubectlEnv, selector: Record<string, string>): Pod[] {
  const sel = Object.entries(selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const res = env.client.request({
    verb: 'list',
    resource: 'pods',
    namespace: env.namespace,
    query: { labelSelector: sel },
  });
  // GetFirstPod sorts by ActivePods: running and ready pods first, then the newest
  return (listItems(res) as Pod[])
    .filter((p) => !p.metadata?.deletionTimestamp)
    .sort(
      (a, b) => rank(a) - rank(b) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
    );
}

function rank(p: Pod): number {
  return p.status?.phase === 'Running' ? 0 : p.status?.phase === 'Pending' ? 1 : 2;
}

interface Resolved {
  pod: Pod;
  svc?: Svc;
}

/** polymorphichelpers.AttachablePodForObject */
function resolveTarget(env: KubectlEnv, out: Out, arg: string): Resolved | undefined {
  const slash = arg.indexOf('/');
  const type = slash >= 0 ? arg.slice(0, slash) : 'pods';
  const name = slash >= 0 ? arg.slice(slash + 1) : arg;
  const info = resolveResource(type);
  if (!info) {
    out.fail(`the server doesn't have a resource type "${type}"`);
    return undefined;
  }
  const res = env.client.request({
    verb: 'get',
    resource: info.resource,
    namespace: env.namespace,
    name,
  });
  if (!isOk(res)) {
    out.apiError(env, res);
    return undefined;
  }
  const obj = asObject(res) as KubeObject;
  if (info.resource === 'pods') return { pod: obj as Pod };
  const spec = obj.spec as {
    selector?: Record<string, string> & { matchLabels?: Record<string, string> };
  };
  const selector =
    info.resource === 'services' ? (spec?.selector ?? {}) : (spec?.selector?.matchLabels ?? {});
  if (info.resource === 'services' && Object.keys(selector).length === 0) {
    out.fail(`invalid service '${name}': Service is defined without a selector`);
    return undefined;
  }
  if (
    !['services', 'deployments', 'replicasets', 'jobs', 'statefulsets', 'daemonsets'].includes(
      info.resource,
    )
  ) {
    out.fail(`cannot attach to ${obj.kind ? `*v1.${obj.kind}` : info.resource}: not implemented`);
    return undefined;
  }
  const pods = podsFor(env, selector);
  if (!pods[0]) {
    out.fail('timed out waiting for the condition');
    return undefined;
  }
  return { pod: pods[0], ...(info.resource === 'services' ? { svc: obj as Svc } : {}) };
}

/** port-forward.go translateServicePortToTargetPort / convertPodNamedPortToNumber */
function remotePort(out: Out, r: Resolved, remote: string): number | undefined {
  const podName = r.pod.metadata?.name;
  const containerPort = (nameOrNum: string | number): number | undefined => {
    if (typeof nameOrNum === 'number') return nameOrNum;
    if (/^\d+$/.test(nameOrNum)) return Number(nameOrNum);
    for (const c of r.pod.spec?.containers ?? [])
      for (const p of c.ports ?? []) if (p.name === nameOrNum) return p.containerPort;
    out.fail(`Pod '${podName}' does not have a named port '${nameOrNum}'`);
    return undefined;
  };
  if (!r.svc) return containerPort(remote);
  const numeric = /^\d+$/.test(remote);
  const sp = (r.svc.spec?.ports ?? []).find((p) =>
    numeric ? p.port === Number(remote) : p.name === remote,
  );
  if (!sp) {
    out.fail(
      numeric
        ? `Service ${r.svc.metadata?.name} does not have a service port ${remote}`
        : `Service '${r.svc.metadata?.name}' does not have a named port '${remote}'`,
    );
    return undefined;
  }
  return containerPort(sp.targetPort ?? (sp.port as number));
}

function listenPort(seed: string): number {
  let h = 0x811c9dc5;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return 32768 + (h % 28232);
}

export function runPortForward(
  env: KubectlEnv,
  start: (forwards: PortForward[]) => void,
  background = false,
): Out {
  const out = new Out();
  const [target, ...specs] = env.args.positional;
  if (!target || specs.length === 0)
    return out.err(
      "error: TYPE/NAME and list of ports are required for port-forward\nSee 'kubectl port-forward -h' for help and examples\n",
    );
  const parsed: { local: number; remote: string; raw: string }[] = [];
  for (const spec of specs) {
    const parts = spec.split(':');
    if (parts.length > 2) return out.fail(`invalid port format '${spec}'`);
    const [localRaw, remoteRaw] = parts.length === 2 ? parts : [parts[0], parts[0]];
    const remote = remoteRaw as string;
    let local: number;
    if (localRaw === '') local = listenPort(`${target}${spec}`);
    else if (/^\d+$/.test(localRaw as string) && Number(localRaw) < 65536) local = Number(localRaw);
    else
      return out.fail(
        `Error parsing local port '${localRaw}': strconv.ParseUint: parsing ${JSON.stringify(localRaw)}: ${/^\d+$/.test(localRaw as string) ? 'value out of range' : 'invalid syntax'}`,
      );
    parsed.push({ local, remote, raw: spec });
  }
  const resolved = resolveTarget(env, out, target);
  if (!resolved) return out;
  const ports: { local: number; remote: number }[] = [];
  for (const p of parsed) {
    const remote = remotePort(out, resolved, p.remote);
    if (remote === undefined) return out;
    ports.push({ local: p.local, remote });
  }
  const phase = resolved.pod.status?.phase ?? 'Unknown';
  if (phase !== 'Running')
    return out.fail(`unable to forward port because pod is not running. Current status=${phase}`);
  const addresses = (flag(env.args, 'address') ?? 'localhost').split(',');
  const podName = resolved.pod.metadata?.name ?? '';
  for (const p of ports) {
    for (const a of addresses) {
      if (a === 'localhost') {
        out.out(`Forwarding from 127.0.0.1:${p.local} -> ${p.remote}\n`);
        out.out(`Forwarding from [::1]:${p.local} -> ${p.remote}\n`);
      } else
        out.out(`Forwarding from ${a.includes(':') ? `[${a}]` : a}:${p.local} -> ${p.remote}\n`);
    }
  }
  start(
    ports.map((p) => ({
      localPort: p.local,
      namespace: env.namespace,
      pod: podName,
      podPort: p.remote,
      ...(background ? { background } : {}),
    })),
  );
  return out;
}

export function runAttach(env: KubectlEnv): Out {
  const out = new Out();
  const target = env.args.positional[0];
  if (!target)
    return out.err(
      "error: expected POD, TYPE/NAME, or TYPE NAME, (1) arguments, got 0\nSee 'kubectl attach -h' for help and examples\n",
    );
  const resolved = resolveTarget(env, out, target);
  if (!resolved) return out;
  const phase = resolved.pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed')
    return out.fail(`cannot attach a container in a completed pod; current phase is ${phase}`);
  return out.fail(
    `this lab's terminal runs one command at a time and cannot hold an attached stream open; follow pod/${resolved.pod.metadata?.name}'s output with kubectl logs -f, or run a command in it with kubectl exec`,
  );
}

/** kubectl cp POD:SRC DEST (read side only: the container's files the lab knows). */
export function runCp(env: KubectlEnv): Out {
  const out = new Out();
  const [src, dest] = env.args.positional;
  if (!src || !dest || env.args.positional.length !== 2)
    return out.err(
      "error: source and destination are required\nSee 'kubectl cp -h' for help and examples\n",
    );
  const remote = (s: string) => /^[^/:]+:/.test(s) && !s.startsWith('.');
  if (remote(src) && remote(dest))
    return out.fail('one of src or dest must be a local file specification');
  if (!remote(src) && !remote(dest))
    return out.fail('one of src or dest must be a remote file specification');
  if (remote(dest))
    return out.fail(
      "copying into a container needs its filesystem, which this lab does not model; put the content in a ConfigMap and mount it, or pass it through kubectl exec's environment",
    );
  const colon = src.indexOf(':');
  const podName = src.slice(0, colon);
  const path = src.slice(colon + 1);
  const res = env.client.request({
    verb: 'get',
    resource: 'pods',
    namespace: env.namespace,
    name: podName,
  });
  if (!isOk(res)) return out.apiError(env, res);
  const pod = asObject(res) as Pod;
  const text = podFile(pod as Parameters<typeof podFile>[0], path);
  if (text === undefined)
    return out.err(
      `tar: ${path.replace(/^\//, '')}: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n`,
      0,
    );
  // tar in the container strips the leading slash and says so on stderr
  if (path.startsWith('/')) out.err("tar: Removing leading `/' from member names\n", 0);
  const target = env.resolve(dest);
  env.fs.write(env.fs.isDir(target) ? `${target}/${path.split('/').pop()}` : target, text);
  return out;
}

/**
 * `curl localhost:PORT` while a port-forward listens there: the kubelet on the pod's node opens
 * the connection inside the pod's network namespace. A pod that is gone ended the port-forward
 * (kubectl exits with "lost connection to pod"), so nothing listens any more; a pod port nothing
 * answers on gives curl an empty reply, as the real tunnel does.
 */
export function forwardedRequest(
  lab: Lab,
  nodes: readonly NodeHost[] | undefined,
  f: PortForward,
  hostName: string,
  path: string,
): CommandResult {
  const res = lab.request(ADMIN_USER, {
    verb: 'get',
    resource: 'pods',
    namespace: f.namespace,
    name: f.pod,
  }) as { code: number; body: unknown };
  const pod = res.code === 200 ? (res.body as Pod & { spec?: { nodeName?: string } }) : undefined;
  const ip = pod?.status?.podIP;
  const node = pod?.spec?.nodeName;
  if (!pod || pod.metadata?.deletionTimestamp || !ip || !node || !nodes?.length)
    return fail(
      `curl: (7) Failed to connect to ${hostName} port ${f.localPort} after 0 ms: Couldn't connect to server\n`,
      7,
    );
  const r = httpConnect(nodes, node, ip, f.podPort, path, lab.now, { userAgent: 'curl/8.5.0' });
  // a port-forward in the background writes to the terminal itself as it accepts the
  // connection: not part of curl's stdout, so pipes and redirections leave it on the screen
  const handling = f.background ? `Handling connection for ${f.localPort}\n` : '';
  if (!r.ok)
    return { stdout: '', stderr: `${handling}curl: (52) Empty reply from server\n`, exitCode: 52 };
  return { stdout: r.body ?? '', stderr: handling, exitCode: 0 };
}
