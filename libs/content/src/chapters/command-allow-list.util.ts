// The commands a chapter may ask the learner to click: only what the lab's simulated shell
// implements (libs/sim cli). A typo or an unsupported verb fails a test instead of greeting the
// learner with "command not found".

const KUBECTL_VERBS = new Set([
  'apply',
  'get',
  'describe',
  'delete',
  'scale',
  'set',
  'patch',
  'label',
  'rollout',
  'auth',
  'proxy',
  'create',
]);
const ETCDCTL_VERBS: Record<string, Set<string> | null> = {
  get: null,
  member: new Set(['list']),
  endpoint: new Set(['health', 'status']),
  snapshot: new Set(['save', 'status', 'restore']),
};
const SYSTEMCTL_VERBS = new Set(['stop', 'start', 'restart', 'status', 'is-active']);
const UNITS = new Set(['kubelet', 'kube-proxy', 'containerd']);
const HOSTS = new Set(['node-1', 'node-2', 'node-3', 'control-plane']);

/** Shell words, honouring single and double quotes (enough for the chapters' one-liners). */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const match of line.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

const positional = (words: string[]) => words.filter((w) => !w.startsWith('-'));

/** Why a command line is not runnable in the lab, or null when it is. */
export function checkCommand(line: string): string | null {
  if (/[|;<>`$]|&&/.test(line.replace(/'[^']*'/g, '')))
    return 'pipes, redirects and chains are not clickable';
  const words = splitWords(line.replace(/\s&$/, ''));
  const [tool, ...rest] = words;
  const args = positional(rest);
  switch (tool) {
    case 'kubectl':
      return KUBECTL_VERBS.has(args[0] ?? '') ? null : `kubectl verb "${args[0]}" is not supported`;
    case 'etcdctl': {
      const subs = ETCDCTL_VERBS[args[0] ?? ''];
      if (subs === undefined) return `etcdctl command "${args[0]}" is not supported`;
      if (subs && !subs.has(args[1] ?? '')) return `etcdctl ${args[0]} ${args[1]} is not supported`;
      return null;
    }
    case 'systemctl':
      if (!SYSTEMCTL_VERBS.has(args[0] ?? '')) return `systemctl ${args[0]} is not supported`;
      return UNITS.has(args[1] ?? '') ? null : `unit "${args[1]}" does not exist in the lab`;
    case 'journalctl':
      return rest[0] === '-u' && UNITS.has(rest[1] ?? '') ? null : 'journalctl needs -u <unit>';
    case 'ssh':
      return args.length === 1 && HOSTS.has(args[0] ?? '') ? null : `unknown host "${args[0]}"`;
    case 'crictl':
      return ['ps', 'pods', 'images'].includes(args[0] ?? '') ? null : 'crictl ps|pods|images';
    case 'curl':
      return /^https?:\/\/localhost:\d+\//.test(args[0] ?? '')
        ? null
        : 'curl goes to kubectl proxy';
    case 'iptables-save':
    case 'exit':
      return args.length === 0 ? null : `${tool} takes no arguments here`;
    case 'cat':
    case 'mv':
      return args.length >= 1 ? null : `${tool} needs a path`;
    default:
      return `"${tool}" is not a command the lab supports`;
  }
}
