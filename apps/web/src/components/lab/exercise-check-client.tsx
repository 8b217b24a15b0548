'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import type { TLabCheckResponse, TLocale } from '@kubejourney/contracts';
import { useState } from 'react';
import { checkLabScenario, describeLabFailure } from '@/lib/lab-api.util';
import {
  mergeObjectiveResults,
  type TObjectiveStatus,
  type TScenarioSummary,
} from '@/lib/lab-exercise.util';
import { formatSimTime } from '@/lib/lab-journey.util';
import { InlineCodeText } from './inline-code-text';

// The objectives and "Check my fix". The server grades the cluster (the browser never sends a
// score); the result replaces the objectives' states and shows the hints for those not met.

type TProps = {
  labId: string;
  objectives: TScenarioSummary['objectives'];
  /** the latest attempt read with the page (null: never checked) */
  initialResult: TLabCheckResponse | null;
  locale: TLocale;
  messages: TMessages['lab'];
};

const STATUS_MARK: Record<TObjectiveStatus, { icon: string; className: string }> = {
  unchecked: { icon: '○', className: 'text-stone-500' },
  passed: { icon: '✓', className: 'text-emerald-700' },
  failed: { icon: '✗', className: 'text-red-700' },
};

export function ExerciseCheckClient({
  labId,
  objectives,
  initialResult,
  locale,
  messages,
}: TProps) {
  const [result, setResult] = useState<TLabCheckResponse | null>(initialResult);
  const [isChecking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const check = async () => {
    setChecking(true);
    setError(null);
    const response = await checkLabScenario(labId);
    setChecking(false);
    if (!response.ok) {
      setError(
        formatMessage(messages.checkFailed, {
          reason: describeLabFailure(response.error, messages),
        }),
      );
      return;
    }
    setResult(response.data);
  };

  const states = mergeObjectiveResults(objectives, result);
  const statusText: Record<TObjectiveStatus, string> = {
    unchecked: messages.objectiveUnchecked,
    passed: messages.objectivePassed,
    failed: messages.objectiveFailed,
  };

  return (
    <div className="flex flex-col gap-4" aria-busy={isChecking}>
      <div className="flex flex-col gap-2">
        <button
          type="button"
          onClick={() => void check()}
          disabled={isChecking}
          data-testid="exercise-check"
          className="self-start rounded-full bg-stone-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-stone-700 disabled:opacity-60"
        >
          {isChecking ? messages.checking : messages.checkFix}
        </button>
        <div aria-live="polite" aria-atomic="true" data-testid="exercise-result">
          {isChecking && <p className="sr-only">{messages.checking}</p>}
          {!isChecking && error && (
            <p className="rounded-md border border-red-600 bg-red-50 px-3 py-2 text-sm text-red-800">
              {error}
            </p>
          )}
          {!isChecking && !error && result && (
            <div
              data-passed={result.passed}
              className={`rounded-lg border px-3 py-2 ${
                result.passed
                  ? 'border-emerald-600 bg-emerald-50 text-emerald-900'
                  : 'border-orange-500 bg-orange-50 text-orange-950'
              }`}
            >
              <p className="font-semibold">
                {formatMessage(result.passed ? messages.checkPassed : messages.checkNotYet, {
                  score: result.score,
                  maxScore: result.maxScore,
                })}
              </p>
              <p className="mt-0.5 text-sm">
                {formatMessage(messages.checkAttempt, {
                  attempt: result.attempt,
                  time: formatSimTime(result.simTimeMs),
                })}
              </p>
            </div>
          )}
        </div>
      </div>
      <section aria-labelledby="exercise-objectives">
        <h3 id="exercise-objectives" className="font-semibold text-stone-950">
          {messages.exerciseObjectives}
        </h3>
        <ul className="mt-2 flex flex-col gap-2" data-testid="exercise-objectives">
          {states.map((objective) => {
            const mark = STATUS_MARK[objective.status];
            return (
              <li
                key={objective.id}
                data-objective={objective.id}
                data-status={objective.status}
                className={`rounded-lg bg-white px-3 py-2 ring-1 ${
                  objective.status === 'failed' ? 'ring-red-300' : 'ring-stone-200'
                }`}
              >
                <div className="flex items-start gap-2">
                  <span aria-hidden="true" className={`mt-px font-semibold ${mark.className}`}>
                    {mark.icon}
                  </span>
                  <span className="flex-1 text-stone-900">{objective.text[locale]}</span>
                  <span className="shrink-0 text-sm text-stone-600 tabular-nums">
                    {formatMessage(messages.objectivePoints, { points: objective.points })}
                  </span>
                </div>
                <p className={`mt-0.5 pl-5 text-xs font-medium ${mark.className}`}>
                  {statusText[objective.status]}
                </p>
                {objective.hint && (
                  <p
                    data-testid="objective-hint"
                    className="mt-2 ml-5 rounded-md border-l-4 border-orange-400 bg-orange-50 px-3 py-2 text-sm leading-relaxed text-stone-800"
                  >
                    <span className="font-semibold text-orange-900">
                      {messages.objectiveHint}:{' '}
                    </span>
                    <InlineCodeText
                      text={objective.hint[locale]}
                      typeLabel={messages.typeCommand}
                    />
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
