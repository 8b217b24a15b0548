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
  const port = flag(env.args, 'port');
  const cmd = env.args.dashArgs ?? [];
  const envVars = flagAll(env.args, 'env').map((e) => {
    const [k, v] = e.split('=', 2) as [string, string | undefined];
    return { name: k, value: v ?? '' };
  });
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { labels, name },
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
  let result = pod as unknown as ReturnType<typeof asObject>;
  if (mode !== 'client') {
    const res = env.client.request({
      verb: 'create',
      resource: 'pods',
      namespace: env.namespace,
      body: pod,
      query: { fieldManager: 'kubectl-run', ...(mode === 'server' ? { dryRun: true } : {}) },
    });
    if (!isOk(res)) return out.apiError(env, res);
    result = asObject(res);
  }
  if (format.kind !== 'table')
    return out.out(printObjects(format, result ? [result] : [], true)[0]);
  return out.out(`pod/${name} created${dryRunSuffix(mode)}\n`);
}
