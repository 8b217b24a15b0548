'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { createSandboxLab, describeLabFailure, type TLabErrorMessages } from '@/lib/lab-api.util';
import { buildLabHref, type TLabDeepLink } from '@/lib/lab-deep-link.util';

type TProps = {
  link: TLabDeepLink;
  messages: TMessages['labs'];
  errorMessages: TLabErrorMessages;
};

/** The learner has no sandbox yet: create one, then go into it with the chapter (and command). */
export function OpenLabClient({ link, messages, errorMessages }: TProps) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  const open = useCallback(async () => {
    setError(null);
    const result = await createSandboxLab();
    if (!result.ok) {
      const isLimit = result.error.kind === 'api' && result.error.code === 'LIMIT_REACHED';
      setError(
        isLimit
          ? messages.limitReached
          : formatMessage(messages.openFailed, {
              reason: describeLabFailure(result.error, errorMessages),
            }),
      );
      return;
    }
    router.replace(buildLabHref(result.data.id, link));
  }, [errorMessages, link, messages, router]);

  useEffect(() => {
    // Once per visit: React's development double effect must not create two labs.
    if (started.current) return;
    started.current = true;
    void open();
  }, [open]);

  if (error) {
    return (
      <div className="mt-6 flex flex-col items-start gap-4">
        <p
          role="alert"
          className="rounded-lg border border-red-600 bg-red-50 px-4 py-3 text-red-800"
        >
          {error}
        </p>
        <div className="flex flex-wrap items-center gap-4">
          <button
            type="button"
            onClick={() => void open()}
            className="rounded-full bg-stone-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-stone-700"
          >
            {messages.retry}
          </button>
          <Link href="/labs" className="text-sm text-stone-800 underline">
            {messages.title}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <p role="status" className="mt-6 flex items-center gap-3 text-stone-700">
      <span
        aria-hidden="true"
        className="size-2.5 animate-pulse rounded-full bg-stone-700 motion-reduce:animate-none"
      />
      {messages.opening}
    </p>
  );
}
