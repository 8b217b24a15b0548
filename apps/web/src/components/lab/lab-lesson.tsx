import { getChapter, type TChapterSlug, type TMessages } from '@kubejourney/content';
import type { TLocale } from '@kubejourney/contracts';
import Link from 'next/link';
import { ChapterBody } from '@/components/chapter/chapter-body';
import { ChapterHeader } from '@/components/chapter/chapter-header';
import { findChapterStop, stopKicker } from '@/lib/chapter-stop.util';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';
import { buildLabHref } from '@/lib/lab-deep-link.util';
import { ChapterPicker } from './chapter-picker';
import { LabFilesClient } from './lab-files-client';

type TProps = { labId: string; slug: TChapterSlug; locale: TLocale; messages: TMessages };

/**
 * The lab's lesson pane: the chapter picker, then the chapter itself with the same blocks as its
 * page, except that command lines type into the terminal beside it.
 */
export function LabLesson({ labId, slug, locale, messages }: TProps) {
  const found = findChapterStop(slug);
  if (!found) return null;
  const chapter = getChapter(slug, locale);
  const { stop, previous, next } = found;
  const colours = COLOUR_CLASSES[stop.colour];
  const { lab, chapter: text } = messages;
  const neighbour =
    'block rounded-lg px-3 py-2 ring-1 ring-stone-200 bg-white hover:ring-stone-400';

  return (
    <div className="flex flex-col gap-4 text-[15px]" data-chapter={slug}>
      <ChapterPicker labId={labId} current={slug} locale={locale} messages={messages} />
      <ChapterHeader
        kicker={stopKicker(found, messages.learn)}
        {...(stop.kind === 'station' ? { component: stop.component } : {})}
        title={stop.title[locale]}
        lede={chapter.lede}
        colours={colours}
        level={2}
      >
        <p className="mt-2 text-sm">
          <Link
            href={`/learn/${slug}`}
            className="text-stone-600 underline underline-offset-2 hover:text-stone-950"
          >
            {lab.readAsPage}
          </Link>
        </p>
      </ChapterHeader>
      <p className="rounded-lg bg-stone-100 px-3 py-2 text-sm leading-relaxed text-stone-700">
        {lab.typeHint}
      </p>
      <LabFilesClient messages={lab} />
      <ChapterBody
        chapter={chapter}
        messages={messages}
        colours={colours}
        mode={{ kind: 'lab', typeLabel: lab.typeCommand }}
        level={3}
      />
      <nav
        aria-label={messages.learn.lineOverview}
        className="mt-6 grid gap-2 border-t border-stone-200 pt-4 text-sm"
      >
        {previous && (
          <Link
            href={buildLabHref(labId, { chapter: previous.slug })}
            rel="prev"
            className={neighbour}
          >
            <span className="block text-stone-600">← {text.previous}</span>
            <span className="font-semibold text-stone-950">{previous.title[locale]}</span>
          </Link>
        )}
        {next && (
          <Link
            href={buildLabHref(labId, { chapter: next.slug })}
            rel="next"
            className={`${neighbour} text-right`}
          >
            <span className="block text-stone-600">{text.next} →</span>
            <span className="font-semibold text-stone-950">{next.title[locale]}</span>
          </Link>
        )}
      </nav>
    </div>
  );
}
