'use client';

import { LOCALES, ZUserResponse, type TLocale } from '@kubejourney/contracts';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { callApi } from '@/lib/api-client.util';
import { rememberLocale } from '@/lib/locale-cookie.util';

type TProps = {
  locale: TLocale;
  isLoggedIn: boolean;
  labels: { label: string; saveFailed: string } & Record<TLocale, string>;
};

/**
 * Switches the page language. A logged-in user's choice is saved to their account first (so the
 * next device gets it too); the kj_locale cookie remembers it in this browser either way, and the
 * server components re-render in the new language.
 */
export function LanguageSwitchClient({ locale, isLoggedIn, labels }: TProps) {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  const [pendingLocale, setPendingLocale] = useState<TLocale | null>(null);
  const [hasFailed, setHasFailed] = useState(false);

  function choose(next: TLocale) {
    if (next === locale || isPending) return;
    setHasFailed(false);
    setPendingLocale(next);
    startTransition(async () => {
      if (isLoggedIn) {
        const result = await callApi('/api/me', {
          method: 'PATCH',
          body: { locale: next },
          schema: ZUserResponse,
        });
        if (!result.ok) {
          setHasFailed(true);
          setPendingLocale(null);
          return;
        }
      }
      rememberLocale(next);
      router.refresh();
    });
  }

  return (
    <div className="relative">
      <div
        role="group"
        aria-label={labels.label}
        aria-busy={isPending}
        className="flex rounded-full bg-stone-100 p-0.5 ring-1 ring-stone-200 ring-inset"
      >
        {LOCALES.map((option) => {
          const isCurrent = option === locale;
          return (
            <button
              key={option}
              type="button"
              lang={option}
              aria-pressed={isCurrent}
              disabled={isPending}
              onClick={() => choose(option)}
              className={`min-h-8 rounded-full px-3 text-sm font-medium transition-colors disabled:cursor-progress ${
                isCurrent
                  ? 'bg-white text-stone-900 shadow-sm ring-1 ring-stone-200'
                  : 'text-stone-600 hover:text-stone-900'
              } ${pendingLocale === option ? 'animate-pulse' : ''}`}
            >
              {labels[option]}
            </button>
          );
        })}
      </div>
      <p
        role="status"
        className={
          hasFailed
            ? 'absolute top-full right-0 z-40 mt-2 w-64 rounded-lg bg-white p-3 text-sm text-red-800 shadow-lg ring-1 ring-red-300'
            : 'sr-only'
        }
      >
        {hasFailed ? labels.saveFailed : ''}
      </p>
    </div>
  );
}
