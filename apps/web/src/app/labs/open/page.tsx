import { formatMessage } from '@kubejourney/content';
import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { OpenLabClient } from '@/components/lab/open-lab-client';
import {
  buildLabHref,
  buildOpenLabHref,
  parseLabDeepLink,
  pickLabForChapter,
} from '@/lib/lab-deep-link.util';
import { getRequestContext } from '@/server/request-context.server';
import { readLabs } from '../lab-api.server';

// "Open your lab" from a chapter: straight into the learner's sandbox when they have one (a
// redirect, decided here on the server), otherwise a new sandbox is created from the browser
// (a POST, so a prefetch or a crawler can never create labs).

type TProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  const { messages } = await getRequestContext();
  return { title: messages.labs.openingTitle };
}

export default async function OpenLabPage({ searchParams }: TProps) {
  const [{ user, messages }, query] = await Promise.all([getRequestContext(), searchParams]);
  const link = parseLabDeepLink(query);
  if (!user) redirect(`/login?next=${encodeURIComponent(buildOpenLabHref(link))}`);
  const labs = await readLabs();
  const picked = labs.ok ? pickLabForChapter(labs.data.labs) : undefined;
  if (picked) redirect(buildLabHref(picked.id, link));

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight text-stone-950">
        {messages.labs.openingTitle}
      </h1>
      {labs.ok ? (
        <OpenLabClient link={link} messages={messages.labs} errorMessages={messages.lab} />
      ) : (
        <>
          <p
            role="alert"
            className="mt-6 rounded-lg border border-red-600 bg-red-50 px-4 py-3 text-red-800"
          >
            {formatMessage(messages.labs.openFailed, { reason: labs.message })}
          </p>
          <Link href="/labs" className="mt-4 inline-block text-stone-800 underline">
            {messages.lab.backToLabs}
          </Link>
        </>
      )}
    </div>
  );
}
