'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import type { TLocale } from '@kubejourney/contracts';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { createScenarioLab, describeLabFailure, type TLabErrorMessages } from '@/lib/lab-api.util';
import { readLimitReached, type TScenarioSummary } from '@/lib/lab-exercise.util';
import { InlineCodeText } from './inline-code-text';

// "Exercises": the break-fix scenarios. Start creates a lab that arrives already broken and goes
// straight into it, where the lesson pane becomes the exercise's brief and its check.

type TProps = {
  scenarios: TScenarioSummary[];
  locale: TLocale;
  messages: TMessages['labs'];
  errorMessages: TLabErrorMessages;
};

export function ExercisesListClient({ scenarios, locale, messages, errorMessages }: TProps) {
  const router = useRouter();
  const [starting, setStarting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const start = async (scenarioId: string) => {
    setStarting(scenarioId);
    setError(null);
    const result = await createScenarioLab(scenarioId);
    if (!result.ok) {
      setStarting(null);
      const limit = readLimitReached(result.error);
      setError(
        limit !== null
          ? formatMessage(messages.exerciseLimitReached, { reason: limit })
          : formatMessage(messages.exerciseStartFailed, {
              reason: describeLabFailure(result.error, errorMessages),
            }),
      );
      return;
    }
    // Stays "starting" until the lab page replaces this one.
    router.push(`/labs/${result.data.id}`);
  };

  if (scenarios.length === 0) return <p className="text-stone-700">{messages.exercisesEmpty}</p>;
  return (
    <div className="flex flex-col gap-3">
      {/* the Start button itself says that it is working; this tells screen readers too */}
      <p role="status" className="sr-only">
        {starting !== null ? messages.exerciseStarting : ''}
      </p>
      {error && (
        <p
          role="alert"
          data-testid="exercise-start-error"
          className="rounded-lg border border-red-600 bg-red-50 px-4 py-2 text-sm text-red-800"
        >
          {error}
        </p>
      )}
      <ul className="grid gap-3 sm:grid-cols-2" data-testid="exercises-list">
        {scenarios.map((scenario) => {
          const title = scenario.title[locale];
          return (
            <li
              key={scenario.id}
              data-scenario={scenario.id}
              className="relative flex flex-col gap-2 rounded-xl bg-white py-3 pr-4 pl-5 shadow-sm ring-1 ring-stone-200"
            >
              <span
                aria-hidden="true"
                className="absolute inset-y-3 left-0 w-1 rounded-full bg-slate-600"
              />
              <h3 className="font-semibold text-balance text-stone-950">{title}</h3>
              <p className="text-sm leading-relaxed text-pretty text-stone-700">
                <InlineCodeText text={scenario.brief[locale]} />
              </p>
              <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-2 pt-1">
                <span className="text-sm text-stone-600">
                  {formatMessage(messages.exerciseMaxScore, { points: scenario.maxScore })} ·{' '}
                  {formatMessage(messages.exerciseObjectiveCount, {
                    count: scenario.objectives.length,
                  })}
                </span>
                <button
                  type="button"
                  onClick={() => void start(scenario.id)}
                  disabled={starting !== null}
                  aria-label={formatMessage(messages.exerciseStartLabel, { title })}
                  className="ml-auto rounded-full bg-stone-900 px-3.5 py-1.5 text-sm font-semibold text-white hover:bg-stone-700 disabled:opacity-60"
                >
                  {starting === scenario.id ? messages.exerciseStarting : messages.exerciseStart}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
