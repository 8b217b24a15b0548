import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { LabViewClient } from '@/components/lab/lab-view-client';
import { getRequestContext } from '@/server/request-context.server';
import { readLab } from '../lab-api.server';

export async function generateMetadata(): Promise<Metadata> {
  const { messages } = await getRequestContext();
  return { title: messages.lab.pageTitle };
}

export default async function LabPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { user, messages } = await getRequestContext();
  if (!user) redirect(`/login?next=${encodeURIComponent(`/labs/${id}`)}`);
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
  // A chapter's text goes into `chapter` once libs/content exports chapters.
  return <LabViewClient key={lab.data.id} initialView={lab.data} messages={messages.lab} />;
}
