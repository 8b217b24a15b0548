'use client';

import { createContext, useContext } from 'react';

// What a lesson inside the lab view may do with the terminal next to it. The lesson is rendered on
// the server and handed to the lab view as children, so it reaches the terminal through context
// rather than through props.

export type TLabTerminalActions = {
  /** puts a command at the prompt, replacing a half-typed line; the learner presses Enter */
  type: (command: string) => void;
  /** runs a command as if typed and entered (writing a file through a heredoc) */
  submit: (command: string) => void;
};

export const LabTerminalContext = createContext<TLabTerminalActions | null>(null);

export function useLabTerminal(): TLabTerminalActions | null {
  return useContext(LabTerminalContext);
}
