// What every command of the lab shell receives and returns. Commands never throw: errors are text
// on stderr plus an exit code, exactly as the real tool prints them.

import type { FileSystem } from './vfs';

export interface CommandResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** `vi FILE` / `kubectl edit`: the UI opens its editor on this file */
  openEditor?: { path: string; host: string; afterSave?: string };
  /** `clear`: the UI wipes the screen */
  clear?: boolean;
}

export interface CommandContext {
  args: string[];
  stdin: string;
  env: Record<string, string>;
  fs: FileSystem;
  cwd: string;
  home: string;
  /** the machine the shell is on (`control-plane`, `node-1`, ...) */
  host: string;
  /** resolves a path against cwd and ~ */
  resolve(path: string): string;
}

export type CommandFn = (ctx: CommandContext) => CommandResult;

export const ok = (stdout = ''): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
export const fail = (stderr: string, exitCode = 1, stdout = ''): CommandResult => ({
  stdout,
  stderr,
  exitCode,
});
