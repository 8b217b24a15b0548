import { findChapter, ZChapterSlug } from '@kubejourney/content';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { ChapterBody } from '@/components/chapter/chapter-body';
import { ChapterHeader } from '@/components/chapter/chapter-header';
import { findChapterStop, stopKicker } from '@/lib/chapter-stop.util';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';
import { buildOpenLabHref } from '@/lib/lab-deep-link.util';
import { getRequestContext } from '@/server/request-context.server';

type TProps = { params: Promise<{ slug: string }> };

export async function generateMetadata({ params }: TProps): Promise<Metadata> {
  const [{ slug }, { locale }] = await Promise.all([params, getRequestContext()]);
  const found = findChapterStop(slug);
  return found ? { title: found.stop.title[locale] } : {};
}

export default async function ChapterPage({ params }: TProps) {
  const [{ slug }, { user, locale, messages }] = await Promise.all([params, getRequestContext()]);
  const found = findChapterStop(slug);
  const chapter = found && findChapter(slug, locale);
  const chapterSlug = ZChapterSlug.safeParse(slug);
  if (!found || !chapter || !chapterSlug.success) notFound();
  // Like the map, a chapter is part of the learner's own journey, so it needs a session.
  if (!user) redirect(`/login?next=${encodeURIComponent(`/learn/${slug}`)}`);

  const { stop, previous, next } = found;
  const { learn, chapter: text } = messages;
  const colours = COLOUR_CLASSES[stop.colour];

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
      <div className="mt-4">
        <ChapterHeader
          kicker={stopKicker(found, learn)}
          {...(stop.kind === 'station' ? { component: stop.component } : {})}
          title={stop.title[locale]}
          lede={chapter.lede}
          colours={colours}
          level={1}
        >
          <p className="mt-5 flex flex-wrap items-center gap-3">
            {/* /labs/open picks the learner's lab (or creates a sandbox): no prefetch, it may POST. */}
            <Link
              href={buildOpenLabHref({ chapter: chapterSlug.data })}
              prefetch={false}
              data-testid="open-lab"
              className="rounded-full bg-stone-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-stone-700"
            >
              {text.openLab}
            </Link>
            <span className="text-sm text-stone-600">{text.openLabHint}</span>
          </p>
        </ChapterHeader>
      </div>

      <ChapterBody
        chapter={chapter}
        messages={messages}
        colours={colours}
        mode={{ kind: 'page', chapter: chapterSlug.data, runLabel: text.runInLab }}
        level={2}
      />

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
