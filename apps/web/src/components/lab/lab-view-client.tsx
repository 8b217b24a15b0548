'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import type { TClockRequest, TLabView, TTraceEventPayload } from '@kubejourney/contracts';
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  LabTerminalContext,
  type TLabTerminalActions,
} from '@/components/chapter/lab-terminal-context';
import { changeLabClock, describeLabFailure, resetLab } from '@/lib/lab-api.util';
import { ClusterMap } from './cluster-map';
import { JourneyTimelineClient } from './journey-timeline-client';
import { TerminalPanelClient, type TTerminalHandle } from './terminal-panel-client';
import { TimeControlsClient } from './time-controls-client';
import { useLabStream, type TStreamStatus } from './use-lab-stream';

// The lab view (UX.md): the lesson (a chapter) on the left, cluster map over the terminal on the
// right, the journey strip along the bottom. Below the lg breakpoint the four parts become tabs.
// The lesson is rendered on the server; its command lines reach the terminal through context.

export type TPanel = 'lesson' | 'terminal' | 'cluster' | 'journey';
const PANELS: readonly TPanel[] = ['lesson', 'terminal', 'cluster', 'journey'];
const MAX_EVENTS = 5000;

type TProps = {
  initialView: TLabView;
  messages: TMessages['lab'];
  lesson: ReactNode;
  /** changes when another chapter is shown, so the lesson pane scrolls back to its top */
  lessonKey: string;
  /** a command to put at the prompt once the terminal is up (?type=); never run */
  initialCommand?: string;
  /** the tab shown first on narrow screens */
  initialPanel?: TPanel;
};

function streamText(status: TStreamStatus, messages: TMessages['lab']) {
  const texts: Record<TStreamStatus, string> = {
    connecting: messages.streamConnecting,
    live: messages.streamLive,
    reconnecting: messages.streamReconnecting,
    deleted: messages.streamDeleted,
    failed: messages.streamFailed,
  };
  return texts[status];
}

export function LabViewClient({
  initialView,
  messages,
  lesson,
  lessonKey,
  initialCommand,
  initialPanel = 'terminal',
}: TProps) {
  const [view, setView] = useState(initialView);
  const [events, setEvents] = useState<TTraceEventPayload[]>([]);
  const [panel, setPanel] = useState<TPanel>(initialPanel);
  const [isJourneyOpen, setJourneyOpen] = useState(true);
  const [notice, setNotice] = useState<string | null>(null);
  const terminalRef = useRef<TTerminalHandle>(null);
  const lessonRef = useRef<HTMLElement>(null);
  const labId = initialView.id;

  const terminal = useMemo<TLabTerminalActions>(
    () => ({
      type: (command) => {
        setPanel('terminal');
        terminalRef.current?.type(command);
      },
      submit: (command) => {
        setPanel('terminal');
        terminalRef.current?.submit(command);
      },
    }),
    [],
  );

  // ?type=…: the terminal (a child) has made its session by the time this effect runs. The command
  // is typed, not run, and dropped from the address so a reload does not type it again.
  useEffect(() => {
    if (!initialCommand) return;
    terminal.type(initialCommand);
    const url = new URL(window.location.href);
    if (url.searchParams.has('type')) {
      url.searchParams.delete('type');
      window.history.replaceState(window.history.state, '', url);
    }
  }, [initialCommand, terminal]);

  useEffect(() => {
    lessonRef.current?.scrollTo({ top: 0 });
  }, [lessonKey]);

  const status = useLabStream(labId, initialView.traceSeq, {
    onTrace: (batch) =>
      setEvents((current) => {
        // After a reset, seqs keep increasing (traceSeqOffset), so append-only is safe.
        const last = current[current.length - 1]?.seq ?? 0;
        const fresh = batch.filter((event) => event.seq > last);
        return fresh.length === 0 ? current : [...current, ...fresh].slice(-MAX_EVENTS);
      }),
    onView: setView,
  });

  const onClock = async (request: TClockRequest): Promise<string | null> => {
    const result = await changeLabClock(labId, request);
    if (!result.ok) return describeLabFailure(result.error, messages);
    setView(result.data);
    return null;
  };

  const onReset = async () => {
    if (!window.confirm(messages.resetConfirm)) return;
    const result = await resetLab(labId);
    if (!result.ok) {
      setNotice(
        formatMessage(messages.resetFailed, { reason: describeLabFailure(result.error, messages) }),
      );
      return;
    }
    setNotice(null);
    setView(result.data);
  };

  const names = {
    pods: view.pods.filter((p) => p.namespace === 'default').map((p) => p.name),
    nodes: view.nodes.map((n) => n.name),
    services: view.services.filter((s) => s.namespace === 'default').map((s) => s.name),
  };
  const tabLabel: Record<TPanel, string> = {
    lesson: messages.tabLesson,
    terminal: messages.tabTerminal,
    cluster: messages.tabCluster,
    journey: messages.tabJourney,
  };
  const shown = (which: TPanel) => (panel === which ? 'flex' : 'hidden lg:flex');
  const isBad = status === 'deleted' || status === 'failed';

  return (
    <div className="flex flex-col gap-2 px-2 py-2 lg:h-[calc(100dvh-3.6rem)] lg:min-h-[640px] lg:px-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Link href="/labs" className="rounded text-stone-700 underline-offset-2 hover:underline">
          ← {messages.backToLabs}
        </Link>
        <span className="font-mono text-xs text-stone-600">{labId}</span>
        <span
          role="status"
          data-testid="stream-status"
          data-status={status}
          className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ${
            status === 'live'
              ? 'text-emerald-800 ring-emerald-300'
              : isBad
                ? 'text-red-800 ring-red-600'
                : 'text-orange-800 ring-orange-400'
          }`}
        >
          <span
            aria-hidden="true"
            className={`size-1.5 rounded-full ${status === 'live' ? 'bg-emerald-600' : isBad ? 'bg-red-600' : 'bg-orange-500'}`}
          />
          {streamText(status, messages)}
        </span>
        <button
          type="button"
          onClick={() => void onReset()}
          className="ml-auto rounded-md px-2 py-1 text-xs text-stone-700 ring-1 ring-stone-300 hover:bg-stone-100"
        >
          {messages.reset}
        </button>
      </div>
      {notice && (
        <p
          role="alert"
          className="rounded-md border border-red-600 bg-red-50 px-3 py-1.5 text-sm text-red-800"
        >
          {notice}
        </p>
      )}

      <div
        role="tablist"
        aria-label={messages.tabsLabel}
        className="grid grid-cols-4 gap-1 lg:hidden"
      >
        {PANELS.map((which) => (
          <button
            key={which}
            type="button"
            role="tab"
            aria-selected={panel === which}
            onClick={() => setPanel(which)}
            className={`rounded-md px-2 py-1.5 text-sm font-medium ${
              panel === which
                ? 'bg-stone-900 text-white'
                : 'bg-white text-stone-800 ring-1 ring-stone-300'
            }`}
          >
            {tabLabel[which]}
          </button>
        ))}
      </div>

      <div className="grid min-h-0 flex-1 grid-cols-1 gap-2 lg:grid-cols-[minmax(300px,26rem)_1fr]">
        <section
          ref={lessonRef}
          aria-label={messages.tabLesson}
          data-testid="lab-lesson"
          className={`${shown('lesson')} min-h-0 flex-col overflow-y-auto rounded-xl border border-stone-200 bg-paper p-4`}
        >
          <LabTerminalContext value={terminal}>{lesson}</LabTerminalContext>
        </section>
        <div className="flex min-h-0 flex-col gap-2">
          <section
            aria-label={messages.clusterTitle}
            className={`${shown('cluster')} min-h-0 flex-col overflow-y-auto rounded-xl border border-stone-200 bg-stone-50 p-2.5 lg:max-h-[48%] lg:flex-none`}
          >
            <h2 className="sr-only">{messages.clusterTitle}</h2>
            <ClusterMap view={view} messages={messages} />
          </section>
          <div
            className={`${shown('terminal')} h-[70dvh] min-h-[260px] flex-col lg:h-auto lg:flex-1`}
          >
            <TerminalPanelClient
              labId={labId}
              messages={messages}
              names={names}
              handleRef={terminalRef}
            />
          </div>
        </div>
      </div>

      <section
        aria-label={messages.journeyTitle}
        className={`${shown('journey')} shrink-0 flex-col gap-2 rounded-xl border border-stone-200 bg-stone-50 p-2 lg:flex-row`}
      >
        <div className="flex shrink-0 flex-col gap-2 lg:w-48">
          <button
            type="button"
            aria-expanded={isJourneyOpen}
            aria-controls="journey-body"
            onClick={() => setJourneyOpen((open) => !open)}
            title={messages.journeyToggle}
            className="flex items-center gap-1.5 self-start rounded text-sm font-semibold text-stone-900"
          >
            <span aria-hidden="true">{isJourneyOpen ? '▾' : '▸'}</span>
            {messages.journeyTitle}
          </button>
          <TimeControlsClient clock={view.clock} messages={messages} onClock={onClock} />
        </div>
        <div id="journey-body" hidden={!isJourneyOpen} className="min-w-0 flex-1">
          <JourneyTimelineClient events={events} messages={messages} />
        </div>
      </section>
    </div>
  );
}
