'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import type { TClockRequest, TLabClock } from '@kubejourney/contracts';
import { useState } from 'react';
import { formatSimTime } from '@/lib/lab-journey.util';

// Pause / resume / step / speed, and the simulated clock. Each button says when it is working and
// what went wrong; the clock itself is updated by the live view events.

const SPEEDS = [0.25, 0.5, 1, 2, 5, 10] as const;
const STEPS = [
  { ms: 100, label: '100 ms' },
  { ms: 1000, label: '1 s' },
] as const;

type TProps = {
  clock: TLabClock;
  messages: TMessages['lab'];
  onClock: (request: TClockRequest) => Promise<string | null>;
};

export function TimeControlsClient({ clock, messages, onClock }: TProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = async (key: string, request: TClockRequest) => {
    setBusy(key);
    setError(null);
    const failure = await onClock(request);
    setBusy(null);
    if (failure) setError(formatMessage(messages.clockFailed, { reason: failure }));
  };

  const state = clock.paused
    ? messages.clockPaused
    : clock.quiescent
      ? messages.clockIdle
      : messages.clockRunning;
  const button =
    'rounded-md px-2 py-1 text-xs font-semibold ring-1 ring-stone-300 bg-white text-stone-800 hover:bg-stone-100 disabled:opacity-60';

  return (
    <div className="flex w-full flex-col gap-1.5" aria-busy={busy !== null}>
      <p className="flex items-baseline justify-between gap-2">
        <span className="text-xs text-stone-600">{messages.clockLabel}</span>
        <span className="text-xs text-stone-700" data-testid="clock-state">
          {state}
        </span>
      </p>
      <output
        data-testid="sim-clock"
        aria-label={messages.clockLabel}
        className="font-mono text-lg font-semibold text-stone-900 tabular-nums"
      >
        {formatSimTime(clock.simTimeMs)}
      </output>
      <div className="flex flex-wrap gap-1">
        <button
          type="button"
          className={button}
          disabled={busy !== null}
          aria-pressed={clock.paused}
          onClick={() => void send('pause', { action: clock.paused ? 'resume' : 'pause' })}
        >
          {clock.paused ? `▶ ${messages.resume}` : `❚❚ ${messages.pause}`}
        </button>
        {STEPS.map((step) => (
          <button
            key={step.ms}
            type="button"
            className={button}
            disabled={busy !== null}
            onClick={() => void send(`step-${step.ms}`, { action: 'step', ms: step.ms })}
          >
            {formatMessage(messages.step, { amount: step.label })}
          </button>
        ))}
      </div>
      <label className="flex items-center gap-2 text-xs text-stone-700">
        {messages.speed}
        <select
          value={String(clock.speed)}
          disabled={busy !== null}
          onChange={(event) => void send('speed', { speed: Number(event.target.value) })}
          className="rounded-md border border-stone-300 bg-white px-1.5 py-0.5 font-mono text-xs text-stone-900"
        >
          {SPEEDS.map((speed) => (
            <option key={speed} value={String(speed)}>
              {speed}×
            </option>
          ))}
        </select>
      </label>
      <p role="status" className="min-h-4 text-xs">
        {busy !== null && <span className="text-stone-600">…</span>}
        {error && <span className="font-semibold text-red-700">{error}</span>}
      </p>
    </div>
  );
}
