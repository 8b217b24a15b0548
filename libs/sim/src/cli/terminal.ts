// The learner's terminal: a bash-like shell on the control-plane node (root@control-plane, where
// kubeadm put ~/.kube/config and the etcd certificates), with kubectl, etcdctl and the node tools.
// Every input returns {stdout, stderr, exitCode}; nothing throws.

import type { Lab } from '../lab/lab-types';
import type { SimLab } from '../lab';
import { DEFAULT_START_TIME } from '../shared/time';
import type { CommandFn, CommandResult } from './shell/command-types';
import { Shell } from './shell/shell';
import type { ShellSession } from './shell/shell';
import { shellCommands } from './shell/shell-commands';
import type { FileSystem } from './shell/vfs';
import { MemoryFs, normalizePath } from './shell/vfs';
import { MapFs } from './host-fs';
import { runKubectl } from './kubectl/kubectl';
import { ADMIN_USER, defaultKubeconfig, kubeconfigYaml } from './kubectl/kubeconfig';
import { nodeCommands } from './node/node-commands';
import { runEtcdctl } from './etcdctl/etcdctl';
import { watchStaticPods } from './node/static-pods';
import type { TerminalContext } from './terminal-context';
import { restoreTerminalState, saveTerminalState } from './terminal-state';
import type { TerminalState } from './terminal-state';

export type { TerminalContext };

export interface TerminalResult extends CommandResult {
  prompt: string;
}

export interface Terminal {
  exec(line: string): TerminalResult;
  writeFile(path: string, text: string, host?: string): void;
  readFile(path: string, host?: string): string | undefined;
  prompt(): string;
  /** the node the shell is on now (changes with ssh/exit) */
  host(): string;
  /** the shell's state as JSON-safe data; `createTerminal(lab, { state })` picks it up again */
  saveState(): TerminalState;
}

export interface TerminalOptions {
  /** files to put in /root (exercise files), path relative to /root or absolute */
  files?: Record<string, string>;
  /**
   * false: commands never advance the lab's clock (sleep, rollout status, get -w and the waits of
   * delete/drain return at once). For fuzzing and for callers that drive time themselves.
   */
  letTimePass?: boolean;
  /**
   * a state saved by `saveState()` (possibly by another process, for an older lab): restored as
   * far as it fits this lab, the rest dropped (a hop to an unknown host leaves the learner on
   * the control plane)
   */
  state?: TerminalState;
}

function isSimLab(lab: Lab): lab is SimLab {
  const l = lab as Partial<SimLab>;
  return typeof l.node === 'function' && typeof l.nodes === 'function';
}

export function createTerminal(lab: Lab, opts: TerminalOptions = {}): Terminal {
  const sim = isSimLab(lab) ? lab : undefined;
  const startMs = Date.parse(sim?.options?.startTime ?? DEFAULT_START_TIME);
  const fallback = new Map<string, FileSystem>();
  const fsFor = (host: string): FileSystem | undefined => {
    const h = sim?.node(host);
    if (h) return new MapFs(h.files);
    if (sim) return undefined;
    if (host !== 'control-plane') return undefined;
    if (!fallback.has(host)) fallback.set(host, new MemoryFs());
    return fallback.get(host);
  };
  const cpName = sim?.nodes().find((n) => n.controlPlane)?.name ?? 'control-plane';
  const cpFs = fsFor(cpName) ?? new MemoryFs();
  const extraUsers = (sim?.options?.users ?? []).map((u) => ({ name: u.name, token: u.token }));
  if (cpFs.read('/root/.kube/config') === undefined)
    cpFs.write('/root/.kube/config', kubeconfigYaml(defaultKubeconfig(extraUsers)));
  cpFs.mkdir('/root');
  for (const [p, text] of Object.entries(opts.files ?? {}))
    cpFs.write(normalizePath(p, '/root', '/root'), text);

  const ctx: TerminalContext = {
    lab,
    sim,
    fsFor,
    nowWallMs: () => startMs + lab.now,
    advance: (ms) => {
      if (ms > 0 && opts.letTimePass !== false) lab.advance(ms);
    },
    proxyPort: null,
    portForwards: new Map(),
    shell: undefined as unknown as Shell,
  };
  const base = shellCommands({ nowWallMs: ctx.nowWallMs, sleep: ctx.advance });
  const kubectl: CommandFn = (c) =>
    runKubectl(c, {
      lab,
      nowWallMs: ctx.nowWallMs,
      advance: ctx.advance,
      defaultConfig: () => defaultKubeconfig(extraUsers),
      kubeconfigHost: cpName,
      recordStep: sim ? (step) => sim.emit({ ...step, component: 'kubectl' }) : undefined,
      startProxy: (port) => {
        ctx.proxyPort = port;
      },
      startPortForward: (forwards) => {
        for (const f of forwards) ctx.portForwards.set(f.localPort, f);
      },
    });
  const node = nodeCommands(ctx);
  const commands: Record<string, CommandFn> = {
    ...base,
    kubectl,
    k: kubectl,
    etcdctl: (c) => runEtcdctl(c, ctx),
    ...node,
  };
  const session: ShellSession = {
    host: cpName,
    user: 'root',
    cwd: '/root',
    home: '/root',
    fs: cpFs,
  };
  const shell = new Shell({ commands, session, env: { KUBECONFIG: '' } });
  delete shell.env.KUBECONFIG;
  ctx.shell = shell;
  if (opts.state !== undefined) {
    const restored = restoreTerminalState(shell, opts.state, fsFor);
    ctx.proxyPort = restored.proxyPort;
    for (const f of restored.portForwards) ctx.portForwards.set(f.localPort, f);
  }

  return {
    exec(line: string): TerminalResult {
      const before = sim ? watchStaticPods.snapshot(sim, cpName) : null;
      let r: TerminalResult;
      try {
        r = shell.exec(typeof line === 'string' ? line : String(line));
      } catch (e) {
        r = {
          stdout: '',
          stderr: `bash: ${e instanceof Error ? e.message : String(e)}\n`,
          exitCode: 1,
          prompt: shell.prompt(),
        };
      }
      if (sim && before) watchStaticPods.apply(sim, cpName, before);
      return r;
    },
    writeFile(path, text, host) {
      const fs = fsFor(host ?? shell.session.host) ?? cpFs;
      fs.write(normalizePath(path, '/root', '/root'), text);
    },
    readFile(path, host) {
      const fs = fsFor(host ?? shell.session.host) ?? cpFs;
      return fs.read(normalizePath(path, '/root', '/root'));
    },
    prompt: () => shell.prompt(),
    host: () => shell.session.host,
    saveState: () => saveTerminalState(shell, ctx.proxyPort, [...ctx.portForwards.values()]),
  };
}

export { ADMIN_USER };
