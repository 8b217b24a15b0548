'use client';

import { useLabTerminal } from './lab-terminal-context';

/** One command line in the lab's lesson: a click types it into the terminal (not run). */
export function TypeCommandButtonClient({ command, label }: { command: string; label: string }) {
  const terminal = useLabTerminal();
  return (
    <button
      type="button"
      data-testid="type-command"
      data-command={command}
      disabled={!terminal}
      onClick={() => terminal?.type(command)}
      aria-label={`${label}: ${command}`}
      title={label}
      className="group flex w-full items-start gap-2 rounded-md bg-stone-900 px-2 py-1 text-left font-mono text-[13px] leading-relaxed text-stone-100 ring-1 ring-stone-800 hover:bg-stone-800 hover:ring-stone-600 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-white disabled:opacity-60"
    >
      <span aria-hidden="true" className="text-stone-500 select-none">
        $
      </span>
      <span className="min-w-0 flex-1 [overflow-wrap:anywhere] whitespace-pre-wrap">{command}</span>
      <span
        aria-hidden="true"
        className="shrink-0 text-stone-500 group-hover:text-white group-focus-visible:text-white"
      >
        ↵
      </span>
    </button>
  );
}
