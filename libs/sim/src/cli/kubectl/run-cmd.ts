// kubectl run NAME --image=IMAGE: one bare Pod (label run=NAME), like kubectl's pod generator.

import { boolFlag, flag, flagAll } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import { asObject, dryRunMode, dryRunSuffix, isOk, Out } from './kubectl-env';
import { parseOutputFormat, printObjects } from './kube-output';

export function runRun(env: KubectlEnv): Out {
  const out = new Out();
  const name = env.args.positional[0];
  if (!name)
    return out.fail("NAME is required for run\nSee 'kubectl run -h' for help and examples");
  const image = flag(env.args, 'image');
  if (!image) return out.fail('required flag(s) "image" not set');
  if (boolFlag(env.args, 'i', 'stdin', 't', 'tty', 'it', 'rm')) {
    return out.fail(
      'interactive sessions (-i/-t/--rm) are not available in this lab; use kubectl exec POD -- COMMAND',
    );
  }
  const mode = dryRunMode(env);
  const format = parseOutputFormat(flag(env.args, 'o', 'output'));
  if (typeof format === 'string') return out.fail(format);
  const labels: Record<string, string> = {};
  for (const l of (flag(env.args, 'labels', 'l') ?? `run=${name}`).split(',')) {
    const [k, v] = l.split('=', 2) as [string, string | undefined];
    if (k) labels[k] = v ?? '';
  }
  const restart = flag(env.args, 'restart') ?? 'Always';
  if (!['Always', 'OnFailure', 'Never'].includes(restart))
    return out.fail(`invalid restart policy: ${restart}`);
  const port = flag(env.args, 'port');
  const expose = boolFlag(env.args, 'expose');
  if (expose && !port) return out.fail('--port must be set when exposing a service');
  const cmd = env.args.dashArgs ?? [];
  const envVars = flagAll(env.args, 'env').map((e) => {
    const [k, v] = e.split('=', 2) as [string, string | undefined];
    return { name: k, value: v ?? '' };
  });
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    // v1.32's generators still leave the zero time in the object they print
    metadata: { creationTimestamp: null, labels, name },
    spec: {
      containers: [
        {
          ...(cmd.length ? (boolFlag(env.args, 'command') ? { command: cmd } : { args: cmd }) : {}),
          ...(envVars.length ? { env: envVars } : {}),
          image,
          name,
          ...(port ? { ports: [{ containerPort: Number(port) }] } : {}),
          resources: {},
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: restart,
    },
    status: {},
  };
  let text = '';
  if (expose) {
    const svc = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { creationTimestamp: null, name },
      spec: {
        ports: [{ port: Number(port), protocol: 'TCP', targetPort: Number(port) }],
        selector: labels,
      },
      status: { loadBalancer: {} },
    };
    const made = create(env, out, 'services', svc, mode);
    if (!made) return out;
    text += render(format, made, 'service', name, mode);
    if (format.kind !== 'table') text += '---\n';
  }
  const made = create(env, out, 'pods', pod, mode);
  if (!made) return out;
  text += render(format, made, 'pod', name, mode);
  return out.out(text);
}

type Made = NonNullable<ReturnType<typeof asObject>>;

function withoutNullTimestamp<T extends { metadata: object }>(o: T): T {
  const { creationTimestamp: _zero, ...meta } = o.metadata as { creationTimestamp?: null };
  void _zero;
  return { ...o, metadata: meta };
}

function create(
  env: KubectlEnv,
  out: Out,
  resource: string,
  obj: { metadata: object },
  mode: ReturnType<typeof dryRunMode>,
): Made | undefined {
  if (mode === 'client') return obj as unknown as Made;
  const res = env.client.request({
    verb: 'create',
    resource,
    namespace: env.namespace,
    body: withoutNullTimestamp(obj),
    query: { fieldManager: 'kubectl-run', ...(mode === 'server' ? { dryRun: true } : {}) },
  });
  if (!isOk(res)) {
    out.apiError(env, res);
    return undefined;
  }
  return asObject(res);
}

function render(
  format: Exclude<ReturnType<typeof parseOutputFormat>, string>,
  obj: Made,
  kind: string,
  name: string,
  mode: ReturnType<typeof dryRunMode>,
): string {
  if (format.kind !== 'table') return printObjects(format, [obj], true)[0];
  return `${kind}/${name} created${dryRunSuffix(mode)}\n`;
}
