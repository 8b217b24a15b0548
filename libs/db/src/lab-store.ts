import { randomUUID } from 'node:crypto';
import { LabCache } from './lab-cache';
import { keyspaceDigest, partsDigest } from './lab-digest';
import { catchUp, reanchor, type TLabClockState } from './lab-clock';
import type { TDb, TLabDatabase } from './lab-sql';
import {
  deleteLabObjects,
  insertLab,
  loadCoreState,
  loadLabCommands,
  loadLabObjects,
  loadLabStateParts,
  lockLab,
  loadLabDigests,
  lockOwnerAndCountLabs,
  persistLabChanges,
  readRecentTrace,
  type TLabCommandRecord,
  type TLabHeader,
  type TLabImageTrace,
  type TLabKindDb,
  type TLabObjectRecord,
  type TLabStateUpdate,
  type TLabStatusDb,
  type TLabTraceRecord,
} from './lab.repository';
import { mergeLabValue, splitLabValue, type TLabSnapshotParts } from './lab-snapshot';

// The one place a lab changes: lock the row (one writer per lab across processes) → restore the
// simulator (or take it from the in-process cache at the locked revision) → let the caller act
// (tick, command, clock) → persist only what changed, in the same transaction → cache the
// instance at its new revision. The API (exec, clock, reset) and the worker (tick, hibernate)
// all go through here.

/** The parts of libs/sim's `Lab` the store relies on (the real `Lab` satisfies it). */
export interface TSimAdvance {
  now: number;
  changedKeys: string[];
  deletedKeys: string[];
  quiescent: boolean;
}

export interface TSimLab {
  readonly now: number;
  /**
   * the lab's etcd: a write reads the keys `advance` reported changed from it; a cached instance
   * brought up to date compares its whole keyspace (`range('')`) with the stored one
   */
  readonly etcd: {
    get(key: string): TLabObjectRecord | undefined;
    range(prefix: string): TLabObjectRecord[];
  };
  advance(ms: number): TSimAdvance;
  nextWakeAt(): number | null;
  trace(sinceSeq?: number): TLabTraceRecord[];
  /**
   * The lab as JSON text; with `keyspace: false, traceEvents: false` without etcd's keys and the
   * trace events (the store keeps those per row and learns what changed from `advance`).
   */
  serialize(options?: { keyspace?: boolean; traceEvents?: boolean }): string;
  /** the value `serialize` stringifies (read at once, never changed) */
  serializeState(options?: { keyspace?: boolean; traceEvents?: boolean }): unknown;
  /** drops all but the newest `keep` trace events from memory (the store has them all) */
  forgetTrace?(keep: number): void;
}

export interface TLabBlueprint {
  kind: TLabKindDb;
  scenarioId: string | null;
  seed: number;
}

/** How labs come to life; the apps bind it to libs/sim (libs/content `simLabEngine`). */
export interface TLabEngine<L extends TSimLab> {
  /** null when the blueprint names a scenario that does not exist */
  create(blueprint: TLabBlueprint): L | null;
  restore(serialized: string): L;
  /**
   * restore of the value the serialized text parses to, which the store builds fresh and never
   * touches again (so the lab may keep it); saves printing a whole lab and parsing it back.
   */
  restoreValue?(value: unknown): L;
  /**
   * Runs a recorded command line again, as `POST /exec` ran it, on an instance in the state it
   * ran on; returns the terminal state after it. Without it, a process whose copy of a lab is
   * one command behind restores the lab from its rows.
   */
  replayCommand?(
    lab: L,
    command: { input: string; kind: TLabKindDb },
    terminalState: string | null,
    advance: (ms: number) => unknown,
  ): string;
  /**
   * For a lab just created from a boot image: the image's identity and how many trace events
   * it starts with (seqs 1..traceSeq, the same in every lab of that image). The store keeps
   * those events once per image instead of once per lab. Null (or no hook): all are the lab's.
   */
  bootImageTrace?(lab: L): TLabImageTrace | null;
}

export interface TLabStoreOptions {
  /** the most simulated time one write replays to catch up with the wall clock */
  maxCatchUpMs: number;
  /** trace events a restored lab gets back in memory (the rest stay in the database) */
  restoreTraceEvents: number;
  /** restored labs kept per process */
  cacheSize: number;
  /** wall clock, injectable for tests */
  now?: () => number;
}

export interface TLabCommit {
  revision: number;
  simTimeMs: number;
  /** trace events committed by this write, in seq order */
  events: TLabTraceRecord[];
  objectsChanged: boolean;
  /** the lab still converges or has a timer pending, and its clock runs: keep ticking it */
  needsTicks: boolean;
  header: TLabHeader;
}

export type TLabWriteResult<T> =
  { kind: 'not-found' } | { kind: 'busy' } | { kind: 'ok'; result: T; commit: TLabCommit | null };

/**
 * A restored lab with the state-part texts last persisted for it, so a write finds which parts
 * changed by comparison. Etcd keys need no such record: the simulator's etcd reports every key
 * it put or deleted (requests, controllers, faults, snapshot restores alike) and `advance`
 * hands them over, so a write reads exactly those keys.
 */
interface TCachedLab<L> {
  lab: L;
  parts: Map<string, string>;
  /** the row's traceSeqOffset when cached (a reset changes it: the instance is another cluster) */
  traceSeqOffset: number;
  /** the row's commandSeq when cached (a command elsewhere since: not worth replaying) */
  commandSeq: number;
}

/**
 * The most simulated time a cached instance replays to reach a revision another process wrote
 * (see `replay`); further behind, restoring from the rows costs less than advancing.
 */
const REPLAY_MAX_MS = 2_000;

/** The most commands another process recorded that a cached instance runs again (see `replay`). */
const REPLAY_MAX_COMMANDS = 20;

/**
 * Trace events a cached lab may hold in memory beyond what it was restored with. They are all
 * persisted already and nothing reads them back from memory (a write serializes the lab without
 * them), but the simulator keeps up to 50,000 per lab: past this many the instance forgets all
 * but `restoreTraceEvents` of them (or, if it cannot, is dropped after its write and restored
 * by the next), so a process holding many labs stays small.
 */
const TRACE_SLACK_EVENTS = 500;

/** What `persist` asks the simulator to serialize: everything but the keyspace and trace events. */
const CORE_ONLY = { keyspace: false, traceEvents: false } as const;

/**
 * The state part holding the lab's terminal (libs/sim `TerminalState` as JSON: ssh hops, cwd,
 * variables, history). It is not part of the serialized lab, so the snapshot split never
 * produces it: the store carries it beside the lab's own parts, and reset drops it.
 */
export const LAB_TERMINAL_PART = 'terminal';

export class LabWriteContext<L extends TSimLab> {
  clock: TLabClockState;
  status: TLabStatusDb;
  command: Omit<TLabCommandRecord, 'seq'> | null = null;
  /** marks the lab as used by its owner now (hibernation counts idleness from there) */
  isTouched = false;
  /** set when the lab changed outside `advance` (an apiserver request, a command) */
  isMutated = false;
  readonly changed = new Set<string>();
  readonly deleted = new Set<string>();
  advancedMs = 0;
  last: TSimAdvance | null = null;
  /** the terminal's saved state (JSON text, null when none): set it to persist a new one */
  terminalState: string | null;

  constructor(
    readonly lab: L,
    readonly row: Readonly<TLabHeader>,
    readonly nowWallMs: number,
    private readonly maxCatchUpMs: number,
    private readonly storedTerminalState: string | null = null,
  ) {
    this.terminalState = storedTerminalState;
    this.clock = {
      speed: row.speed,
      paused: row.paused,
      clockAnchorWallMs: row.clockAnchorWallMs,
      clockAnchorSimMs: row.clockAnchorSimMs,
    };
    this.status = row.status;
  }

  advance(ms: number): TSimAdvance {
    const result = this.lab.advance(ms);
    this.advancedMs += ms;
    for (const key of result.changedKeys) this.changed.add(key);
    for (const key of result.deletedKeys) this.deleted.add(key);
    this.last = result;
    return result;
  }

  /** Moves the lab to where its clock says it should be now (capped); returns the ms advanced. */
  catchUp(): number {
    const step = catchUp(this.clock, this.lab.now, this.nowWallMs, this.maxCatchUpMs);
    this.clock = step.clock;
    if (step.advanceMs > 0) this.advance(step.advanceMs);
    return step.advanceMs;
  }

  /** Catches up, then re-anchors the clock at the lab's time with the change applied. */
  changeClock(change: Partial<Pick<TLabClockState, 'speed' | 'paused'>>): void {
    this.catchUp();
    this.clock = reanchor(this.clock, this.lab.now, this.nowWallMs, change);
  }

  /** Steps the lab by exactly `ms` of simulated time, keeping the clock consistent. */
  step(ms: number): void {
    this.catchUp();
    this.advance(ms);
    this.clock = reanchor(this.clock, this.lab.now, this.nowWallMs);
  }

  /**
   * A hibernated lab slept: its clock stopped when it hibernated and restarts now, from the sim
   * time it had (no catch-up of the night).
   */
  wake(): void {
    if (this.status !== 'HIBERNATED') return;
    this.status = 'ACTIVE';
    this.clock = reanchor(this.clock, this.lab.now, this.nowWallMs);
  }

  hibernate(): void {
    this.catchUp();
    this.status = 'HIBERNATED';
    this.clock = reanchor(this.clock, this.lab.now, this.nowWallMs);
  }

  recordCommand(command: Omit<TLabCommandRecord, 'seq'>): number {
    this.command = command;
    this.isMutated = true;
    this.isTouched = true;
    return this.row.commandSeq + 1;
  }

  get hasChanges(): boolean {
    return (
      this.isMutated ||
      this.advancedMs > 0 ||
      this.command !== null ||
      this.isTouched ||
      this.terminalState !== this.storedTerminalState ||
      this.status !== this.row.status ||
      this.clock.speed !== this.row.speed ||
      this.clock.paused !== this.row.paused ||
      this.clock.clockAnchorWallMs !== this.row.clockAnchorWallMs ||
      this.clock.clockAnchorSimMs !== this.row.clockAnchorSimMs
    );
  }
}

export class LabStore<L extends TSimLab> {
  private readonly cache: LabCache<TCachedLab<L>>;
  private readonly now: () => number;

  constructor(
    private readonly db: TLabDatabase,
    private readonly engine: TLabEngine<L>,
    private readonly options: TLabStoreOptions,
  ) {
    this.cache = new LabCache<TCachedLab<L>>(options.cacheSize);
    this.now = options.now ?? Date.now;
  }

  /** Creates a lab unless the owner already holds `limit` labs. */
  async create(
    ownerId: string,
    blueprint: TLabBlueprint,
    limit: number,
  ): Promise<
    | { kind: 'ok'; header: TLabHeader; needsTicks: boolean }
    | { kind: 'limit-reached'; count: number }
    | { kind: 'unknown-scenario' }
  > {
    // Build the cluster before taking the owner's lock: it is the slow part.
    const lab = this.engine.create(blueprint);
    if (!lab) return { kind: 'unknown-scenario' };
    const id = randomUUID();
    const fresh = this.freshState(lab, this.now(), { traceSeqOffset: 0, commandSeq: 0 });
    const image = imageTraceOf(this.engine.bootImageTrace?.(lab) ?? null, fresh.events);
    const outcome = await this.db.transaction(async (tx) => {
      const count = await lockOwnerAndCountLabs(tx, ownerId);
      if (count >= limit) return { kind: 'limit-reached' as const, count };
      await insertLab(tx, {
        id,
        ownerId,
        ...blueprint,
        objects: fresh.snapshot.kvs,
        parts: fresh.snapshot.parts,
        trace: image ? fresh.events.slice(image.events.length) : fresh.events,
        ...(image ? { imageTrace: image } : {}),
        state: fresh.state,
      });
      return { kind: 'ok' as const };
    });
    if (outcome.kind !== 'ok') return outcome;
    this.remember(id, 1, lab, fresh.snapshot.parts, { traceSeqOffset: 0, commandSeq: 0 });
    const at = new Date(fresh.state.clockAnchorWallMs);
    const { coreState: _core, lastActiveAt: _at, ...state } = fresh.state;
    return {
      kind: 'ok',
      header: { ...state, id, ownerId, ...blueprint, createdAt: at, lastActiveAt: at },
      needsTicks: !fresh.state.quiescent,
    };
  }

  /**
   * Runs `act` on the locked, restored lab and persists what it changed. With `skipLocked` a lab
   * another writer holds answers `busy` at once (ticks); otherwise the call waits (commands).
   * `ownerId`, when given, must own the lab (anyone else gets `not-found`).
   */
  async write<T>(
    labId: string,
    opts: { skipLocked: boolean; ownerId?: string },
    act: (ctx: LabWriteContext<L>) => T,
  ): Promise<TLabWriteResult<T>> {
    try {
      return await this.db.transaction(async (tx) => {
        const row = await lockLab(tx, labId, { skipLocked: opts.skipLocked });
        if (!row) {
          // SKIP LOCKED cannot tell "missing" from "locked"; a tick on a deleted lab is rare.
          return opts.skipLocked ? { kind: 'busy' as const } : { kind: 'not-found' as const };
        }
        if (opts.ownerId !== undefined && row.ownerId !== opts.ownerId) {
          return { kind: 'not-found' as const };
        }
        // Taken out of the cache while it may hold uncommitted changes; put back on success.
        const entry = this.cache.take(labId);
        const cached =
          (entry?.revision === row.revision ? entry.lab : null) ??
          (entry && entry.revision < row.revision
            ? await this.replay(tx, row, entry.lab, entry.revision)
            : null) ??
          (await this.restore(tx, row));
        const ctx = new LabWriteContext(
          cached.lab,
          row,
          this.now(),
          this.options.maxCatchUpMs,
          cached.parts.get(LAB_TERMINAL_PART) ?? null,
        );
        const result = act(ctx);
        if (!ctx.hasChanges) {
          this.cache.set(labId, row.revision, cached);
          return { kind: 'ok' as const, result, commit: null };
        }
        const commit = await this.persist(tx, ctx, cached);
        return { kind: 'ok' as const, result, commit };
      });
    } catch (error) {
      // The instance may hold changes that were never committed: never reuse it.
      this.cache.delete(labId);
      throw error;
    }
  }

  /**
   * Replaces the lab's cluster by a fresh one built from its blueprint (POST /reset). The command
   * history stays; trace seqs continue after the old ones (see traceSeqOffset), so a stream
   * resumed with Last-Event-ID never confuses the two clusters.
   */
  async reset(labId: string, ownerId: string): Promise<TLabWriteResult<null>> {
    try {
      return await this.db.transaction(async (tx) => {
        const row = await lockLab(tx, labId, { skipLocked: false });
        if (!row || row.ownerId !== ownerId) return { kind: 'not-found' as const };
        this.cache.delete(labId);
        const lab = this.engine.create({
          kind: row.kind,
          scenarioId: row.scenarioId,
          seed: row.seed,
        });
        if (!lab) return { kind: 'not-found' as const };
        const fresh = this.freshState(lab, this.now(), {
          traceSeqOffset: row.traceSeq,
          commandSeq: row.commandSeq,
        });
        const state = { ...fresh.state, revision: row.revision + 1 };
        await deleteLabObjects(tx, labId);
        await persistLabChanges(tx, labId, {
          upserts: fresh.snapshot.kvs,
          deletes: [],
          partUpserts: fresh.snapshot.parts,
          // the new cluster's learner starts over on the control plane
          partDeletes: [LAB_TERMINAL_PART],
          trace: fresh.events,
          state,
        });
        this.remember(labId, state.revision, lab, fresh.snapshot.parts, {
          traceSeqOffset: row.traceSeq,
          commandSeq: row.commandSeq,
        });
        return {
          kind: 'ok' as const,
          result: null,
          commit: this.toCommit(row, state, fresh.events, true),
        };
      });
    } catch (error) {
      this.cache.delete(labId);
      throw error;
    }
  }

  /** Drops a lab from this process's cache (after DELETE). */
  forget(labId: string): void {
    this.cache.delete(labId);
  }

  private freshState(
    lab: L,
    nowWall: number,
    carry: { traceSeqOffset: number; commandSeq: number },
  ): {
    snapshot: TLabSnapshotParts;
    events: TLabTraceRecord[];
    state: TLabStateUpdate & { lastActiveAt: Date };
  } {
    const first = lab.advance(0);
    // the value, not its text: the hosts' frozen sections keep their texts for the next write
    const snapshot = splitLabValue(lab.serializeState());
    const events = lab.trace(0).map((e) => shiftTrace(e, carry.traceSeqOffset));
    const nextWakeAt = lab.nextWakeAt();
    const state = {
      revision: 1,
      simTimeMs: lab.now,
      speed: 1,
      paused: false,
      coreState: snapshot.core,
      clockAnchorWallMs: nowWall,
      clockAnchorSimMs: lab.now,
      lastTickWallMs: nowWall,
      quiescent: first.quiescent,
      nextWakeAtMs: nextWakeAt,
      traceSeqOffset: carry.traceSeqOffset,
      traceSeq: events.at(-1)?.seq ?? carry.traceSeqOffset,
      commandSeq: carry.commandSeq,
      status: 'ACTIVE' as const,
      lastActiveAt: new Date(nowWall),
    };
    return { snapshot, events, state };
  }

  private remember(
    labId: string,
    revision: number,
    lab: L,
    parts: readonly { name: string; value: string }[],
    seqs: { traceSeqOffset: number; commandSeq: number },
  ): void {
    const keep = this.options.restoreTraceEvents;
    if (lab.trace(0).length > keep + TRACE_SLACK_EVENTS) {
      if (!lab.forgetTrace) return;
      lab.forgetTrace(keep);
    }
    this.cache.set(labId, revision, {
      lab,
      parts: new Map(parts.map((p) => [p.name, p.value])),
      ...seqs,
    });
  }

  /**
   * Brings an instance cached at an older revision up to the locked row, instead of restoring
   * the lab from its rows. The writes in between were most likely the worker's ticks, which only
   * advanced the clock, or one command the learner typed in the API; the simulator and the
   * command line are deterministic, so advancing this instance to the row's sim time (running
   * that command at the time it ran) gives the same lab. "Most likely" is not enough, so the
   * result is checked against what is stored: the core text byte for byte, and digests
   * (computed by PostgreSQL, no texts sent) of the whole keyspace and of every state part,
   * terminal included. Any other write in between (a clock change, a reset, a snapshot restore,
   * several commands) leaves a difference there, and then the caller restores from the rows as
   * before. The instance is not reused when this fails (it has advanced).
   */
  private async replay(
    tx: TDb,
    row: TLabHeader,
    cached: TCachedLab<L>,
    cachedRevision: number,
  ): Promise<TCachedLab<L> | null> {
    const { lab } = cached;
    if (cached.traceSeqOffset !== row.traceSeqOffset) return null;
    let terminal = cached.parts.get(LAB_TERMINAL_PART);
    if (cached.commandSeq !== row.commandSeq) {
      // Every write in between recorded one command (the learner typed while this process held
      // the lab): run them again, each at the simulated time it ran. A command that let time
      // pass itself (`sleep`, `kubectl wait`) ends at another time than it started, misses the
      // comparison below and is restored from the rows instead.
      const count = row.commandSeq - cached.commandSeq;
      const replayCommand = this.engine.replayCommand?.bind(this.engine);
      if (!replayCommand || count < 1 || count > REPLAY_MAX_COMMANDS) return null;
      if (row.revision - cachedRevision !== count) return null;
      const commands = await loadLabCommands(tx, row.id, cached.commandSeq, row.commandSeq);
      if (commands.length !== count) return null;
      for (const command of commands) {
        const behind = command.simTimeMs - lab.now;
        if (behind < 0 || behind > REPLAY_MAX_MS) return null;
        if (behind > 0) lab.advance(behind);
        terminal = replayCommand(
          lab,
          { input: command.input, kind: row.kind },
          terminal ?? null,
          (ms) => lab.advance(ms),
        );
        // what a write does after a command: drain what it set off, at the same instant
        lab.advance(0);
      }
    } else {
      // The writes in between only advanced the clock (the worker's ticks): advance as far.
      const behind = row.simTimeMs - lab.now;
      if (behind < 0 || behind > REPLAY_MAX_MS) return null;
      if (behind > 0) lab.advance(behind);
    }
    if (lab.now !== row.simTimeMs) return null;
    const split = coreAndParts(lab.serializeState(CORE_ONLY));
    if (split.core !== (await loadCoreState(tx, row.id))) return null;
    const parts =
      terminal === undefined
        ? split.parts
        : [...split.parts, { name: LAB_TERMINAL_PART, value: terminal }];
    const stored = await loadLabDigests(tx, row.id);
    if (stored.parts !== partsDigest(parts)) return null;
    if (stored.keyspace !== keyspaceDigest(lab.etcd.range(''))) return null;
    return {
      lab,
      parts: new Map(parts.map((p) => [p.name, p.value])),
      traceSeqOffset: row.traceSeqOffset,
      commandSeq: row.commandSeq,
    };
  }

  private async restore(tx: TDb, row: TLabHeader): Promise<TCachedLab<L>> {
    // one connection runs one statement at a time: no point in overlapping them
    const objects = await loadLabObjects(tx, row.id);
    const parts = await loadLabStateParts(tx, row.id);
    const trace = await readRecentTrace(tx, row.id, this.options.restoreTraceEvents);
    const own = trace
      .filter((e) => e.seq > row.traceSeqOffset)
      .map((e) => shiftTrace(e, -row.traceSeqOffset));
    const core = await loadCoreState(tx, row.id);
    const value = mergeLabValue(core, parts, objects, own);
    const lab = this.engine.restoreValue
      ? this.engine.restoreValue(value)
      : this.engine.restore(JSON.stringify(value));
    return {
      lab,
      parts: new Map(parts.map((p) => [p.name, p.value])),
      traceSeqOffset: row.traceSeqOffset,
      commandSeq: row.commandSeq,
    };
  }

  private async persist(
    tx: TDb,
    ctx: LabWriteContext<L>,
    cached: TCachedLab<L>,
  ): Promise<TLabCommit> {
    const { lab, row } = ctx;
    // Drain what happened outside `advance` (requests made by a command) and get a fresh verdict
    // on quiescence; advancing by 0 ms moves no clock.
    const last = ctx.isMutated || !ctx.last ? ctx.advance(0) : ctx.last;
    // Keys and events are written per row from what etcd and the trace report: the lab need not
    // write them out (they are most of its text).
    const split = coreAndParts(lab.serializeState(CORE_ONLY));
    const terminal =
      ctx.terminalState === null ? [] : [{ name: LAB_TERMINAL_PART, value: ctx.terminalState }];
    const snapshot = { ...split, parts: [...split.parts, ...terminal] };
    // Every key etcd reported since the last write (puts, deletes, a snapshot restore putting
    // old revisions back): what it holds now is what gets stored. A key put then deleted (or
    // deleted then put again) across several advances ends as its final state.
    const upserts: TLabObjectRecord[] = [];
    const deletes: string[] = [];
    for (const key of new Set([...ctx.changed, ...ctx.deleted])) {
      const kv = lab.etcd.get(key);
      if (kv) upserts.push(toObjectRecord(kv));
      else deletes.push(key);
    }
    const partUpserts = snapshot.parts.filter((p) => cached.parts.get(p.name) !== p.value);
    const names = new Set(snapshot.parts.map((p) => p.name));
    const partDeletes = [...cached.parts.keys()].filter((name) => !names.has(name));
    const simSeq = row.traceSeq - row.traceSeqOffset;
    const events = lab
      .trace(simSeq)
      .filter((e) => e.seq > simSeq)
      .map((e) => shiftTrace(e, row.traceSeqOffset));
    const nextWakeAt = lab.nextWakeAt();
    const command = ctx.command ? { seq: row.commandSeq + 1, ...ctx.command } : undefined;
    const state: TLabStateUpdate = {
      revision: row.revision + 1,
      simTimeMs: lab.now,
      speed: ctx.clock.speed,
      paused: ctx.clock.paused,
      coreState: snapshot.core,
      clockAnchorWallMs: ctx.clock.clockAnchorWallMs,
      clockAnchorSimMs: ctx.clock.clockAnchorSimMs,
      lastTickWallMs: ctx.nowWallMs,
      // The simulator's verdict: nothing pending but periodic resyncs (nextWakeAt still names
      // the next resync, so it is never null on a running cluster).
      quiescent: last.quiescent,
      nextWakeAtMs: nextWakeAt,
      traceSeqOffset: row.traceSeqOffset,
      traceSeq: events.at(-1)?.seq ?? row.traceSeq,
      commandSeq: command ? command.seq : row.commandSeq,
      status: ctx.status,
      lastActiveAt: ctx.isTouched ? new Date(ctx.nowWallMs) : undefined,
    };
    await persistLabChanges(tx, row.id, {
      upserts,
      deletes,
      partUpserts,
      partDeletes,
      trace: events,
      command,
      state,
    });
    this.remember(row.id, state.revision, lab, snapshot.parts, {
      traceSeqOffset: row.traceSeqOffset,
      commandSeq: state.commandSeq,
    });
    return this.toCommit(row, state, events, upserts.length + deletes.length > 0);
  }

  private toCommit(
    row: TLabHeader,
    state: TLabStateUpdate,
    events: TLabTraceRecord[],
    objectsChanged: boolean,
  ): TLabCommit {
    const { coreState: _core, lastActiveAt, ...rest } = state;
    return {
      revision: state.revision,
      simTimeMs: state.simTimeMs,
      events,
      objectsChanged,
      needsTicks: state.status === 'ACTIVE' && !state.paused && !state.quiescent,
      header: {
        ...rest,
        id: row.id,
        ownerId: row.ownerId,
        kind: row.kind,
        scenarioId: row.scenarioId,
        seed: row.seed,
        createdAt: row.createdAt,
        lastActiveAt: lastActiveAt ?? row.lastActiveAt,
      },
    };
  }
}

/** The core and parts of a lab serialized without keyspace and trace events (as a value). */
function coreAndParts(state: unknown): Pick<TLabSnapshotParts, 'core' | 'parts'> {
  // the core leaves keys and events out either way: they are stored per row
  const { core, parts } = splitLabValue(state);
  return { core, parts };
}

/** Copies only the stored fields (the simulator's record may carry more in the future). */
function toObjectRecord(kv: TLabObjectRecord): TLabObjectRecord {
  return {
    key: kv.key,
    value: kv.value,
    createRevision: kv.createRevision,
    modRevision: kv.modRevision,
    version: kv.version,
  };
}

/** Moves a trace event between simulator seqs and stored seqs (causes move with it). */
function shiftTrace(event: TLabTraceRecord, by: number): TLabTraceRecord {
  if (by === 0) return event;
  const out = { ...event, seq: event.seq + by };
  if (event.causedBy !== undefined) {
    if (event.causedBy + by > 0) out.causedBy = event.causedBy + by;
    else delete out.causedBy;
  }
  return out;
}

/**
 * The image's share of a new lab's trace: its first `traceSeq` events, when they are exactly
 * seqs 1..traceSeq (a lab whose trace does not start so keeps every event as its own).
 */
function imageTraceOf(
  image: TLabImageTrace | null,
  events: readonly TLabTraceRecord[],
): { id: string; events: TLabTraceRecord[] } | null {
  if (!image || image.traceSeq <= 0 || events.length < image.traceSeq) return null;
  const shared = events.slice(0, image.traceSeq);
  if (!shared.every((e, i) => e.seq === i + 1)) return null;
  return { id: image.id, events: shared };
}
