import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { LabLesson } from '@/components/lab/lab-lesson';
import { LabViewClient } from '@/components/lab/lab-view-client';
import { findChapterStop } from '@/lib/chapter-stop.util';
import { buildLabHref, DEFAULT_LAB_CHAPTER, parseLabDeepLink } from '@/lib/lab-deep-link.util';
import { getRequestContext } from '@/server/request-context.server';
import { readLab } from '../lab-api.server';

type TProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ searchParams }: TProps): Promise<Metadata> {
  const [{ locale, messages }, query] = await Promise.all([getRequestContext(), searchParams]);
  const slug = parseLabDeepLink(query).chapter ?? DEFAULT_LAB_CHAPTER;
  const title = findChapterStop(slug)?.stop.title[locale];
  return { title: title ? `${title} · ${messages.lab.pageTitle}` : messages.lab.pageTitle };
}

export default async function LabPage({ params, searchParams }: TProps) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const { user, locale, messages } = await getRequestContext();
  const link = parseLabDeepLink(query);
  if (!user) redirect(`/login?next=${encodeURIComponent(buildLabHref(id, link))}`);
  const lab = await readLab(id);
  if (!lab.ok && lab.status === 404) notFound();
  if (!lab.ok) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-10">
        <p
          role="alert"
          className="rounded-lg border border-red-600 bg-red-50 px-4 py-3 text-red-800"
        >
          {messages.lab.errorUnavailable} ({lab.message})
        </p>
        <Link href="/labs" className="mt-4 inline-block text-stone-800 underline">
          {messages.lab.backToLabs}
        </Link>
      </div>
    );
  }
  // No chapter named: the departure hall, whose first command applies the sandbox's deployment.yaml.
  const slug = link.chapter ?? DEFAULT_LAB_CHAPTER;
  return (
    <LabViewClient
      key={lab.data.id}
      initialView={lab.data}
      messages={messages.lab}
      lesson={<LabLesson labId={lab.data.id} slug={slug} locale={locale} messages={messages} />}
      lessonKey={slug}
      {...(link.type ? { initialCommand: link.type } : {})}
      // On a phone, a link to a chapter opens on the lesson; a link with a command, on the terminal.
      initialPanel={link.chapter && !link.type ? 'lesson' : 'terminal'}
    />
  );
}
