'use client';

import type { TMessages } from '@kubejourney/content';
import type { ReactNode } from 'react';
import { writeFileCommand } from '@/lib/lab-line-editor.util';
import { SANDBOX_COMMANDS, SANDBOX_MANIFEST, SANDBOX_MANIFEST_PATH } from './sandbox-manifest';

// The left pane. A chapter or an exercise briefing goes in `chapter` when there is one (libs/content
// does not export chapters yet); the sandbox briefing walks the journey's four commands.

type TProps = {
  messages: TMessages['lab'];
  onType: (text: string) => void;
  onSubmit: (command: string) => void;
  chapter?: ReactNode;
};

function CommandButton({
  command,
  label,
  onType,
}: {
  command: string;
  label: string;
  onType: (text: string) => void;
}) {
  return (
    <button
      type="button"
      onClick={() => onType(command)}
      title={label}
      aria-label={`${label}: ${command}`}
      className="group flex w-full items-center justify-between gap-2 rounded-md bg-stone-900 px-2.5 py-1.5 text-left font-mono text-[13px] text-stone-100 hover:bg-stone-800"
    >
      <span className="truncate">$ {command}</span>
      <span aria-hidden="true" className="text-stone-400 group-hover:text-white">
        ↵
      </span>
    </button>
  );
}

export function LabBriefing({ messages, onType, onSubmit, chapter }: TProps) {
  return (
    <div className="flex flex-col gap-4 text-[15px] leading-relaxed text-stone-800">
      <section data-slot="chapter" aria-label={messages.tabLesson}>
        {chapter ?? <p className="sr-only">{messages.chapterSlot}</p>}
      </section>
      <h2 className="text-xl font-semibold tracking-tight text-stone-950">
        {messages.briefingTitle}
      </h2>
      <p>{messages.briefingIntro}</p>
      <ol className="flex list-decimal flex-col gap-4 pl-5 marker:font-semibold">
        <li className="flex flex-col gap-2">
          <p>{messages.briefingStep1}</p>
          <details className="rounded-md border border-stone-300 bg-white">
            <summary className="cursor-pointer px-2.5 py-1 font-mono text-sm">
              {SANDBOX_MANIFEST_PATH}
            </summary>
            <pre className="max-h-64 overflow-auto border-t border-stone-200 p-2.5 font-mono text-xs leading-5">
              {SANDBOX_MANIFEST}
            </pre>
          </details>
          <button
            type="button"
            onClick={() => onSubmit(writeFileCommand(SANDBOX_MANIFEST_PATH, SANDBOX_MANIFEST))}
            className="self-start rounded-full bg-stone-900 px-3.5 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-stone-700"
          >
            {messages.writeFile}
          </button>
          <CommandButton
            command={SANDBOX_COMMANDS.apply}
            label={messages.typeCommand}
            onType={onType}
          />
        </li>
        <li className="flex flex-col gap-2">
          <p>{messages.briefingStep2}</p>
          <CommandButton
            command={SANDBOX_COMMANDS.watch}
            label={messages.typeCommand}
            onType={onType}
          />
        </li>
        <li className="flex flex-col gap-2">
          <p>{messages.briefingStep3}</p>
          <CommandButton
            command={SANDBOX_COMMANDS.describe}
            label={messages.typeCommand}
            onType={onType}
          />
        </li>
        <li className="flex flex-col gap-2">
          <p>{messages.briefingStep4}</p>
          <CommandButton
            command={SANDBOX_COMMANDS.endpoints}
            label={messages.typeCommand}
            onType={onType}
          />
        </li>
      </ol>
    </div>
  );
}
