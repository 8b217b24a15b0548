'use client';

import {
  LAB_SSE_EVENTS,
  ZLabView,
  ZTraceEventPayload,
  type TLabView,
  type TTraceEventPayload,
} from '@kubejourney/contracts';
import { useEffect, useRef, useState } from 'react';

// The lab's live feed: GET /api/labs/:id/stream. The browser's EventSource reconnects by itself
// and sends Last-Event-ID; when it gives up (the server answered an error, the proxy dropped the
// connection for good) we open a new one with ?since=<last seq>, with a growing delay.

export type TStreamStatus = 'connecting' | 'live' | 'reconnecting' | 'deleted' | 'failed';

type THandlers = {
  onTrace: (events: TTraceEventPayload[]) => void;
  onView: (view: TLabView) => void;
};

/** How much history a freshly opened view replays into the journey timeline. */
const REPLAY_EVENTS = 400;
const MAX_RETRIES = 8;

export function useLabStream(labId: string, initialTraceSeq: number, handlers: THandlers) {
  const [status, setStatus] = useState<TStreamStatus>('connecting');
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  useEffect(() => {
    let lastSeq = Math.max(0, initialTraceSeq - REPLAY_EVENTS);
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let retries = 0;
    let isStopped = false;
    // Trace events arrive in bursts: hand them over once per animation frame.
    let pending: TTraceEventPayload[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      const batch = pending;
      pending = [];
      if (batch.length > 0) handlersRef.current.onTrace(batch);
    };

    const open = () => {
      if (isStopped) return;
      source = new EventSource(`/api/labs/${encodeURIComponent(labId)}/stream?since=${lastSeq}`);
      source.onopen = () => {
        retries = 0;
        setStatus('live');
      };
      source.addEventListener(LAB_SSE_EVENTS.trace, (message) => {
        const parsed = ZTraceEventPayload.safeParse(JSON.parse((message as MessageEvent).data));
        if (!parsed.success || parsed.data.seq <= lastSeq) return;
        lastSeq = parsed.data.seq;
        pending.push(parsed.data);
        if (!frame) frame = requestAnimationFrame(flush);
      });
      source.addEventListener(LAB_SSE_EVENTS.view, (message) => {
        const parsed = ZLabView.safeParse(JSON.parse((message as MessageEvent).data));
        if (parsed.success) handlersRef.current.onView(parsed.data);
      });
      source.addEventListener(LAB_SSE_EVENTS.deleted, () => {
        isStopped = true;
        source?.close();
        setStatus('deleted');
      });
      source.onerror = () => {
        if (isStopped) return;
        if (source?.readyState === EventSource.CONNECTING) {
          setStatus('reconnecting');
          return;
        }
        // Closed for good: the browser will not retry this one.
        source?.close();
        retries += 1;
        if (retries > MAX_RETRIES) {
          setStatus('failed');
          return;
        }
        setStatus('reconnecting');
        retryTimer = setTimeout(open, Math.min(15_000, 500 * 2 ** retries));
      };
    };
    open();
    return () => {
      isStopped = true;
      clearTimeout(retryTimer);
      if (frame) cancelAnimationFrame(frame);
      source?.close();
    };
  }, [labId, initialTraceSeq]);

  return status;
}
