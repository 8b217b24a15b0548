import { formatMessage, METRO_LINE } from '@kubejourney/content';
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { RouteStrip } from '@/components/route-strip';
import { getRequestContext } from '@/server/request-context.server';
import { MetroMap } from './metro-map';

export async function generateMetadata(): Promise<Metadata> {
  const { messages } = await getRequestContext();
  return { title: messages.learn.eyebrow };
}

export default async function LearnPage() {
  const { user, locale, messages } = await getRequestContext();
  // The map shows the learner's own progress, so it needs to know who is looking.
  if (!user) redirect('/login?next=%2Flearn');

  const { learn } = messages;
  const line = METRO_LINE;

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 lg:py-14">
      <header className="max-w-3xl">
        <p className="text-sm font-semibold tracking-wide text-stone-600 uppercase">
          {learn.eyebrow}
        </p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-stone-950 sm:text-4xl">
          {line.name[locale]}
        </h1>
        <p className="mt-4 text-lg leading-relaxed text-pretty text-stone-700">{learn.lede}</p>
        <p className="mt-3 text-sm text-stone-600">
          {formatMessage(learn.stopsCount, { count: line.stops.length })}
        </p>
        <p className="mt-5 flex flex-wrap items-center gap-3">
          <Link
            href="/labs"
            className="rounded-full bg-stone-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-stone-700"
          >
            {learn.openLab}
          </Link>
          <span className="text-sm text-stone-600">{learn.openLabHint}</span>
        </p>
      </header>

      <nav
        aria-label={learn.lineOverview}
        className="mt-8 hidden rounded-2xl bg-white px-4 pt-6 pb-4 shadow-sm ring-1 ring-stone-200 md:block"
      >
        <RouteStrip
          label={learn.lineOverview}
          items={line.stops.map((stop) => ({
            key: stop.id,
            label:
              stop.kind === 'station'
                ? stop.slug
                : stop.kind === 'hall'
                  ? learn.kindHall
                  : learn.kindTerminus,
            colour: stop.colour,
            isTerminal: stop.kind !== 'station',
            href: `/learn/${stop.slug}`,
          }))}
        />
      </nav>

      <div className="mt-10 max-w-4xl">
        <MetroMap
          line={line}
          locale={locale}
          messages={messages}
          progressOf={() => 'not-visited'}
        />
      </div>
    </div>
  );
}
