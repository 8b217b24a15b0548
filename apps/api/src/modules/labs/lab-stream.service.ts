import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { LAB_SSE_EVENTS, type TLabNotice } from '@kubejourney/contracts';
import type { TLabTraceRecord } from '@kubejourney/db';
import type { Request, Response } from 'express';
import { DomainError } from '../../common/domain-error';
import { LabEventsRepository } from './lab-events.repository';
import { LABS_CONFIG, type TLabsConfig } from './labs.config';
import { LabsRepository } from './labs.repository';
import { LabsService } from './labs.service';

const REPLAY_PAGE = 1_000;
/** view events are coalesced: at most one per this many ms per stream */
const VIEW_EVERY_MS = 200;

/**
 * GET /api/labs/:id/stream — server-sent events. `trace` events carry `id: <seq>`; a client that
 * reconnects with Last-Event-ID gets every stored event after it from the database, then follows
 * the lab's Redis channel. Notices may arrive out of order (two writers publish after their own
 * commits) or be lost (Redis restart): any gap in seqs is filled from the database, so the stream
 * is always complete and in order. `view` events carry the fresh view model after changes.
 *
 * Backpressure: the database is the buffer, never the socket. When a client reads too slowly
 * and the socket holds more than `sseMaxBufferedBytes`, notices are dropped instead of queued;
 * once the socket drains, a `resync` event is sent and the missed events follow from the
 * database, then a fresh view. A client that stays stalled for `sseStallMs` is disconnected
 * (it reconnects with Last-Event-ID and misses nothing).
 */
@Injectable()
export class LabStreamService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(LabStreamService.name);
  /** the open streams' close functions */
  private readonly open = new Set<() => void>();

  constructor(
    private readonly labs: LabsRepository,
    private readonly service: LabsService,
    private readonly events: LabEventsRepository,
    @Inject(LABS_CONFIG) private readonly config: TLabsConfig,
  ) {}

  async stream(
    ownerId: string,
    labId: string,
    resumeAfter: number | null,
    request: Request,
    response: Response,
  ): Promise<void> {
    const header = await this.labs.findOwned(labId, ownerId);
    if (!header) throw new DomainError('NOT_FOUND', 'Lab not found');

    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    response.write('retry: 2000\n\n');

    let lastSent = resumeAfter ?? header.traceSeq;
    let isClosed = false;
    let chain: Promise<void> = Promise.resolve();
    let viewTimer: NodeJS.Timeout | undefined;
    let lastViewAt = 0;
    let isLagging = false;
    const drainWaiters = new Set<() => void>();
    const subscription: { off?: () => Promise<void> } = {};

    const write = (frame: string) => {
      if (!isClosed) response.write(frame);
    };
    const isOverBound = () => response.writableLength > this.config.sseMaxBufferedBytes;
    /** Resolves once the socket is under the bound again; closes the stream if it never is. */
    const belowBound = () =>
      new Promise<void>((resolve) => {
        if (isClosed || !isOverBound()) return resolve();
        const done = () => {
          clearTimeout(stall);
          response.off('drain', onDrain);
          drainWaiters.delete(done);
          resolve();
        };
        const onDrain = () => {
          if (!isOverBound()) done();
        };
        const stall = setTimeout(() => {
          this.logger.warn(`lab stream ${labId}: client stalled, closing`);
          done();
          close();
        }, this.config.sseStallMs);
        drainWaiters.add(done);
        response.on('drain', onDrain);
      });
    /** From a dropped notice on: wait for the socket, then send what was missed, from storage. */
    const resync = async () => {
      await belowBound();
      if (isClosed) return;
      isLagging = false;
      write(`event: ${LAB_SSE_EVENTS.resync}\ndata: ${JSON.stringify({ afterSeq: lastSent })}\n\n`);
      await fillFromDatabase();
      await sendView();
    };
    const sendTrace = (events: TLabTraceRecord[]) => {
      for (const event of events) {
        if (event.seq <= lastSent) continue;
        write(
          `id: ${event.seq}\nevent: ${LAB_SSE_EVENTS.trace}\ndata: ${JSON.stringify(event)}\n\n`,
        );
        lastSent = event.seq;
      }
    };
    /** Sends every stored event after lastSent up to `upTo` (all when omitted). */
    const fillFromDatabase = async (upTo = Number.MAX_SAFE_INTEGER) => {
      for (;;) {
        const page = await this.labs.readTraceAfter(labId, lastSent, REPLAY_PAGE);
        sendTrace(page.filter((e) => e.seq <= upTo));
        if (page.length < REPLAY_PAGE || lastSent >= upTo) return;
        // a long replay goes out page by page, as fast as the client reads
        await belowBound();
        if (isClosed) return;
      }
    };
    const sendView = async () => {
      // a view dropped here is sent again after the resync
      if (isLagging || isOverBound()) return;
      lastViewAt = Date.now();
      const view = await this.service.view(ownerId, labId);
      write(`event: ${LAB_SSE_EVENTS.view}\ndata: ${JSON.stringify(view)}\n\n`);
    };
    const scheduleView = () => {
      if (viewTimer) return;
      const wait = Math.max(0, lastViewAt + VIEW_EVERY_MS - Date.now());
      viewTimer = setTimeout(() => {
        viewTimer = undefined;
        enqueue(sendView);
      }, wait);
    };
    const close = () => {
      if (isClosed) return;
      isClosed = true;
      this.open.delete(close);
      clearInterval(heartbeat);
      clearTimeout(viewTimer);
      for (const done of [...drainWaiters]) done();
      void subscription.off?.();
      response.end();
    };
    const enqueue = (step: () => Promise<void> | void) => {
      chain = chain
        .then(() => (isClosed ? undefined : step()))
        .catch((error: unknown) => {
          this.logger.warn(`lab stream ${labId} closed: ${String(error)}`);
          close();
        });
    };
    const onNotice = async (notice: TLabNotice) => {
      if (notice.type === 'deleted') {
        write(`event: ${LAB_SSE_EVENTS.deleted}\ndata: {}\n\n`);
        close();
        return;
      }
      const first = notice.events[0];
      if (first && first.seq > lastSent + 1) await fillFromDatabase(first.seq - 1);
      sendTrace(notice.events);
      scheduleView();
    };

    const heartbeat = setInterval(() => {
      if (!isOverBound()) write(': ping\n\n');
    }, this.config.sseHeartbeatMs);
    request.on('close', close);
    this.open.add(close);
    const unsubscribe = await this.events.subscribe(labId, (notice) => {
      if (notice.type !== 'deleted' && (isLagging || isOverBound())) {
        // Neither the socket nor this queue holds events for a slow reader: drop the notice
        // (its events are stored) and catch up from the database once the socket drains.
        if (!isLagging) {
          isLagging = true;
          enqueue(resync);
        }
        return;
      }
      // Queue behind whatever is being sent, so events leave in seq order.
      enqueue(() => onNotice(notice));
    });
    subscription.off = unsubscribe;
    if (isClosed) {
      await unsubscribe();
      return;
    }
    // Subscribed first, then replayed: nothing committed in between can be missed.
    enqueue(() => fillFromDatabase());
    enqueue(sendView);
  }

  /**
   * A server going down ends its streams first: the HTTP server waits for every open connection
   * before it closes, and a stream never ends by itself. Clients reconnect (the stream says
   * `retry: 2000`) with Last-Event-ID and miss nothing.
   */
  beforeApplicationShutdown(): void {
    for (const close of [...this.open]) close();
  }
}
