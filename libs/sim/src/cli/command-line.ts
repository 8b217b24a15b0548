import type { SimLab } from '../lab';
import { createTerminal } from './terminal';
import type { TerminalState } from './terminal-state';

/** Where a command wants the UI's editor (`vi FILE`, `kubectl edit`). */
export type CommandLineEditor = { path: string; host: string; afterSave?: string };

/** What one command line prints; never throws (the command line's contract). */
export type CommandLineOutput = {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** the shell's prompt after the command (follows `ssh node-1`, `cd`) */
  prompt: string;
  openEditor?: CommandLineEditor;
  /** the terminal's state after the command (JSON text), to hand to the next command */
  terminalState: string;
};

/**
 * A view of the lab for the terminal in which letting time pass goes through `advance` (the
 * caller's), so a store sees everything a command does.
 */
function withAdvance(lab: SimLab, advance: (ms: number) => unknown): SimLab {
  return new Proxy(lab, {
    get(target, property) {
      if (property === 'advance') {
        return (ms: number) => advance(ms);
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A stored state that is not JSON starts a fresh shell (the terminal repairs the rest). */
function parseState(text: string | null): TerminalState | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as TerminalState;
  } catch {
    return undefined;
  }
}

/**
 * Runs one command line (kubectl, etcdctl, the node shell) against a lab, in the terminal state
 * the previous command left (null: a fresh shell on the control plane). A terminal is built per
 * command (the lab may have been restored in another process since the last one) from that
 * state, so ssh hops, the working directory, variables, history and `kubectl proxy` carry over.
 * Commands that let time pass (`sleep`, `kubectl rollout status`) do it through `advance`.
 * `initialFiles` go into /root only for a fresh shell, so the learner's own edits to them are
 * never overwritten by a later command. Deterministic: the same lab, line and state give the
 * same output and the same lab (the lab store replays commands on that promise).
 */
export function runCommandLine(
  lab: SimLab,
  line: string,
  advance: (ms: number) => unknown,
  terminalState: string | null,
  initialFiles?: Readonly<Record<string, string>>,
): CommandLineOutput {
  const files = terminalState === null && initialFiles ? { ...initialFiles } : undefined;
  const terminal = createTerminal(withAdvance(lab, advance), {
    state: parseState(terminalState),
    ...(files ? { files } : {}),
  });
  const { stdout, stderr, exitCode, prompt, openEditor } = terminal.exec(line);
  return {
    stdout,
    stderr,
    exitCode,
    prompt,
    ...(openEditor ? { openEditor } : {}),
    terminalState: JSON.stringify(terminal.saveState()),
  };
}
