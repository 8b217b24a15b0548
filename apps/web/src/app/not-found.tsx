import Link from 'next/link';
import { getRequestContext } from '@/server/request-context.server';

export default async function NotFound() {
  const { messages } = await getRequestContext();
  return (
    <div className="mx-auto max-w-xl px-4 py-24 text-center">
      <p className="font-mono text-sm text-stone-600">404</p>
      <h1 className="mt-2 text-3xl font-semibold tracking-tight text-stone-950">
        {messages.notFound.title}
      </h1>
      <p className="mt-3 text-stone-700">{messages.notFound.body}</p>
      <Link
        href="/"
        className="mt-8 inline-block rounded-full bg-stone-900 px-5 py-2.5 font-semibold text-white hover:bg-stone-700"
      >
        {messages.notFound.back}
      </Link>
    </div>
  );
}
