'use client';

import { useLabTerminal } from '@/components/chapter/lab-terminal-context';

/** A command inside a sentence (a hint): a click types it at the lab's prompt, never runs it. */
export function TypeInlineCommandClient({ command, label }: { command: string; label: string }) {
  const terminal = useLabTerminal();
  if (!terminal) {
    return (
      <code className="rounded bg-stone-200/70 px-1 py-px font-mono text-[0.85em] break-words text-stone-900">
        {command}
      </code>
    );
  }
  return (
    <button
      type="button"
      data-testid="type-command"
      data-command={command}
      onClick={() => terminal.type(command)}
      aria-label={`${label}: ${command}`}
      title={label}
      className="inline rounded bg-stone-900 px-1 py-px text-left font-mono text-[0.85em] break-words text-stone-100 hover:bg-stone-700 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-stone-900"
    >
      <span aria-hidden="true" className="text-stone-400 select-none">
        ${' '}
      </span>
      {command}
    </button>
  );
}
