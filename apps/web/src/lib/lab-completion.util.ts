// Tab completion for the lab terminal: commands, kubectl verbs, resource types and, where a name
// is expected, the names the cluster map knows (pods, nodes, services, deployments).

export const SHELL_COMMANDS = [
  'kubectl',
  'etcdctl',
  'ssh',
  'exit',
  'cat',
  'ls',
  'cd',
  'echo',
  'vi',
  'nano',
  'clear',
  'sleep',
  'curl',
  'systemctl',
  'journalctl',
  'crictl',
  'iptables-save',
] as const;

export const KUBECTL_VERBS = [
  'annotate',
  'api-resources',
  'apply',
  'auth',
  'cluster-info',
  'config',
  'cordon',
  'create',
  'delete',
  'describe',
  'drain',
  'edit',
  'exec',
  'explain',
  'expose',
  'get',
  'label',
  'logs',
  'patch',
  'rollout',
  'run',
  'scale',
  'set',
  'taint',
  'top',
  'uncordon',
  'version',
  'wait',
] as const;

export const KUBECTL_RESOURCES = [
  'componentstatuses',
  'configmaps',
  'daemonsets',
  'deployments',
  'endpoints',
  'endpointslices',
  'events',
  'jobs',
  'leases',
  'namespaces',
  'nodes',
  'pods',
  'replicasets',
  'secrets',
  'serviceaccounts',
  'services',
  'statefulsets',
] as const;

/** Verbs whose next word is a resource type. */
const VERBS_WITH_RESOURCE = new Set([
  'get',
  'describe',
  'delete',
  'edit',
  'explain',
  'label',
  'annotate',
  'patch',
  'scale',
  'expose',
  'wait',
]);

const ALIASES: Record<string, string> = {
  po: 'pods',
  pod: 'pods',
  no: 'nodes',
  node: 'nodes',
  svc: 'services',
  service: 'services',
  deploy: 'deployments',
  deployment: 'deployments',
  ep: 'endpoints',
  rs: 'replicasets',
  replicaset: 'replicasets',
};

export type TNameSource = Partial<Record<string, readonly string[]>>;

export type TCompletion = {
  /** the line with the completed word (unchanged when nothing or several things match) */
  line: string;
  cursor: number;
  /** shown under the prompt when several things match */
  candidates: string[];
};

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0] ?? '';
  for (const word of words) while (!word.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

function optionsFor(words: readonly string[], names: TNameSource): readonly string[] {
  const [command, verb, resource] = words;
  if (words.length === 0) return SHELL_COMMANDS;
  if (command === 'ssh' && words.length === 1) return names.nodes ?? [];
  if (command !== 'kubectl' && command !== 'k') return [];
  const args = words.slice(1).filter((w) => !w.startsWith('-'));
  if (args.length === 0) return KUBECTL_VERBS;
  if (verb === 'rollout' && args.length === 1) return ['history', 'restart', 'status', 'undo'];
  if (!VERBS_WITH_RESOURCE.has(args[0] ?? '')) {
    if (['cordon', 'uncordon', 'drain', 'taint'].includes(args[0] ?? '') && args.length === 1)
      return names.nodes ?? [];
    if (['logs', 'exec'].includes(args[0] ?? '') && args.length === 1) return names.pods ?? [];
    return [];
  }
  if (args.length === 1) return KUBECTL_RESOURCES;
  if (args.length === 2) {
    const type = args[1] ?? resource ?? '';
    return names[ALIASES[type] ?? type] ?? [];
  }
  return [];
}

/** Completes the word before the cursor, bash-style: unique match + space, else common prefix. */
export function completeLine(line: string, cursor: number, names: TNameSource = {}): TCompletion {
  const before = line.slice(0, cursor);
  const after = line.slice(cursor);
  const match = /(\S*)$/.exec(before);
  const partial = match?.[1] ?? '';
  const previous = before.slice(0, before.length - partial.length).trim();
  const words = previous === '' ? [] : previous.split(/\s+/);
  const options = optionsFor(words, names).filter((o) => o.startsWith(partial));
  if (options.length === 0) return { line, cursor, candidates: [] };
  if (options.length === 1) {
    const word = `${options[0]} `;
    const completed = before.slice(0, before.length - partial.length) + word;
    return { line: completed + after.replace(/^ /, ''), cursor: completed.length, candidates: [] };
  }
  const prefix = commonPrefix(options);
  const completed = before.slice(0, before.length - partial.length) + prefix;
  return {
    line: completed + after,
    cursor: completed.length,
    candidates: prefix.length > partial.length ? [] : [...options],
  };
}
