// A terminal's shell state as plain JSON, so a caller that builds a terminal per command (the API)
// can carry it from one command to the next: the ssh hops, where each hop is (cwd), variables,
// history, `$?` and the port `kubectl proxy` listens on. Files are not in it: they live on the
// lab's nodes, and each hop gets its node's filesystem back from the host name.

import type { Shell, ShellSession } from './shell/shell';
import type { FileSystem } from './shell/vfs';
import { normalizePath } from './shell/vfs';
import type { PortForward } from './kubectl/stream-cmds';

export interface TerminalSessionState {
  host: string;
  user: string;
  cwd: string;
  home: string;
}

export interface TerminalState {
  /** ssh stack, bottom first: the bottom is the control plane the learner starts on */
  sessions: TerminalSessionState[];
  env: Record<string, string>;
  /** the most recent input lines, oldest first (at most HISTORY_LIMIT) */
  history: string[];
  lastExit: number;
  /** the port of a running `kubectl proxy`, null when none runs */
  proxyPort: number | null;
  /** running `kubectl port-forward`s (absent in states saved before port-forward existed) */
  portForwards?: PortForward[];
}

export const HISTORY_LIMIT = 200;

/** Internal variables (a background marker) never leave the shell. */
const isSavedVariable = (name: string): boolean => !name.startsWith('__');

export function saveTerminalState(
  shell: Shell,
  proxyPort: number | null,
  portForwards: PortForward[] = [],
): TerminalState {
  return {
    sessions: shell.sessions.map(({ host, user, cwd, home }) => ({ host, user, cwd, home })),
    env: Object.fromEntries(Object.entries(shell.env).filter(([k]) => isSavedVariable(k))),
    history: shell.history.slice(-HISTORY_LIMIT),
    lastExit: shell.lastExitCode,
    proxyPort,
    ...(portForwards.length ? { portForwards: portForwards.map((f) => ({ ...f })) } : {}),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isAbsolute = (v: unknown): v is string => typeof v === 'string' && v.startsWith('/');

/**
 * Puts a saved state back into a fresh shell (whose only session is the control plane). Whatever
 * does not fit the lab is repaired rather than trusted: a hop to a host that no longer exists ends
 * the stack there (back on the control plane if it was the first hop), a cwd that is gone becomes
 * the hop's home, a bottom session is always the fresh control-plane one but for its cwd.
 */
export function restoreTerminalState(
  shell: Shell,
  state: unknown,
  fsFor: (host: string) => FileSystem | undefined,
): { proxyPort: number | null; portForwards: PortForward[] } {
  if (!isRecord(state)) return { proxyPort: null, portForwards: [] };
  const base = shell.sessions[0] as ShellSession;
  const saved = Array.isArray(state.sessions) ? state.sessions : [];
  saved.forEach((raw, index) => {
    if (!isRecord(raw) || shell.sessions.length !== Math.max(index, 1)) return;
    if (index === 0) {
      if (raw.host === base.host) base.cwd = cwdOn(base.fs, raw.cwd, base.home);
      return;
    }
    const fs = typeof raw.host === 'string' ? fsFor(raw.host) : undefined;
    if (!fs || typeof raw.host !== 'string') return;
    const user = typeof raw.user === 'string' && raw.user !== '' ? raw.user : 'root';
    const home = isAbsolute(raw.home) ? normalizePath(raw.home, '/', '/') : '/root';
    shell.enter({ host: raw.host, user, home, cwd: cwdOn(fs, raw.cwd, home), fs });
  });
  if (isRecord(state.env)) {
    for (const [k, v] of Object.entries(state.env)) {
      if (typeof v === 'string' && isSavedVariable(k)) shell.env[k] = v;
    }
  }
  if (Array.isArray(state.history)) {
    const lines = state.history.filter((h): h is string => typeof h === 'string');
    shell.history.push(...lines.slice(-HISTORY_LIMIT));
  }
  if (typeof state.lastExit === 'number' && Number.isInteger(state.lastExit)) {
    shell.lastExitCode = state.lastExit;
  }
  const port = state.proxyPort;
  const validPort = typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536;
  return { proxyPort: validPort ? port : null, portForwards: restoreForwards(state.portForwards) };
}

const isPort = (p: unknown): p is number =>
  typeof p === 'number' && Number.isInteger(p) && p > 0 && p < 65536;

function restoreForwards(raw: unknown): PortForward[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter(
      (f): f is PortForward =>
        isRecord(f) &&
        isPort(f.localPort) &&
        isPort(f.podPort) &&
        typeof f.pod === 'string' &&
        typeof f.namespace === 'string',
    )
    .map(({ localPort, namespace, pod, podPort, background }) => ({
      localPort,
      namespace,
      pod,
      podPort,
      ...(background === true ? { background } : {}),
    }));
}

function cwdOn(fs: FileSystem, cwd: unknown, home: string): string {
  if (!isAbsolute(cwd)) return home;
  const path = normalizePath(cwd, '/', '/');
  return fs.isDir(path) ? path : home;
}
