// What runs inside a simulated container. The image decides the behaviour (see node/README.md):
// web servers log their startup lines and answer HTTP; busybox/alpine run their command through a
// tiny shell (echo, sleep, exit, touch, rm, while true); `*/crashloop*` images die shortly after
// start. Env vars let exercises make an app fail its probes or start slowly.

import { normalizeImage } from './image-registry';

export type Step =
  | { op: 'log'; line: string; stream?: 'stdout' | 'stderr' }
  | { op: 'sleep'; ms: number }
  | { op: 'touch'; path: string }
  | { op: 'rm'; path: string }
  | { op: 'exit'; code: number }
  /** long-running server: never ends by itself */
  | { op: 'serve' };

export interface AppProgram {
  steps: Step[];
  /** index the program jumps back to when it reaches the end (`while true`) */
  loopFrom?: number;
  /** exit status when the program runs off its end */
  lastStatus: number;
}

export interface HttpBehaviour {
  ports: number[];
  /** paths that answer 200; anything else is a 404 */
  paths: string[];
  /** ms after start before the port accepts connections */
  listenAfterMs: number;
  /** answers readiness probes with 503 (env FAIL_READINESS=true) */
  failReadiness: boolean;
  /** answers liveness probes with 500 once it has run this long (env FAIL_LIVENESS_AFTER=<s>) */
  failLivenessAfterMs?: number;
  /** the response body of GET / */
  body: string;
  /** name for the Server header / access log style */
  server: 'nginx' | 'httpd' | 'generic';
  version: string;
}

export interface AppModel {
  kind: 'http-server' | 'command';
  program: AppProgram;
  http?: HttpBehaviour;
  /** kind of signal handling on stop: nginx exits 0 on SIGQUIT, a shell ignoring SIGTERM is killed (137) */
  stopExitCode: number;
}

export interface AppInput {
  image: string;
  command?: string[];
  args?: string[];
  env?: Record<string, string>;
  ports?: number[];
}

const NGINX_BODY =
  '<!DOCTYPE html>\n<html>\n<head>\n<title>Welcome to nginx!</title>\n</head>\n<body>\n<h1>Welcome to nginx!</h1>\n' +
  '<p>If you see this page, the nginx web server is successfully installed and\nworking. Further configuration is required.</p>\n' +
  '<p><em>Thank you for using nginx.</em></p>\n</body>\n</html>\n';

export function nginxStartupLines(version: string): Step[] {
  const entry = [
    '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
    '/docker-entrypoint.sh: Looking for shell scripts in /docker-entrypoint.d/',
    '/docker-entrypoint.sh: Launching /docker-entrypoint.d/10-listen-on-ipv6-by-default.sh',
    '10-listen-on-ipv6-by-default.sh: info: Getting the checksum of /etc/nginx/conf.d/default.conf',
    '10-listen-on-ipv6-by-default.sh: info: Enabled listen on IPv6 in /etc/nginx/conf.d/default.conf',
    '/docker-entrypoint.sh: Sourcing /docker-entrypoint.d/15-local-resolvers.envsh',
    '/docker-entrypoint.sh: Launching /docker-entrypoint.d/20-envsubst-on-templates.sh',
    '/docker-entrypoint.sh: Launching /docker-entrypoint.d/30-tune-worker-processes.sh',
    '/docker-entrypoint.sh: Configuration complete; ready for start up',
  ];
  const notices = [
    'using the "epoll" event method',
    `nginx/${version}`,
    'built by gcc 12.2.0 (Debian 12.2.0-14) ',
    'OS: Linux 6.1.0-28-amd64',
    'getrlimit(RLIMIT_NOFILE): 1048576:1048576',
    'start worker processes',
    'start worker process 29',
    'start worker process 30',
  ];
  // `%NGINX_TIME%` is replaced by the wall-clock time when the line is written.
  return [
    ...entry.map((line) => ({ op: 'log' as const, line })),
    ...notices.map((n) => ({
      op: 'log' as const,
      line: `%NGINX_TIME% [notice] 1#1: ${n}`,
      stream: 'stderr' as const,
    })),
  ];
}

/**
 * An nginx container's program: its startup lines, then serving. The same for every container of
 * a version (thousands of them on a busy cluster), so made once and frozen: programs are only read.
 */
function nginxProgramSteps(version: string): Step[] {
  let steps = nginxPrograms.get(version);
  if (steps === undefined) {
    steps = [...nginxStartupLines(version), { op: 'serve' }];
    for (const step of steps) Object.freeze(step);
    Object.freeze(steps);
    nginxPrograms.set(version, steps);
  }
  return steps;
}

/** nginxProgramSteps by version (a version is a tag of the catalog's: a handful at most). */
const nginxPrograms = new Map<string, Step[]>();

function httpdStartupLines(): Step[] {
  const fqdn =
    "AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using %POD_IP%. Set the 'ServerName' directive globally to suppress this message";
  return [
    { op: 'log', line: fqdn, stream: 'stderr' },
    { op: 'log', line: fqdn, stream: 'stderr' },
    {
      op: 'log',
      line: '[%HTTPD_TIME%] [mpm_event:notice] [pid 1:tid 1] AH00489: Apache/2.4.62 (Unix) configured -- resuming normal operations',
      stream: 'stderr',
    },
    {
      op: 'log',
      line: "[%HTTPD_TIME%] [core:notice] [pid 1:tid 1] AH00094: Command line: 'httpd -D FOREGROUND'",
      stream: 'stderr',
    },
  ];
}

function envNumber(env: Record<string, string>, ...names: string[]): number | undefined {
  for (const n of names) {
    const v = env[n];
    if (v !== undefined && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  }
  return undefined;
}

function repoName(image: string): { repo: string; tag: string } {
  const r = normalizeImage(image);
  return { repo: r.repository, tag: r.tag };
}

/** Decides what a container does, from its image, command, args and env. */
export function modelApp(input: AppInput): AppModel {
  const env = input.env ?? {};
  const { repo, tag } = repoName(input.image);
  const base = repo.split('/').pop() as string;
  const listenAfterMs =
    (envNumber(env, 'STARTUP_DELAY_SECONDS', 'START_DELAY', 'STARTUP_DELAY') ?? 0) * 1000;
  const failReadiness = /^(1|true|yes)$/i.test(env['FAIL_READINESS'] ?? '');
  const failLivenessAfter = envNumber(env, 'FAIL_LIVENESS_AFTER');
  const http = (
    server: HttpBehaviour['server'],
    version: string,
    ports: number[],
    paths: string[],
    body: string,
  ): HttpBehaviour => ({
    ports,
    paths,
    listenAfterMs,
    failReadiness,
    failLivenessAfterMs: failLivenessAfter === undefined ? undefined : failLivenessAfter * 1000,
    body,
    server,
    version,
  });

  // An explicit command replaces the image's entrypoint: run it through the shell model.
  const argv = [...(input.command ?? []), ...(input.args ?? [])];
  if (/crashloop/.test(repo)) {
    return {
      kind: 'command',
      program: {
        steps: [
          { op: 'log', line: 'starting application...' },
          { op: 'sleep', ms: 2000 },
          {
            op: 'log',
            line: 'panic: cannot connect to database: dial tcp 10.96.200.10:5432: connect: connection refused',
            stream: 'stderr',
          },
          { op: 'exit', code: 1 },
        ],
        lastStatus: 1,
      },
      stopExitCode: 137,
    };
  }
  const shellImage = SHELL_IMAGES.has(base);
  if (
    input.command &&
    input.command.length > 0 &&
    (shellImage || isShellCommand(input.command[0] as string))
  ) {
    return { kind: 'command', program: parseCommand(argv), stopExitCode: 137 };
  }
  // Any other command on a server image (`kube-apiserver --flags`, `nginx -g 'daemon off;'`) starts
  // the image's own server with those flags.
  if (base === 'nginx') {
    const version = /^\d+\.\d+\.\d+$/.test(tag) ? tag : '1.27.3';
    return {
      kind: 'http-server',
      program: { steps: nginxProgramSteps(version), lastStatus: 0 },
      http: http('nginx', version, [80], ['/', '/index.html'], NGINX_BODY),
      stopExitCode: 0,
    };
  }
  if (base === 'httpd') {
    return {
      kind: 'http-server',
      program: { steps: [...httpdStartupLines(), { op: 'serve' }], lastStatus: 0 },
      http: http(
        'httpd',
        '2.4.62',
        [80],
        ['/', '/index.html'],
        '<html><body><h1>It works!</h1></body></html>\n',
      ),
      stopExitCode: 0,
    };
  }
  if (shellImage) {
    // No command: the image's default `sh` has no terminal and exits at once (exit 0).
    return {
      kind: 'command',
      program: argv.length ? parseCommand(argv) : { steps: [], lastStatus: 0 },
      stopExitCode: 137,
    };
  }
  if (base === 'pause') {
    return {
      kind: 'command',
      program: { steps: [{ op: 'serve' }], lastStatus: 0 },
      stopExitCode: 0,
    };
  }
  // Everything else (registry.k8s.io images, redis, exercise images): a server on its declared ports.
  // A known image listens where it always does (CoreDNS's health and ready ports 8080/8181 are
  // not declared in its pod spec), plus whatever the spec declares.
  const known = WELL_KNOWN_PORTS[base];
  const declared = input.ports && input.ports.length ? input.ports : undefined;
  const ports = known ? [...new Set([...(declared ?? []), ...known])] : (declared ?? [8080]);
  return {
    kind: 'http-server',
    program: {
      steps: [{ op: 'log', line: `Listening on port ${ports.join(', ')}` }, { op: 'serve' }],
      lastStatus: 0,
    },
    http: http(
      'generic',
      tag,
      ports,
      ['/', '/healthz', '/readyz', '/livez', '/health', '/ready'],
      `${base} ${tag}\n`,
    ),
    stopExitCode: 0,
  };
}

const SHELL_IMAGES = new Set(['busybox', 'alpine', 'ubuntu', 'curl', 'debian', 'python']);
const SHELL_COMMANDS = new Set([
  'sh',
  'bash',
  'ash',
  'sleep',
  'echo',
  'true',
  'false',
  'exit',
  'cat',
  'tail',
  'touch',
  'date',
]);

function isShellCommand(cmd: string): boolean {
  return SHELL_COMMANDS.has(cmd.split('/').pop() as string);
}

/** Ports the control-plane and add-on images listen on without declaring them (hostNetwork pods). */
const WELL_KNOWN_PORTS: Record<string, number[]> = {
  'kube-apiserver': [6443],
  etcd: [2379, 2380, 2381],
  'kube-controller-manager': [10257],
  'kube-scheduler': [10259],
  'kube-proxy': [10249, 10256],
  coredns: [53, 8080, 8181, 9153],
  redis: [6379],
  postgres: [5432],
};

// ---- a very small shell ----

/** `["sh","-c","echo hi; sleep 5; exit 3"]` or `["sleep","3600"]` -> a program. */
export function parseCommand(argv: string[]): AppProgram {
  if (argv.length === 0) return { steps: [], lastStatus: 0 };
  const [cmd, ...rest] = argv as [string, ...string[]];
  const shell = /(^|\/)(ba)?sh$/.test(cmd);
  if (shell) {
    const cIdx = rest.indexOf('-c');
    const script = cIdx >= 0 ? rest.slice(cIdx + 1).join(' ') : '';
    return parseScript(script);
  }
  return parseScript(argv.map(shellQuote).join(' '));
}

function shellQuote(a: string): string {
  return /[\s;&|]/.test(a) ? `'${a.replace(/'/g, "'\\''")}'` : a;
}

export function parseScript(script: string): AppProgram {
  const steps: Step[] = [];
  let loopFrom: number | undefined;
  let status = 0;
  const loop = script.match(/^(.*?)\bwhile\s+(true|:)\s*;\s*do\s+(.*?);?\s*done\s*;?\s*(.*)$/s);
  const [before, body] = loop ? [loop[1] as string, loop[3] as string] : [script, undefined];
  status = appendCommands(before, steps, status);
  if (body !== undefined) {
    loopFrom = steps.length;
    status = appendCommands(body, steps, status);
    // A loop with no sleep would spin; model it as an idle server so time still advances.
    if (!steps.slice(loopFrom).some((s) => s.op === 'sleep')) steps.push({ op: 'serve' });
  }
  return { steps, loopFrom, lastStatus: status };
}

function splitCommands(script: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q: string | null = null;
  for (let i = 0; i < script.length; i++) {
    const ch = script[i] as string;
    if (q) {
      if (ch === q) q = null;
      cur += ch;
    } else if (ch === "'" || ch === '"') {
      q = ch;
      cur += ch;
    } else if (ch === ';' || ch === '\n' || (ch === '&' && script[i + 1] === '&')) {
      if (ch === '&') i++;
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

function words(cmd: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(cmd)))
    out.push(m[1] ?? (m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] as string)));
  return out;
}

function appendCommands(script: string, steps: Step[], status: number): number {
  for (const cmd of splitCommands(script)) {
    const [name, ...args] = words(cmd);
    switch (name) {
      case 'echo':
        steps.push({ op: 'log', line: args.filter((a) => a !== '-n' && a !== '-e').join(' ') });
        status = 0;
        break;
      case 'sleep': {
        const a = args[0] ?? '0';
        const n =
          a === 'infinity'
            ? Infinity
            : parseFloat(a) * (a.endsWith('m') ? 60 : a.endsWith('h') ? 3600 : 1);
        if (n === Infinity) steps.push({ op: 'serve' });
        else steps.push({ op: 'sleep', ms: Math.round((Number.isFinite(n) ? n : 0) * 1000) });
        status = 0;
        break;
      }
      case 'exit':
        steps.push({ op: 'exit', code: Number(args[0] ?? status) || 0 });
        return status;
      case 'touch':
        for (const p of args) steps.push({ op: 'touch', path: p });
        status = 0;
        break;
      case 'rm':
        for (const p of args.filter((a) => !a.startsWith('-'))) steps.push({ op: 'rm', path: p });
        status = 0;
        break;
      case 'true':
      case ':':
        status = 0;
        break;
      case 'false':
        status = 1;
        break;
      case 'date':
        steps.push({ op: 'log', line: '%DATE%' });
        status = 0;
        break;
      case 'tail':
        if (args.includes('-f')) steps.push({ op: 'serve' });
        status = 0;
        break;
      default:
        steps.push({ op: 'log', line: `sh: ${name}: not found`, stream: 'stderr' });
        status = 127;
    }
  }
  return status;
}
