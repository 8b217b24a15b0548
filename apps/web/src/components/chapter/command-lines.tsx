import type { TChapterSlug } from '@kubejourney/content';
import Link from 'next/link';
import { buildOpenLabHref } from '@/lib/lab-deep-link.util';
import { TypeCommandButtonClient } from './type-command-button-client';

/**
 * What a command line does where the chapter is shown: on the chapter page it links to the lab
 * with the command typed in; in the lab's lesson pane a click types it into the terminal beside it.
 */
export type TCommandMode =
  { kind: 'page'; chapter: TChapterSlug; runLabel: string } | { kind: 'lab'; typeLabel: string };

type TProps = { host: string; commands: readonly string[]; label: string; mode: TCommandMode };

export function CommandLines({ host, commands, label, mode }: TProps) {
  return (
    <figure className="overflow-hidden rounded-xl bg-stone-950 shadow-sm" data-host={host}>
      <figcaption className="border-b border-stone-800 px-4 py-2 font-mono text-xs text-stone-400">
        {label}
      </figcaption>
      {mode.kind === 'lab' ? (
        <ul className="flex flex-col gap-1 p-2">
          {commands.map((line, i) => (
            <li key={i}>
              <TypeCommandButtonClient command={line} label={mode.typeLabel} />
            </li>
          ))}
        </ul>
      ) : (
        <ul className="flex flex-col gap-1 px-4 py-3">
          {commands.map((line, i) => (
            <li key={i} className="flex items-start gap-3">
              <code className="min-w-0 flex-1 font-mono text-sm leading-relaxed [overflow-wrap:anywhere] whitespace-pre-wrap text-stone-100">
                <span aria-hidden="true" className="text-stone-500 select-none">
                  ${' '}
                </span>
                {line}
              </code>
              <Link
                href={buildOpenLabHref({ chapter: mode.chapter, type: line })}
                prefetch={false}
                aria-label={`${mode.runLabel}: ${line}`}
                data-testid="run-in-lab"
                title={mode.runLabel}
                className="mt-0.5 inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap text-stone-200 ring-1 ring-stone-600 hover:bg-stone-800 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white sm:px-2.5"
              >
                {/* On a phone the words would squeeze the command into a narrow column. */}
                <span className="sr-only sm:not-sr-only">{mode.runLabel}</span>
                <span aria-hidden="true">▶</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
