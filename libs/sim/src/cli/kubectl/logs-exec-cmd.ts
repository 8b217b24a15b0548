// kubectl logs (pods/log through the apiserver, which asks the node's kubelet) and kubectl exec
// (a few commands inside a simulated container: env, cat, hostname, wget/curl to a Service).

import type { KubeObject } from '../../model';
import type { SimLab } from '../../lab';
import { httpConnect } from '../../node';
import { boolFlag, flag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, isOk, listItems, Out } from './kubectl-env';
import { resolveResource } from './kube-resources';

type PodLike = KubeObject & {
  spec?: {
    nodeName?: string;
    containers?: { name: string; image: string; env?: { name: string; value?: string }[] }[];
    initContainers?: { name: string }[];
  };
  status?: { podIP?: string; phase?: string };
};

/**
 * Resolves `POD`, `pod/POD` or `deployment/NAME` (first matching pod, like kubectl). Only logs
 * says which pod it picked (logsforobject.go); exec's AttachablePodForObject stays quiet.
 */
function resolvePod(env: KubectlEnv, out: Out, arg: string, sayWhich = false): PodLike | undefined {
  let [type, name] = arg.includes('/') ? (arg.split('/', 2) as [string, string]) : ['pods', arg];
  const info = resolveResource(type);
  if (!info) {
    out.fail(`the server doesn't have a resource type "${type}"`);
    return undefined;
  }
  if (info.resource !== 'pods') {
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
    const owner = asObject(res) as KubeObject & {
      spec?: { selector?: { matchLabels?: Record<string, string> } };
    };
    const sel = Object.entries(owner.spec?.selector?.matchLabels ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const pods = listItems(
      env.client.request({
        verb: 'list',
        resource: 'pods',
        namespace: env.namespace,
        query: { labelSelector: sel },
      }),
    )
      .filter((p) => !p.metadata?.deletionTimestamp)
      .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
    if (pods.length === 0) {
      out.fail(`timed out waiting for the condition`);
      return undefined;
    }
    if (pods.length > 1 && sayWhich)
      out.err(`Found ${pods.length} pods, using pod/${pods[0]?.metadata?.name}\n`, 0);
    name = pods[0]?.metadata?.name as string;
    type = 'pods';
  }
  const res = env.client.request({ verb: 'get', resource: 'pods', namespace: env.namespace, name });
  if (!isOk(res)) {
    out.apiError(env, res);
    return undefined;
  }
  return asObject(res) as PodLike;
}

/** podcmd.FindOrDefaultContainerByName: init containers can be named too (logs of an init step). */
function pickContainer(out: Out, pod: PodLike, requested: string | undefined): string | undefined {
  const names = (pod.spec?.containers ?? []).map((c) => c.name);
  const initNames = (pod.spec?.initContainers ?? []).map((c) => c.name);
  if (requested) {
    if (!names.includes(requested) && !initNames.includes(requested)) {
      out.err(`error: container ${requested} is not valid for pod ${pod.metadata?.name}\n`);
      return undefined;
    }
    return requested;
  }
  const annotated = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
  if ((names.length > 1 || initNames.length > 0) && !annotated) {
    // AllContainerNames: app containers, then the init containers marked "(init)"
    const all = [...names, ...initNames.map((n) => `${n} (init)`)].join(', ');
    out.err(`Defaulted container "${names[0]}" out of: ${all}\n`, 0);
  }
  return annotated ?? names[0];
}

export function runLogs(env: KubectlEnv): Out {
  const out = new Out();
  const arg = env.args.positional[0];
  if (!arg)
    return out.fail(
      "expected POD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples",
    );
  const pod = resolvePod(env, out, arg, true);
  if (!pod) return out;
  const container = pickContainer(
    out,
    pod,
    flag(env.args, 'c', 'container') ?? env.args.positional[1],
  );
  if (!container) return out;
  const tail = flag(env.args, 'tail');
  const tailLines = tail !== undefined && Number(tail) >= 0 ? Number(tail) : undefined;
  const fetch = () =>
    env.client.request({
      verb: 'get',
      resource: 'pods',
      namespace: env.namespace,
      name: pod.metadata?.name,
      subresource: 'log',
      query: {
        container,
        ...(boolFlag(env.args, 'p', 'previous') ? { previous: true } : {}),
        ...(tailLines !== undefined ? { tailLines } : {}),
      },
    });
  const res = fetch();
  if (res.code < 200 || res.code >= 300) return out.apiError(env, res);
  const text = typeof res.body === 'string' ? res.body : '';
  out.out(text);
  if (boolFlag(env.args, 'f', 'follow')) {
    // -f streams until interrupted; the lab follows 5 s of simulated time
    let seen = text;
    for (let t = 0; t < 5_000; t += 1000) {
      env.advance(1000);
      const again = env.client.request({
        verb: 'get',
        resource: 'pods',
        namespace: env.namespace,
        name: pod.metadata?.name,
        subresource: 'log',
        query: { container },
      });
      const full = typeof again.body === 'string' ? again.body : '';
      if (full.length > seen.length && full.startsWith(seen)) out.out(full.slice(seen.length));
      seen = full;
    }
  }
  return out;
}

function simLab(env: KubectlEnv): SimLab | undefined {
  const lab = env.client.lab as Partial<SimLab>;
  return typeof lab.node === 'function' && typeof lab.nodes === 'function'
    ? (lab as SimLab)
    : undefined;
}

export function runExec(env: KubectlEnv): Out {
  const out = new Out();
  const [podArg, ...legacy] = env.args.positional;
  if (!podArg) return out.fail('pod, type/name or --filename must be specified');
  const argv = env.args.dashArgs;
  if (!argv || argv.length === 0) {
    if (legacy.length)
      return out.fail(
        'exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead',
      );
    return out.fail('you must specify at least one command for the container');
  }
  const pod = resolvePod(env, out, podArg);
  if (!pod) return out;
  const container = pickContainer(out, pod, flag(env.args, 'c', 'container'));
  if (!container) return out;
  const lab = simLab(env);
  const host = pod.spec?.nodeName ? lab?.node(pod.spec.nodeName) : undefined;
  const record = host?.containerd
    .listContainers({ podUid: pod.metadata?.uid })
    .find((c) => c.name === container && c.state === 'running');
  if (!lab || !host || !record) {
    return out.fail(`unable to upgrade connection: container not found ("${container}")`);
  }
  if (!host.systemd.isActive('kubelet')) {
    return out.err(
      `Error from server: error dialing backend: dial tcp ${host.internalIP}:10250: connect: connection refused\n`,
    );
  }
  const [cmd, ...args] = argv;
  const spec = pod.spec?.containers?.find((c) => c.name === container);
  switch (cmd) {
    case 'env':
    case 'printenv':
      return out.out(containerEnv(env, pod, spec?.env ?? []).join('\n') + '\n');
    case 'hostname':
      return out.out(`${pod.metadata?.name}\n`);
    case 'cat': {
      let missing = false;
      for (const f of args) {
        const text = podFile(pod, f);
        if (text !== undefined) out.out(text);
        else {
          out.err(`cat: can't open '${f}': No such file or directory\n`, 0);
          missing = true;
        }
      }
      if (missing) out.err('command terminated with exit code 1\n');
      return out;
    }
    case 'wget':
    case 'curl': {
      const url = args.find((a) => !a.startsWith('-') && a !== '-') ?? '';
      const m = /^(?:https?:\/\/)?([^/:]+)(?::(\d+))?(\/.*)?$/.exec(url);
      if (!m)
        return out.err(
          cmd === 'wget'
            ? 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\ncommand terminated with exit code 1\n'
            : 'curl: (3) URL using bad/illegal format or missing URL\ncommand terminated with exit code 3\n',
        );
      const hostName = m[1] as string;
      const port = Number(m[2] ?? 80);
      const ip = resolveServiceIp(env, hostName);
      if (!ip)
        return out.err(
          cmd === 'wget'
            ? `wget: bad address '${hostName}'\ncommand terminated with exit code 1\n`
            : `curl: (6) Could not resolve host: ${hostName}\ncommand terminated with exit code 6\n`,
        );
      const r = httpConnect(lab.nodes(), host.name, ip, port, m[3] ?? '/', lab.now, {
        sourceIp: pod.status?.podIP,
        userAgent: cmd === 'wget' ? 'Wget' : 'curl/8.5.0',
      });
      if (!r.ok) {
        if (r.error === 'timeout')
          return out.err(
            cmd === 'wget'
              ? `wget: can't connect to remote host (${ip}): Connection timed out\ncommand terminated with exit code 1\n`
              : `curl: (28) Failed to connect to ${hostName} port ${port} after 130000 ms: Connection timed out\ncommand terminated with exit code 28\n`,
          );
        return out.err(
          cmd === 'wget'
            ? `wget: can't connect to remote host (${ip}): Connection refused\ncommand terminated with exit code 1\n`
            : `curl: (7) Failed to connect to ${hostName} port ${port} after 0 ms: Couldn't connect to server\ncommand terminated with exit code 7\n`,
        );
      }
      if ((r.status ?? 200) >= 400 && cmd === 'wget')
        return out.err(
          `wget: server returned error: HTTP/1.1 ${r.status} Not Found\ncommand terminated with exit code 1\n`,
        );
      return out.out(r.body ?? '');
    }
    default: {
      const res = host.containerd.exec(record.id, argv, lab.now);
      if (res.output) out.out(`${res.output}\n`);
      if (!res.ok) {
        if (/not found|no command/.test(res.output) || res.output === '') {
          return out.err(
            `error: Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec: OCI runtime exec failed: exec failed: unable to start container process: exec: "${cmd}": executable file not found in $PATH: unknown\n`,
          );
        }
        return out.err('command terminated with exit code 1\n');
      }
      return out;
    }
  }
}

function resolveServiceIp(env: KubectlEnv, name: string): string | undefined {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return name;
  const parts = name.split('.');
  const svc = parts[0] as string;
  const ns = parts[1] && parts[1] !== 'svc' ? parts[1] : env.namespace;
  const res = env.client.lab.request(env.client.user, {
    verb: 'get',
    resource: 'services',
    namespace: ns,
    name: svc,
  }) as { code?: number; body?: { spec?: { clusterIP?: string } } };
  return res.code === 200 ? res.body?.spec?.clusterIP : undefined;
}

function containerEnv(
  env: KubectlEnv,
  pod: PodLike,
  vars: { name: string; value?: string }[],
): string[] {
  const lines = [
    'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    `HOSTNAME=${pod.metadata?.name}`,
  ];
  for (const v of vars) lines.push(`${v.name}=${v.value ?? ''}`);
  const svcs = listItems(
    env.client.lab.request(env.client.user, {
      verb: 'list',
      resource: 'services',
      namespace: pod.metadata?.namespace,
    }) as never,
  );
  for (const s of svcs) {
    const spec = s.spec as {
      clusterIP?: string;
      ports?: { port: number; protocol?: string; name?: string }[];
    };
    if (!spec?.clusterIP || spec.clusterIP === 'None') continue;
    const prefix = String(s.metadata?.name).toUpperCase().replace(/-/g, '_');
    const p = spec.ports?.[0];
    if (!p) continue;
    const proto = p.protocol ?? 'TCP';
    lines.push(
      `${prefix}_SERVICE_HOST=${spec.clusterIP}`,
      `${prefix}_SERVICE_PORT=${p.port}`,
      `${prefix}_PORT=${proto.toLowerCase()}://${spec.clusterIP}:${p.port}`,
      `${prefix}_PORT_${p.port}_${proto}=${proto.toLowerCase()}://${spec.clusterIP}:${p.port}`,
      `${prefix}_PORT_${p.port}_${proto}_PROTO=${proto.toLowerCase()}`,
      `${prefix}_PORT_${p.port}_${proto}_PORT=${p.port}`,
      `${prefix}_PORT_${p.port}_${proto}_ADDR=${spec.clusterIP}`,
    );
  }
  lines.push('HOME=/root');
  return lines;
}

export function podFile(pod: PodLike, path: string): string | undefined {
  switch (path) {
    case '/etc/hostname':
      return `${pod.metadata?.name}\n`;
    case '/etc/resolv.conf':
      return `search ${pod.metadata?.namespace}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n`;
    case '/etc/hosts':
      return `# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\nfe00::0\tip6-localnet\nfe00::0\tip6-mcastprefix\nfe00::1\tip6-allnodes\nfe00::2\tip6-allrouters\n${pod.status?.podIP ?? ''}\t${pod.metadata?.name}\n`;
    case '/var/run/secrets/kubernetes.io/serviceaccount/namespace':
      return pod.metadata?.namespace ?? 'default';
    default:
      return undefined;
  }
}
