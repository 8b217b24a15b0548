import { formatMessage, type TBlock, type TMessages } from '@kubejourney/content';
import type { TColourClasses } from '@/lib/colour-classes.util';
import { CommandLines, type TCommandMode } from './command-lines';
import { RichText } from './rich-text';

type TProps = {
  block: TBlock;
  messages: TMessages;
  colours: TColourClasses;
  /** what a click on a command line does: open the lab (chapter page) or type it (lab view) */
  mode: TCommandMode;
};

const CALLOUT_CLASSES = {
  note: 'bg-sky-50 ring-sky-200 text-sky-950',
  tip: 'bg-emerald-50 ring-emerald-200 text-emerald-950',
  warning: 'bg-amber-50 ring-amber-300 text-amber-950',
} as const;

/** One block of a chapter, rendered by kind; ids become anchors. */
export function ChapterBlock({ block, messages, colours, mode }: TProps) {
  const { chapter } = messages;
  switch (block.kind) {
    case 'paragraph':
      return (
        <p id={block.id} className="leading-relaxed text-pretty text-stone-800">
          <RichText runs={block.text} />
        </p>
      );
    case 'list': {
      const ListTag = block.ordered ? 'ol' : 'ul';
      return (
        <ListTag
          id={block.id}
          className={`space-y-1.5 pl-6 leading-relaxed text-stone-800 ${block.ordered ? 'list-decimal' : 'list-disc'}`}
        >
          {block.items.map((item, i) => (
            <li key={i}>
              <RichText runs={item} />
            </li>
          ))}
        </ListTag>
      );
    }
    case 'callout':
      return (
        <aside
          id={block.id}
          aria-label={block.title}
          className={`rounded-xl p-4 ring-1 ${CALLOUT_CLASSES[block.tone]}`}
        >
          <p className="font-semibold">{block.title}</p>
          {block.body.map((line, i) => (
            <p key={i} className="mt-1.5 leading-relaxed">
              <RichText runs={line} />
            </p>
          ))}
        </aside>
      );
    case 'command':
      return (
        <div id={block.id} className="space-y-2">
          <p className="leading-relaxed text-stone-800">
            <RichText runs={block.caption} />
          </p>
          <CommandLines
            host={block.host}
            commands={block.commands}
            label={formatMessage(chapter.onHost, { host: block.host })}
            mode={mode}
          />
        </div>
      );
    case 'table':
      return (
        <div id={block.id} className="overflow-x-auto rounded-xl ring-1 ring-stone-200">
          <table className="w-full border-collapse bg-white text-left text-sm">
            <caption className="bg-stone-50 px-4 py-2 text-left font-semibold text-stone-800">
              {block.caption}
            </caption>
            <thead>
              <tr className="border-b border-stone-200">
                {block.columns.map((column) => (
                  <th key={column} scope="col" className="px-4 py-2 font-semibold text-stone-900">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r} className="border-b border-stone-100 last:border-0">
                  {row.map((cell, c) => (
                    <td key={c} className="px-4 py-2 align-top text-stone-800">
                      <RichText runs={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'try':
      return (
        <section
          id={block.id}
          aria-label={chapter.tryIt}
          className="relative overflow-hidden rounded-xl bg-white p-5 shadow-sm ring-1 ring-stone-200"
        >
          <span aria-hidden="true" className={`absolute inset-y-0 left-0 w-1 ${colours.accent}`} />
          <p className="text-sm font-semibold tracking-wide text-stone-600 uppercase">
            {chapter.tryIt}
          </p>
          <p className="mt-2 leading-relaxed text-stone-800">
            <RichText runs={block.task} />
          </p>
          <div className="mt-3">
            <CommandLines
              host={block.host}
              commands={block.commands}
              label={formatMessage(chapter.onHost, { host: block.host })}
              mode={mode}
            />
          </div>
          <p className="mt-3 text-sm leading-relaxed text-stone-700">
            <span className="font-semibold text-stone-900">{chapter.youShouldSee}: </span>
            <RichText runs={block.expect} />
          </p>
        </section>
      );
    case 'handoff': {
      const parts = [
        [chapter.receives, block.receives],
        [chapter.decides, block.decides],
        [chapter.writes, block.writes],
      ] as const;
      return (
        <section
          id={block.id}
          aria-label={chapter.handoff}
          className={`rounded-xl p-5 ring-1 ${colours.chip}`}
        >
          <p className="text-sm font-semibold tracking-wide uppercase">{chapter.handoff}</p>
          <dl className="mt-3 grid gap-4 @xl:grid-cols-3">
            {parts.map(([label, text]) => (
              <div key={label} className="rounded-lg bg-white/80 p-3 text-stone-800">
                <dt className="flex items-center gap-2 font-semibold text-stone-950">
                  <span aria-hidden="true" className={`size-2 rounded-full ${colours.dot}`} />
                  {label}
                </dt>
                <dd className="mt-1 text-sm leading-relaxed">
                  <RichText runs={text} />
                </dd>
              </div>
            ))}
          </dl>
        </section>
      );
    }
  }
}
