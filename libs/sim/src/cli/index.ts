// The lab's command line: kubectl, etcdctl and the node shell over a Lab (see terminal.ts).
export { createTerminal } from './terminal';
export { runCommandLine } from './command-line';
export type { CommandLineEditor, CommandLineOutput } from './command-line';
export type { Terminal, TerminalOptions, TerminalResult } from './terminal';
export type { TerminalSessionState, TerminalState } from './terminal-state';
export type { CommandResult } from './shell/command-types';
export { formatTabbed, GET_TABWRITER, DESCRIBE_TABWRITER } from './text/tab-writer';
export { parseShell } from './shell/shell-parser';
