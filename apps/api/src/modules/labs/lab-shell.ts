import {
  runCommandLine,
  type CommandLineEditor,
  type CommandLineOutput,
  type SimLab,
} from '@kubejourney/sim';

/** Where a command wants the UI's editor (`vi FILE`, `kubectl edit`). */
export type TLabOpenEditor = CommandLineEditor;

/** What one command line prints; never throws (the simulator's command line contract). */
export type TLabCommandOutput = CommandLineOutput;

/**
 * Runs one command line (kubectl, etcdctl, the node shell) against a lab, in the terminal state
 * the previous command left (null: a fresh shell on the control plane). Commands that let time
 * pass (`sleep`, `kubectl rollout status`) must do it through `advance`, so the store sees it.
 * `initialFiles` go into /root only for a fresh shell (no terminal state yet), so the learner's
 * own edits to them are never overwritten by a later command.
 */
export type TLabShell = (
  lab: SimLab,
  line: string,
  advance: (ms: number) => unknown,
  terminalState: string | null,
  initialFiles?: Readonly<Record<string, string>>,
) => TLabCommandOutput;

export const LAB_SHELL = Symbol('LAB_SHELL');

/** libs/sim's command line; the worker replays commands with the same function. */
export const simLabShell: TLabShell = runCommandLine;
