import { EventEmitter } from 'node:events';
import type { TLabNotice } from '@kubejourney/contracts';
import type { TLabHeader, TLabTraceRecord } from '@kubejourney/db';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import type { LabEventsRepository } from './lab-events.repository';
import { LabStreamService } from './lab-stream.service';
import type { TLabsConfig } from './labs.config';
import type { LabsRepository } from './labs.repository';
import type { LabsService } from './labs.service';

// The stream's backpressure, with the socket replaced by a fake whose unsent bytes the test
// sets: a slow reader must never make the server queue events for it, and must miss nothing.

const event = (seq: number): TLabTraceRecord => ({
  seq,
  t: seq * 10,
  component: 'kubelet',
  verb: 'x',
  message: `event ${seq}`,
});

class FakeResponse extends EventEmitter {
  frames: string[] = [];
  /** unsent bytes, as the test wants them */
  writableLength = 0;
  isEnded = false;
  writeHead(): this {
    return this;
  }
  write(frame: string): boolean {
    this.frames.push(frame);
    return true;
  }
  end(): void {
    this.isEnded = true;
  }
}

function setup(stallMs = 60_000) {
  const stored: TLabTraceRecord[] = Array.from({ length: 10 }, (_v, i) => event(i + 1));
  let listener: ((notice: TLabNotice) => void) | undefined;
  const labs = {
    findOwned: async () => ({ traceSeq: 0 }) as TLabHeader,
    readTraceAfter: async (_id: string, after: number, limit: number) =>
      stored.filter((e) => e.seq > after).slice(0, limit),
  } as unknown as LabsRepository;
  const service = { view: async () => ({ id: 'lab' }) } as unknown as LabsService;
  const events = {
    subscribe: async (_id: string, fn: (notice: TLabNotice) => void) => {
      listener = fn;
      return async () => undefined;
    },
  } as unknown as LabEventsRepository;
  const config = {
    sseHeartbeatMs: 60_000,
    sseMaxBufferedBytes: 1_000,
    sseStallMs: stallMs,
  } as TLabsConfig;
  const response = new FakeResponse();
  const request = new EventEmitter();
  const streams = new LabStreamService(labs, service, events, config);
  const publish = (seqs: number[]) => {
    const fresh = seqs.map(event);
    stored.push(...fresh);
    listener!({ type: 'changed', revision: 1, simTimeMs: 0, events: fresh, objectsChanged: true });
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  const traceSeqs = () =>
    response.frames
      .filter((f) => f.includes('event: trace'))
      .map((f) => Number(/^id: (\d+)/.exec(f)![1]));
  const start = () =>
    streams.stream('u', 'lab', null, request as Request, response as unknown as Response);
  return { response, request, publish, settle, traceSeqs, start };
}

describe('lab stream backpressure', () => {
  it('should drop notices and resync from storage when the socket is over its bound', async () => {
    const s = setup();
    await s.start();
    await s.settle();
    expect(s.traceSeqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    s.response.writableLength = 5_000;
    const written = s.response.frames.length;
    s.publish([11, 12]);
    s.publish([13, 14]);
    await s.settle();
    // nothing more went to the socket while it was over the bound
    expect(s.response.frames.length).toBe(written);
    s.response.writableLength = 0;
    s.response.emit('drain');
    await s.settle();
    const after = s.response.frames.slice(written);
    expect(after[0]).toBe('event: resync\ndata: {"afterSeq":10}\n\n');
    expect(s.traceSeqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(after.at(-1)).toMatch(/^event: view\n/);
    // and it follows live notices again
    s.publish([15]);
    await s.settle();
    expect(s.traceSeqs().at(-1)).toBe(15);
    s.request.emit('close');
  });

  it('should close the stream when its client stays stalled', async () => {
    const s = setup(50);
    await s.start();
    await s.settle();
    s.response.writableLength = 5_000;
    s.publish([11]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(s.response.isEnded).toBe(true);
    expect(s.traceSeqs()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
