import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { LabExercise } from '@/components/lab/lab-exercise';
import { LabLesson } from '@/components/lab/lab-lesson';
import { LabViewClient } from '@/components/lab/lab-view-client';
import { findChapterStop } from '@/lib/chapter-stop.util';
import { buildLabHref, DEFAULT_LAB_CHAPTER, parseLabDeepLink } from '@/lib/lab-deep-link.util';
import { getRequestContext } from '@/server/request-context.server';
import { readLab, readLastCheck, readScenarios } from '../lab-api.server';

async function findScenario(scenarioId: string) {
  const scenarios = await readScenarios();
  return scenarios.ok ? (scenarios.data.scenarios.find((s) => s.id === scenarioId) ?? null) : null;
}

type TProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params, searchParams }: TProps): Promise<Metadata> {
  const [{ locale, messages }, { id }, query] = await Promise.all([
    getRequestContext(),
    params,
    searchParams,
  ]);
  const lab = await readLab(id);
  if (lab.ok && lab.data.kind === 'scenario' && lab.data.scenarioId) {
    const scenario = await findScenario(lab.data.scenarioId);
    const title = scenario?.title[locale] ?? lab.data.scenarioId;
    return { title: `${title} · ${messages.lab.pageTitle}` };
  }
  const slug = parseLabDeepLink(query).chapter ?? DEFAULT_LAB_CHAPTER;
  const title = findChapterStop(slug)?.stop.title[locale];
  return { title: title ? `${title} · ${messages.lab.pageTitle}` : messages.lab.pageTitle };
}

export default async function LabPage({ params, searchParams }: TProps) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const { user, locale, messages } = await getRequestContext();
  const link = parseLabDeepLink(query);
  if (!user) redirect(`/login?next=${encodeURIComponent(buildLabHref(id, link))}`);
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
  if (lab.data.kind === 'scenario' && lab.data.scenarioId) {
    // An exercise: the lesson pane is its brief and its check, never a chapter.
    const [scenarios, lastCheck] = await Promise.all([readScenarios(), readLastCheck(lab.data.id)]);
    const scenarioId = lab.data.scenarioId;
    const scenario = scenarios.ok
      ? (scenarios.data.scenarios.find((s) => s.id === scenarioId) ?? null)
      : null;
    return (
      <LabViewClient
        key={lab.data.id}
        initialView={lab.data}
        messages={messages.lab}
        lesson={
          <LabExercise
            labId={lab.data.id}
            scenarioId={scenarioId}
            scenario={scenario}
            // the learner's last attempt, so coming back shows where they left off
            lastCheck={lastCheck.ok ? lastCheck.data.last : null}
            {...(scenarios.ok ? {} : { loadFailure: scenarios.message })}
            locale={locale}
            messages={messages}
          />
        }
        lessonKey={`exercise:${scenarioId}`}
        {...(link.type ? { initialCommand: link.type } : {})}
        // On a phone the brief comes first: the learner reads what is broken, then investigates.
        initialPanel={link.type ? 'terminal' : 'lesson'}
      />
    );
  }
  // No chapter named: the departure hall, whose first command applies the sandbox's deployment.yaml.
  const slug = link.chapter ?? DEFAULT_LAB_CHAPTER;
  return (
    <LabViewClient
      key={lab.data.id}
      initialView={lab.data}
      messages={messages.lab}
      lesson={<LabLesson labId={lab.data.id} slug={slug} locale={locale} messages={messages} />}
      lessonKey={slug}
      {...(link.type ? { initialCommand: link.type } : {})}
      // On a phone, a link to a chapter opens on the lesson; a link with a command, on the terminal.
      initialPanel={link.chapter && !link.type ? 'lesson' : 'terminal'}
    />
  );
}
