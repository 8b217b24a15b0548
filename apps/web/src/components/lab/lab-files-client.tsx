'use client';

import { CHAPTER_LAB_FILES, formatMessage, type TMessages } from '@kubejourney/content';
import { useLabTerminal } from '@/components/chapter/lab-terminal-context';
import { writeFileCommand } from '@/lib/lab-line-editor.util';

/**
 * The files the chapters' commands expect in /root. A sandbox starts with them (the API writes
 * them before its first command); this puts one back after the learner changed or deleted it,
 * through a heredoc in the terminal, so they see exactly what happened.
 */
export function LabFilesClient({ messages }: { messages: TMessages['lab'] }) {
  const terminal = useLabTerminal();
  const paths = Object.keys(CHAPTER_LAB_FILES);
  return (
    <details className="group rounded-lg border border-stone-300 bg-white text-sm">
      <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-2 rounded-lg px-3 py-1.5 focus-visible:outline-2 focus-visible:outline-stone-900">
        <span className="font-medium text-stone-900">{messages.labFilesTitle}</span>
        <span className="font-mono text-xs text-stone-600">{paths.join(' · ')}</span>
      </summary>
      <div className="space-y-3 border-t border-stone-200 p-3">
        <p className="leading-relaxed text-stone-700">{messages.labFilesHint}</p>
        {Object.entries(CHAPTER_LAB_FILES).map(([path, text]) => (
          <div key={path} className="space-y-1.5">
            <pre
              aria-label={path}
              className="max-h-48 overflow-auto rounded-md bg-stone-50 p-2 font-mono text-xs leading-5 text-stone-800 ring-1 ring-stone-200"
            >
              {text}
            </pre>
            <button
              type="button"
              disabled={!terminal}
              onClick={() => terminal?.submit(writeFileCommand(path, text))}
              className="rounded-full px-3 py-1 text-xs font-medium text-stone-800 ring-1 ring-stone-300 hover:bg-stone-100 disabled:opacity-60"
            >
              {formatMessage(messages.writeFileAgain, { path })}
            </button>
          </div>
        ))}
      </div>
    </details>
  );
}
