'use client';

import { useState } from 'react';
import { callApi } from '@/lib/api-client.util';

type TProps = { labels: { logout: string; loggingOut: string; logoutFailed: string } };

export function LogoutButtonClient({ labels }: TProps) {
  const [isPending, setIsPending] = useState(false);
  const [hasFailed, setHasFailed] = useState(false);

  async function logOut() {
    setIsPending(true);
    setHasFailed(false);
    const result = await callApi('/api/auth/logout', { method: 'POST' });
    // A 401 means the session was already gone: the outcome the user asked for.
    if (result.ok || (result.error.kind === 'api' && result.error.status === 401)) {
      // A full navigation, so every server component renders again without the session.
      window.location.assign('/');
      return;
    }
    setIsPending(false);
    setHasFailed(true);
  }

  return (
    <div className="relative shrink-0">
      <button
        type="button"
        onClick={logOut}
        disabled={isPending}
        aria-busy={isPending}
        className="min-h-9 rounded-full px-3 text-sm font-medium whitespace-nowrap text-stone-700 ring-1 ring-stone-300 transition-colors ring-inset hover:bg-stone-100 hover:text-stone-900 disabled:cursor-progress disabled:opacity-70"
      >
        {isPending ? labels.loggingOut : labels.logout}
      </button>
      <p
        role="status"
        className={
          hasFailed
            ? 'absolute top-full right-0 z-40 mt-2 w-56 rounded-lg bg-white p-3 text-sm text-red-800 shadow-lg ring-1 ring-red-300'
            : 'sr-only'
        }
      >
        {hasFailed ? labels.logoutFailed : ''}
      </p>
    </div>
  );
}
