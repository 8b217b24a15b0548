// kubectl's flag parsing (cobra/pflag rules): `--flag=value`, `--flag value`, `-n ns`, `-nns`,
// `-oyaml`, combined booleans, `--` ends flags. Unknown flags fail the way cobra reports them.

/** Flags that take a value, across all verbs (pflag knows each verb's set; the union is enough). */
const VALUE_FLAGS = new Set([
  'n',
  'namespace',
  'o',
  'output',
  'l',
  'selector',
  'f',
  'filename',
  'field-selector',
  'v',
  'c',
  'container',
  'tail',
  'type',
  'p',
  'patch',
  'replicas',
  'image',
  'as',
  'as-group',
  'grace-period',
  'port',
  'since',
  'revision',
  'to-revision',
  'dry-run',
  'timeout',
  'for',
  'kubeconfig',
  'context',
  'cluster',
  'user',
  'from-literal',
  'from-file',
  'verb',
  'resource',
  'role',
  'clusterrole',
  'serviceaccount',
  'group',
  'schedule',
  'tcp',
  'sort-by',
  'template',
  'field-manager',
  'subresource',
  'k',
  'kustomize',
  'resource-name',
  'current-replicas',
  'address',
  'api-version',
  'namespaced',
  'chunk-size',
  'request-timeout',
  'server',
  's',
  'token',
  'from-env-file',
  'cascade',
  'max-unavailable',
  'pod-selector',
  'env',
  'restart',
  'labels',
  'limits',
  'requests',
  'overrides',
  'protocol',
  'target-port',
  'name',
  'external-ip',
  'cluster-ip',
  'node-port',
  'clusterip',
  'output-watch-events',
  'raw',
  'accept-paths',
  'reject-paths',
  'www',
  'api-prefix',
  'since-time',
  'limit-bytes',
  'max-log-requests',
  'completions',
  'parallelism',
  'rule',
  'class',
  'hostport',
  'save-config',
  'validate',
  'force-conflicts',
  'record',
  'allow-missing-template-keys',
  'show-managed-fields',
  'path',
  'session-affinity',
  'load-balancer-ip',
  'containers',
  'keys',
  'from',
  'prefix',
  'pod-running-timeout',
  'go-template',
]);

/** Flags that are boolean even though they share a letter with a value flag on other verbs. */
const BOOL_BY_VERB: Record<string, string[]> = {
  logs: ['f', 'follow', 'p', 'previous'],
  exec: ['i', 't', 'it', 'ti', 'stdin', 'tty'],
  run: ['i', 't', 'it', 'rm', 'stdin', 'tty', 'command'],
};

/** Boolean flags that may be written `--flag=false`; everything else with `=` is a value. */
export interface ParsedArgs {
  positional: string[];
  flags: Map<string, string[]>;
  /** everything after `--` (kubectl exec POD -- cmd args) */
  dashArgs: string[] | null;
}

export class FlagError extends Error {}

export function parseKubeArgs(args: string[], verb?: string): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positional: string[] = [];
  let dashArgs: string[] | null = null;
  const bools = new Set(BOOL_BY_VERB[verb ?? ''] ?? []);
  const add = (k: string, v: string) => {
    const list = flags.get(k) ?? [];
    list.push(v);
    flags.set(k, list);
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      dashArgs = args.slice(i + 1);
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (eq >= 0) add(name, a.slice(eq + 1));
      else if (VALUE_FLAGS.has(name) && !bools.has(name)) {
        const v = args[i + 1];
        if (v === undefined) throw new FlagError(`flag needs an argument: --${name}`);
        add(name, v);
        i++;
      } else add(name, 'true');
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && !/^-\d/.test(a)) {
      const body = a.slice(1);
      if (bools.has(body)) {
        add(body, 'true');
        continue;
      }
      for (let j = 0; j < body.length; j++) {
        const f = body[j] as string;
        if (VALUE_FLAGS.has(f) && !bools.has(f)) {
          let v = body.slice(j + 1);
          if (v.startsWith('=')) v = v.slice(1);
          if (v === '') {
            const next = args[i + 1];
            if (next === undefined) throw new FlagError(`flag needs an argument: '${f}' in -${f}`);
            v = next;
            i++;
          }
          add(f, v);
          break;
        }
        add(f, 'true');
      }
      continue;
    }
    positional.push(a);
  }
  return { positional, flags, dashArgs };
}

export function flag(p: ParsedArgs, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = p.flags.get(n);
    if (v && v.length) return v[v.length - 1];
  }
  return undefined;
}

export function flagAll(p: ParsedArgs, ...names: string[]): string[] {
  return names.flatMap((n) => p.flags.get(n) ?? []);
}

export function boolFlag(p: ParsedArgs, ...names: string[]): boolean {
  const v = flag(p, ...names);
  return v !== undefined && v !== 'false';
}
