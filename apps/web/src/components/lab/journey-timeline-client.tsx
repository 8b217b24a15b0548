'use client';

import { COMPONENT_COLOURS, formatMessage, type TMessages } from '@kubejourney/content';
import type { TTraceEventPayload } from '@kubejourney/contracts';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';
import {
  buildJourney,
  formatObject,
  formatSimTime,
  JOURNEY_LANES,
  relatedItems,
  type TJourneyItem,
} from '@/lib/lab-journey.util';

// The journey: seven lanes, one mark per trace event (or per request, grouped), in arrival order.
// Lines join each mark to its cause; hovering or focusing a mark highlights its whole chain. The
// marks are one roving tab stop: arrow keys walk the journey, details show beside it.

const COL = 18;
const ROW = 18;
const MAX_ITEMS = 600;

/** Lane names for phone widths, where the full names would leave no room for the marks. */
const SHORT_LANES: Record<(typeof JOURNEY_LANES)[number], string> = {
  kubectl: 'kubectl',
  'kube-apiserver': 'apiserver',
  etcd: 'etcd',
  'kube-controller-manager': 'ctrl-mgr',
  'kube-scheduler': 'scheduler',
  kubelet: 'kubelet',
  'kube-proxy': 'proxy',
};

const STROKE: Record<string, string> = {
  slate: '#475569',
  green: '#16a34a',
  amber: '#d97706',
  violet: '#7c3aed',
  blue: '#2563eb',
  teal: '#0d9488',
  rose: '#e11d48',
  stone: '#44403c',
};

function familyOf(lane: string) {
  return COMPONENT_COLOURS[lane as keyof typeof COMPONENT_COLOURS] ?? 'stone';
}

type TProps = { events: readonly TTraceEventPayload[]; messages: TMessages['lab'] };

export function JourneyTimelineClient({ events, messages }: TProps) {
  const [groupRequests, setGroupRequests] = useState(true);
  const [showEventWrites, setShowEventWrites] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [hovered, setHovered] = useState<number | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const followRef = useRef(true);

  const items = useMemo(
    () => buildJourney(events, { groupRequests, showEventWrites }).slice(-MAX_ITEMS),
    [events, groupRequests, showEventWrites],
  );
  const indexOf = useMemo(() => new Map(items.map((item, i) => [item.id, i])), [items]);
  const focusId = hovered ?? selected;
  const related = useMemo(
    () => (focusId === null ? new Set<number>() : relatedItems(items, focusId)),
    [items, focusId],
  );
  const selectedItem = selected === null ? undefined : items[indexOf.get(selected) ?? -1];

  // Follow the newest marks unless the learner scrolled back to look at something.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !followRef.current) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    el.scrollTo({ left: el.scrollWidth, behavior: reduce ? 'auto' : 'smooth' });
  }, [items.length]);

  const select = (index: number) => {
    const item = items[Math.max(0, Math.min(items.length - 1, index))];
    if (!item) return;
    setSelected(item.id);
    document.getElementById(`journey-mark-${item.id}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const current = selected === null ? items.length - 1 : (indexOf.get(selected) ?? 0);
    const moves: Record<string, number> = {
      ArrowLeft: current - 1,
      ArrowRight: current + 1,
      Home: 0,
      End: items.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      select(moves[event.key] as number);
    }
  };
  const tabStop = selected ?? items[items.length - 1]?.id;

  const width = Math.max(items.length * COL + COL, 200);
  const height = JOURNEY_LANES.length * ROW;
  const laneY = (lane: string) => JOURNEY_LANES.indexOf(lane as never) * ROW + ROW / 2;
  const markY = (item: TJourneyItem) =>
    laneY(item.lane) + (item.touchesEtcd && item.isGroup ? ROW / 2 : 0);

  return (
    <div className="flex min-h-0 min-w-0 flex-1 flex-col gap-1.5 lg:flex-row">
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-stone-700">
          <span data-testid="journey-count">
            {formatMessage(messages.journeyCount, { count: events.length })}
          </span>
          <label className="flex items-center gap-1.5">
            <input
              type="checkbox"
              checked={groupRequests}
              onChange={(event) => setGroupRequests(event.target.checked)}
              className="accent-stone-800"
            />
            {messages.journeyGroupRequests}
          </label>
          <label className="flex items-center gap-1.5">
            <input
              type="checkbox"
              checked={showEventWrites}
              onChange={(event) => setShowEventWrites(event.target.checked)}
              className="accent-stone-800"
            />
            {messages.journeyShowEvents}
          </label>
        </div>
        <div className="flex min-h-0 rounded-lg border border-stone-300 bg-white">
          <ul aria-hidden="true" className="shrink-0 border-r border-stone-200 py-0 text-[11px]">
            {JOURNEY_LANES.map((lane) => (
              <li
                key={lane}
                style={{ height: ROW }}
                className={`flex items-center gap-1.5 px-2 font-mono ${COLOUR_CLASSES[familyOf(lane)].marker.split(' ')[1]}`}
              >
                <span className={`size-2 rounded-full ${COLOUR_CLASSES[familyOf(lane)].dot}`} />
                <span className="sm:hidden">{SHORT_LANES[lane]}</span>
                <span className="hidden sm:inline">{lane}</span>
              </li>
            ))}
          </ul>
          <div
            ref={scrollRef}
            className="relative min-w-0 flex-1 overflow-x-auto"
            onScroll={(event) => {
              const el = event.currentTarget;
              followRef.current = el.scrollLeft + el.clientWidth >= el.scrollWidth - COL * 2;
            }}
          >
            {items.length === 0 ? (
              <p className="p-3 text-xs text-stone-600">{messages.journeyEmpty}</p>
            ) : (
              <div
                role="listbox"
                aria-label={messages.journeyTitle}
                aria-orientation="horizontal"
                data-testid="journey-marks"
                onKeyDown={onKeyDown}
                className="relative"
                style={{ width, height }}
              >
                <svg aria-hidden="true" width={width} height={height} className="absolute inset-0">
                  {JOURNEY_LANES.map((lane, i) => (
                    <line
                      key={lane}
                      x1={0}
                      x2={width}
                      y1={i * ROW + ROW / 2}
                      y2={i * ROW + ROW / 2}
                      stroke="#e7e5e4"
                    />
                  ))}
                  {items.map((item, i) => {
                    if (item.causeId === null) return null;
                    const from = indexOf.get(item.causeId);
                    const cause = from === undefined ? undefined : items[from];
                    if (from === undefined || !cause) return null;
                    const isLit = related.has(item.id) && related.has(cause.id);
                    return (
                      <line
                        key={`c-${item.id}`}
                        x1={from * COL + COL / 2}
                        y1={markY(cause)}
                        x2={i * COL + COL / 2}
                        y2={markY(item)}
                        stroke={isLit ? '#1c1917' : '#d6d3d1'}
                        strokeWidth={isLit ? 2 : 1}
                      />
                    );
                  })}
                </svg>
                {items.map((item, i) => {
                  const family = familyOf(item.lane);
                  const isLit = related.has(item.id);
                  const isSelected = item.id === selected;
                  const span = item.isGroup && item.touchesEtcd ? ROW * 2 - 4 : 12;
                  return (
                    <button
                      key={item.id}
                      id={`journey-mark-${item.id}`}
                      type="button"
                      role="option"
                      aria-selected={isSelected}
                      tabIndex={item.id === tabStop ? 0 : -1}
                      data-lane={item.lane}
                      data-testid="journey-mark"
                      aria-label={`#${item.id} ${item.lane} ${item.events[0]?.verb ?? ''} ${formatObject(item.object)} — ${item.summary}`}
                      title={`${formatSimTime(item.t)} ${item.lane}: ${item.summary}`}
                      onClick={() => setSelected(item.id)}
                      onFocus={() => setSelected(item.id)}
                      onMouseEnter={() => setHovered(item.id)}
                      onMouseLeave={() => setHovered(null)}
                      className={`absolute rounded-full ${COLOUR_CLASSES[family].dot} ${
                        isSelected ? 'ring-2 ring-stone-900 ring-offset-1' : ''
                      } ${focusId !== null && !isLit ? 'opacity-35' : ''}`}
                      style={{
                        left: i * COL + COL / 2 - 6,
                        top: laneY(item.lane) - 6,
                        width: 12,
                        height: span,
                        background:
                          item.isGroup && item.touchesEtcd
                            ? `linear-gradient(${STROKE.green} 50%, ${STROKE.amber} 50%)`
                            : undefined,
                      }}
                    />
                  );
                })}
              </div>
            )}
          </div>
        </div>
      </div>
      <aside
        aria-label={messages.journeyDetails}
        aria-live="polite"
        data-testid="journey-details"
        className="min-h-0 w-full shrink-0 overflow-y-auto rounded-lg border border-stone-300 bg-white p-2 text-xs lg:w-80"
      >
        {selectedItem ? (
          <Details item={selectedItem} messages={messages} />
        ) : (
          <p className="text-stone-600">{messages.journeyNoSelection}</p>
        )}
      </aside>
    </div>
  );
}

function Details({ item, messages }: { item: TJourneyItem; messages: TMessages['lab'] }) {
  const first = item.events[0];
  const colour = COLOUR_CLASSES[familyOf(item.lane)];
  return (
    <div className="flex flex-col gap-1">
      <p className="flex flex-wrap items-center gap-1.5">
        <span className={`rounded px-1.5 py-0.5 font-mono ring-1 ${colour.chip}`}>{item.lane}</span>
        {first?.node && <span className="font-mono text-stone-700">{first.node}</span>}
        <span className="font-mono text-stone-800">{first?.verb}</span>
        <span className="text-stone-600">
          #{item.id} · {formatMessage(messages.journeyTime, { time: formatSimTime(item.t) })}
        </span>
      </p>
      {item.object && <p className="font-mono text-stone-900">{formatObject(item.object)}</p>}
      <p className="text-stone-900">{item.summary}</p>
      {first?.causedBy !== undefined && (
        <p className="text-stone-600">
          {formatMessage(messages.journeyCausedBy, { seq: first.causedBy })}
        </p>
      )}
      {item.isGroup && item.events.length > 1 && (
        <details className="mt-1">
          <summary className="cursor-pointer text-stone-800">
            {formatMessage(messages.journeySteps, { count: item.events.length })}
          </summary>
          <ol className="mt-1 flex flex-col gap-0.5">
            {item.events.map((event) => (
              <li key={event.seq} className="font-mono text-[11px] text-stone-800">
                <span className="text-stone-600">{formatSimTime(event.t)}</span> {event.component}{' '}
                {event.verb}: {event.message}
              </li>
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}
