import { formatMessage, METRO_LINE, type TMessages } from '@kubejourney/content';
import type { TLocale } from '@kubejourney/contracts';
import Link from 'next/link';
import { findChapterStop, stopKicker } from '@/lib/chapter-stop.util';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';
import { buildLabHref } from '@/lib/lab-deep-link.util';

type TProps = {
  labId: string;
  current: string;
  locale: TLocale;
  messages: TMessages;
};

/**
 * The metro line in miniature at the top of the lesson pane: one marker per stop, in the
 * component's colour, numbered like the route map. Each marker links to the same lab with that
 * chapter (?chapter=), so a chapter in a lab can be bookmarked and shared.
 */
export function ChapterPicker({ labId, current, locale, messages }: TProps) {
  return (
    <nav aria-label={messages.lab.chapterNav} data-testid="chapter-picker" className="relative">
      <div
        aria-hidden="true"
        className="absolute inset-x-4 top-1/2 h-1 -translate-y-1/2 rounded bg-stone-800"
      />
      <ol className="relative flex items-center justify-between">
        {METRO_LINE.stops.map((stop) => {
          const found = findChapterStop(stop.slug);
          if (!found) return null;
          const isCurrent = stop.slug === current;
          const colours = COLOUR_CLASSES[stop.colour];
          const name = formatMessage(messages.lab.chapterNavStop, {
            kicker: stopKicker(found, messages.learn),
            title: stop.title[locale],
          });
          const ring = isCurrent
            ? 'ring-2 ring-stone-900 ring-offset-2 ring-offset-paper'
            : 'ring-4 ring-paper';
          return (
            <li key={stop.id} className="relative">
              <Link
                href={buildLabHref(labId, { chapter: stop.slug })}
                aria-label={name}
                aria-current={isCurrent ? 'page' : undefined}
                title={name}
                data-stop={stop.slug}
                className="grid size-9 place-items-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-stone-900"
              >
                {found.stationNumber ? (
                  <span
                    className={`grid place-items-center rounded-full border-[4px] bg-white font-bold ${colours.marker} ${ring} ${isCurrent ? 'size-8 text-xs' : 'size-7 text-[11px]'}`}
                  >
                    {found.stationNumber}
                  </span>
                ) : (
                  <span
                    className={`grid place-items-center rounded-full bg-stone-900 ${ring} ${isCurrent ? 'size-8' : 'size-7'}`}
                  >
                    <span className="size-2.5 rounded-full bg-white" />
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
