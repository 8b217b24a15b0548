import { findChapter, formatMessage, METRO_LINE, type TStop } from '@kubejourney/content';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';
import { getRequestContext } from '@/server/request-context.server';
import { ChapterBlock } from './chapter-block';
import { ChapterQuiz } from './chapter-quiz-client';

type TProps = { params: Promise<{ slug: string }> };

function findStop(slug: string): { stop: TStop; index: number } | undefined {
  const index = METRO_LINE.stops.findIndex((stop) => stop.slug === slug);
  return index < 0 ? undefined : { stop: METRO_LINE.stops[index], index };
}

export async function generateMetadata({ params }: TProps): Promise<Metadata> {
  const [{ slug }, { locale }] = await Promise.all([params, getRequestContext()]);
  const found = findStop(slug);
  return found ? { title: found.stop.title[locale] } : {};
}

export default async function ChapterPage({ params }: TProps) {
  const [{ slug }, { user, locale, messages }] = await Promise.all([params, getRequestContext()]);
  const found = findStop(slug);
  const chapter = found && findChapter(slug, locale);
  if (!found || !chapter) notFound();
  // Like the map, a chapter is part of the learner's own journey, so it needs a session.
  if (!user) redirect(`/login?next=${encodeURIComponent(`/learn/${slug}`)}`);

  const { stop, index } = found;
  const { learn, chapter: text } = messages;
  const colours = COLOUR_CLASSES[stop.colour];
  const previous = METRO_LINE.stops[index - 1];
  const next = METRO_LINE.stops[index + 1];
  const stationNumber = METRO_LINE.stops
    .slice(0, index + 1)
    .filter((s) => s.kind === 'station').length;
  const kicker =
    stop.kind === 'station'
      ? formatMessage(learn.stopNumber, { number: stationNumber })
      : stop.kind === 'hall'
        ? learn.kindHall
        : learn.kindTerminus;

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 lg:py-14">
      <p className="text-sm">
        <Link
          href={`/learn#stop-${stop.slug}`}
          className="font-medium text-stone-600 underline-offset-4 hover:text-stone-950 hover:underline"
        >
          ← {text.backToMap}
        </Link>
      </p>
      <header className="relative mt-4 pl-5">
        <span
          aria-hidden="true"
          className={`absolute inset-y-0 left-0 w-1.5 rounded-full ${colours.accent}`}
        />
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <span className="text-sm font-medium text-stone-600">{kicker}</span>
          {stop.kind === 'station' && (
            <span
              className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 font-mono text-xs font-medium ring-1 ring-inset ${colours.chip}`}
            >
              <span aria-hidden="true" className={`size-2 rounded-full ${colours.dot}`} />
              {stop.component}
            </span>
          )}
        </div>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-balance text-stone-950 sm:text-4xl">
          {stop.title[locale]}
        </h1>
        <p className="mt-4 text-lg leading-relaxed text-pretty text-stone-700">{chapter.lede}</p>
        <p className="mt-5 flex flex-wrap items-center gap-3">
          <Link
            href="/labs"
            className="rounded-full bg-stone-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-stone-700"
          >
            {text.openLab}
          </Link>
          <span className="text-sm text-stone-600">{text.openLabHint}</span>
        </p>
      </header>

      {chapter.sections.map((section) => (
        <section key={section.id} aria-labelledby={section.id} className="mt-12">
          <h2 id={section.id} className="text-2xl font-semibold tracking-tight text-stone-950">
            {section.heading}
          </h2>
          <div className="mt-4 space-y-5">
            {section.blocks.map((block) => (
              <ChapterBlock key={block.id} block={block} messages={messages} colours={colours} />
            ))}
          </div>
        </section>
      ))}

      <section aria-labelledby="quiz" className="mt-14">
        <h2 id="quiz" className="text-2xl font-semibold tracking-tight text-stone-950">
          {text.quiz}
        </h2>
        <div className="mt-4">
          <ChapterQuiz questions={chapter.quiz} messages={text} />
        </div>
      </section>

      <nav
        aria-label={learn.lineOverview}
        className="mt-14 grid gap-4 border-t border-stone-200 pt-8 sm:grid-cols-2"
      >
        {previous ? (
          <Link
            href={`/learn/${previous.slug}`}
            rel="prev"
            className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-stone-200 hover:ring-stone-400"
          >
            <span className="block text-sm text-stone-600">← {text.previous}</span>
            <span className="mt-1 block font-semibold text-stone-950">
              {previous.title[locale]}
            </span>
          </Link>
        ) : (
          <span />
        )}
        {next && (
          <Link
            href={`/learn/${next.slug}`}
            rel="next"
            className="rounded-xl bg-white p-4 text-right shadow-sm ring-1 ring-stone-200 hover:ring-stone-400"
          >
            <span className="block text-sm text-stone-600">{text.next} →</span>
            <span className="mt-1 block font-semibold text-stone-950">{next.title[locale]}</span>
          </Link>
        )}
      </nav>
    </div>
  );
}
