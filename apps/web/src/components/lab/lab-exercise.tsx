import { formatMessage, type TMessages } from '@kubejourney/content';
import type { TLabCheckResponse, TLocale } from '@kubejourney/contracts';
import type { TScenarioSummary } from '@/lib/lab-exercise.util';
import { ExerciseCheckClient } from './exercise-check-client';
import { InlineCodeText } from './inline-code-text';

type TProps = {
  labId: string;
  scenarioId: string;
  /** null when the list could not be read: the check still works without the brief */
  scenario: TScenarioSummary | null;
  /** why the brief is missing, when the scenario list could not be read */
  loadFailure?: string;
  /** the latest graded attempt, shown until the learner checks again */
  lastCheck: TLabCheckResponse | null;
  locale: TLocale;
  messages: TMessages;
};

/** A scenario lab's lesson pane: the exercise's brief, its objectives and the check. */
export function LabExercise({
  labId,
  scenarioId,
  scenario,
  loadFailure,
  lastCheck,
  locale,
  messages,
}: TProps) {
  const { lab } = messages;
  return (
    <div className="flex flex-col gap-4 text-[15px]" data-exercise={scenarioId}>
      <header className="relative pl-4">
        <span
          aria-hidden="true"
          className="absolute inset-y-0 left-0 w-1 rounded-full bg-slate-600"
        />
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <span className="font-medium text-stone-600">{lab.exerciseKicker}</span>
          {scenario && (
            <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-800 ring-1 ring-slate-300 ring-inset">
              {formatMessage(lab.exerciseMaxScore, { points: scenario.maxScore })}
            </span>
          )}
        </div>
        <h2 className="mt-2 text-xl font-semibold tracking-tight text-balance text-stone-950">
          {scenario ? scenario.title[locale] : scenarioId}
        </h2>
        {scenario && (
          <p
            className="mt-2 leading-relaxed text-pretty text-stone-700"
            data-testid="exercise-brief"
          >
            <InlineCodeText text={scenario.brief[locale]} />
          </p>
        )}
      </header>
      {loadFailure !== undefined && (
        <p
          role="alert"
          className="rounded-lg border border-orange-500 bg-orange-50 px-3 py-2 text-sm text-orange-950"
        >
          {formatMessage(lab.exercisesUnavailable, { reason: loadFailure })}
        </p>
      )}
      {!scenario && loadFailure === undefined && (
        <p
          role="alert"
          className="rounded-lg border border-orange-500 bg-orange-50 px-3 py-2 text-sm text-orange-950"
        >
          {formatMessage(lab.exerciseMissing, { id: scenarioId })}
        </p>
      )}
      <p className="rounded-lg bg-stone-100 px-3 py-2 text-sm leading-relaxed text-stone-700">
        {lab.exerciseHowTo}
      </p>
      <ExerciseCheckClient
        labId={labId}
        objectives={scenario?.objectives ?? []}
        initialResult={lastCheck}
        locale={locale}
        messages={lab}
      />
    </div>
  );
}
