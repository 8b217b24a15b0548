import { formatMessage } from '@kubejourney/content';
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ExercisesListClient } from '@/components/lab/exercises-list-client';
import { LabsListClient } from '@/components/lab/labs-list-client';
import { getRequestContext } from '@/server/request-context.server';
import { readLabs, readScenarios } from './lab-api.server';

export async function generateMetadata(): Promise<Metadata> {
  const { messages } = await getRequestContext();
  return { title: messages.labs.title };
}

export default async function LabsPage() {
  const { user, locale, messages } = await getRequestContext();
  if (!user) redirect('/login?next=%2Flabs');
  const [labs, scenarios] = await Promise.all([readLabs(), readScenarios()]);
  const scenarioTitles = scenarios.ok
    ? Object.fromEntries(scenarios.data.scenarios.map((s) => [s.id, s.title[locale]]))
    : {};

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight text-stone-950">
        {messages.labs.title}
      </h1>
      <p className="mt-3 max-w-2xl text-lg leading-relaxed text-stone-700">{messages.labs.lede}</p>
      {labs.ok ? (
        <LabsListClient
          initialLabs={labs.data.labs}
          scenarioTitles={scenarioTitles}
          locale={locale}
          messages={messages.labs}
          errorMessages={messages.lab}
        />
      ) : (
        <p
          role="alert"
          className="mt-8 rounded-lg border border-red-600 bg-red-50 px-4 py-3 text-red-800"
        >
          {formatMessage(messages.labs.loadFailed, { reason: labs.message })}
        </p>
      )}
      <section aria-labelledby="exercises-title" className="mt-12">
        <h2 id="exercises-title" className="text-2xl font-semibold tracking-tight text-stone-950">
          {messages.labs.exercisesTitle}
        </h2>
        <p className="mt-2 mb-4 max-w-2xl leading-relaxed text-stone-700">
          {messages.labs.exercisesLede}
        </p>
        {scenarios.ok ? (
          <ExercisesListClient
            scenarios={scenarios.data.scenarios}
            locale={locale}
            messages={messages.labs}
            errorMessages={messages.lab}
          />
        ) : (
          <p
            role="alert"
            className="rounded-lg border border-red-600 bg-red-50 px-4 py-3 text-red-800"
          >
            {formatMessage(messages.labs.exercisesLoadFailed, { reason: scenarios.message })}
          </p>
        )}
      </section>
    </div>
  );
}
