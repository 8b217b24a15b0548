import {
  formatMessage,
  type TMessages,
  type TMetroLine,
  type TStop,
  type TStopProgress,
  type TZone,
} from '@kubejourney/content';
import type { TLocale } from '@kubejourney/contracts';
import Link from 'next/link';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';

type TProps = {
  line: TMetroLine;
  locale: TLocale;
  messages: TMessages;
  progressOf: (stop: TStop) => TStopProgress;
};

const PROGRESS_LABEL: Record<TStopProgress, keyof TMessages['learn']> = {
  'not-visited': 'progressNotVisited',
  reading: 'progressReading',
  done: 'progressDone',
  'exercises-solved': 'progressExercisesSolved',
};

/**
 * The course as a metro line: one stop per chapter, each marked in its component's colour, grouped
 * by where the component runs (your laptop, the control plane, a worker node).
 */
export function MetroMap({ line, locale, messages, progressOf }: TProps) {
  const { learn } = messages;
  let stationNumber = 0;
  let previousZone: TZone | undefined;

  return (
    <div className="relative">
      {/* The rail runs through the centres of the first and last markers. */}
      <div
        aria-hidden="true"
        className="absolute top-8 bottom-8 left-[17px] w-1.5 rounded-full bg-stone-800"
      />
      <ol aria-label={line.name[locale]} className="relative space-y-5">
        {line.stops.map((stop) => {
          const colours = COLOUR_CLASSES[stop.colour];
          const isStation = stop.kind === 'station';
          if (isStation) stationNumber += 1;
          const zone = isStation ? stop.zone : undefined;
          const zoneLabel = zone && zone !== previousZone ? line.zones[zone][locale] : undefined;
          previousZone = zone;
          const kicker = isStation
            ? formatMessage(learn.stopNumber, { number: stationNumber })
            : stop.kind === 'hall'
              ? learn.kindHall
              : learn.kindTerminus;
          const progress = progressOf(stop);
          const titleId = `stop-${stop.slug}-title`;

          return (
            <li
              key={stop.id}
              id={`stop-${stop.slug}`}
              data-stop={stop.slug}
              className="grid grid-cols-[2.5rem_1fr] gap-x-4 sm:gap-x-5"
            >
              {zoneLabel && (
                <p className="col-start-2 mt-3 mb-3 flex items-center gap-3 text-sm font-semibold text-stone-700">
                  <span>{zoneLabel}</span>
                  <span aria-hidden="true" className="h-px flex-1 bg-stone-300" />
                </p>
              )}
              <div aria-hidden="true" className="flex justify-center pt-4">
                {isStation ? (
                  <span
                    className={`grid size-10 place-items-center rounded-full border-[5px] bg-white text-sm font-bold ring-4 ring-paper ${colours.marker}`}
                  >
                    {stationNumber}
                  </span>
                ) : (
                  <span className="grid size-10 place-items-center rounded-full bg-stone-900 ring-4 ring-paper">
                    <span className="size-4 rounded-full border-[3px] border-white" />
                  </span>
                )}
              </div>
              <div>
                <article
                  aria-labelledby={titleId}
                  className="relative overflow-hidden rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200 sm:p-6"
                >
                  <span
                    aria-hidden="true"
                    className={`absolute inset-y-0 left-0 w-1 ${colours.accent}`}
                  />
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
                    <span className="text-sm font-medium text-stone-600">{kicker}</span>
                    {isStation && (
                      <span
                        className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 font-mono text-xs font-medium ring-1 ring-inset ${colours.chip}`}
                      >
                        <span aria-hidden="true" className={`size-2 rounded-full ${colours.dot}`} />
                        {stop.component}
                      </span>
                    )}
                  </div>
                  <h2
                    id={titleId}
                    className="mt-2 text-lg font-semibold tracking-tight text-stone-950 sm:text-xl"
                  >
                    {/* The whole card is the link: the overlay stretches it over the article. */}
                    <Link
                      href={`/learn/${stop.slug}`}
                      className="after:absolute after:inset-0 after:rounded-2xl hover:underline focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-stone-900"
                    >
                      {stop.title[locale]}
                    </Link>
                  </h2>
                  <p className="mt-2 leading-relaxed text-pretty text-stone-700">
                    {stop.summary[locale]}
                  </p>
                  <p className="mt-4 flex items-center gap-2 text-sm" data-progress={progress}>
                    <span className="sr-only">{learn.progressLabel}: </span>
                    <span className="inline-flex items-center gap-1.5 rounded-full bg-stone-100 px-2.5 py-1 font-medium text-stone-700">
                      <span
                        aria-hidden="true"
                        className="size-2.5 rounded-full border-2 border-stone-500"
                      />
                      {learn[PROGRESS_LABEL[progress]]}
                    </span>
                  </p>
                </article>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
