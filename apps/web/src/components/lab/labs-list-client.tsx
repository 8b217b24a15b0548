'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import type { TLabSummary, TLocale } from '@kubejourney/contracts';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import {
  createSandboxLab,
  deleteLab,
  describeLabFailure,
  type TLabErrorMessages,
} from '@/lib/lab-api.util';
import { formatSimTime } from '@/lib/lab-journey.util';

// "Your labs": create a sandbox (then go straight into it), open or delete one.

type TProps = {
  initialLabs: TLabSummary[];
  /** scenario id -> its title in the learner's language, to name exercise labs */
  scenarioTitles?: Readonly<Record<string, string>>;
  locale: TLocale;
  messages: TMessages['labs'];
  errorMessages: TLabErrorMessages;
};

export function LabsListClient({
  initialLabs,
  scenarioTitles = {},
  locale,
  messages,
  errorMessages,
}: TProps) {
  const router = useRouter();
  const [labs, setLabs] = useState(initialLabs);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const create = async () => {
    setBusy('create');
    setError(null);
    const result = await createSandboxLab();
    if (!result.ok) {
      setBusy(null);
      const isLimit = result.error.kind === 'api' && result.error.code === 'LIMIT_REACHED';
      setError(
        isLimit
          ? messages.limitReached
          : formatMessage(messages.createFailed, {
              reason: describeLabFailure(result.error, errorMessages),
            }),
      );
      return;
    }
    router.push(`/labs/${result.data.id}`);
  };

  const remove = async (id: string) => {
    setBusy(id);
    setError(null);
    const result = await deleteLab(id);
    setBusy(null);
    if (!result.ok) {
      setError(
        formatMessage(messages.deleteFailed, {
          reason: describeLabFailure(result.error, errorMessages),
        }),
      );
      return;
    }
    setLabs((current) => current.filter((lab) => lab.id !== id));
  };

  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div className="mt-8 flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={() => void create()}
          disabled={busy !== null}
          className="rounded-full bg-stone-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-stone-700 disabled:opacity-60"
        >
          {busy === 'create' ? messages.creating : messages.create}
        </button>
        <p role="status" className="text-sm text-stone-700">
          {busy === 'create' ? messages.creating : ''}
        </p>
      </div>
      {error && (
        <p
          role="alert"
          className="rounded-lg border border-red-600 bg-red-50 px-4 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      {labs.length === 0 ? (
        <p className="text-stone-700">{messages.empty}</p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="labs-list">
          {labs.map((lab) => (
            <li
              key={lab.id}
              className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-xl bg-white px-4 py-3 shadow-sm ring-1 ring-stone-200"
            >
              <div className="flex min-w-0 flex-1 flex-col">
                <span className="font-semibold text-stone-900">
                  {lab.kind === 'sandbox' ? messages.kindSandbox : messages.kindScenario}
                  {lab.scenarioId ? ` · ${scenarioTitles[lab.scenarioId] ?? lab.scenarioId}` : ''}
                </span>
                <span className="text-sm text-stone-600">
                  {lab.status === 'active' ? messages.statusActive : messages.statusHibernated} ·{' '}
                  {formatMessage(messages.simTime, { time: formatSimTime(lab.simTimeMs) })} ·{' '}
                  {formatMessage(messages.createdAt, {
                    date: date.format(new Date(lab.createdAt)),
                  })}
                </span>
              </div>
              <Link
                href={`/labs/${lab.id}`}
                className="rounded-full bg-stone-900 px-3.5 py-1.5 text-sm font-medium text-white hover:bg-stone-700"
              >
                {messages.open}
              </Link>
              <button
                type="button"
                onClick={() => void remove(lab.id)}
                disabled={busy !== null}
                className="rounded-full px-3 py-1.5 text-sm text-red-800 ring-1 ring-red-300 hover:bg-red-50 disabled:opacity-60"
              >
                {busy === lab.id ? messages.deleting : messages.delete}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
