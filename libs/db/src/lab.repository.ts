import { Prisma } from './generated/client';
import type { TDb } from './lab-sql';

// Storage of labs (issue 5). Reads and writes of the hot path (every tick of every converging
// lab) are single SQL statements over arrays, so one tick costs a handful of round trips no
// matter how many keys or trace events it touched.

export type TLabKindDb = 'SANDBOX' | 'SCENARIO';
export type TLabStatusDb = 'ACTIVE' | 'HIBERNATED';

/** A Lab row with int8 columns as numbers (sim and wall milliseconds fit in 2^53). */
export interface TLabRecord {
  id: string;
  ownerId: string;
  kind: TLabKindDb;
  scenarioId: string | null;
  status: TLabStatusDb;
  seed: number;
  simTimeMs: number;
  speed: number;
  paused: boolean;
  revision: number;
  coreState: string;
  clockAnchorWallMs: number;
  clockAnchorSimMs: number;
  lastTickWallMs: number;
  quiescent: boolean;
  nextWakeAtMs: number | null;
  /** stored trace seq = simulator seq + offset (a reset restarts the simulator's seqs) */
  traceSeqOffset: number;
  traceSeq: number;
  commandSeq: number;
  createdAt: Date;
  lastActiveAt: Date;
}

/** A Lab row without its (large) core state: what listings and the view header need. */
export type TLabHeader = Omit<TLabRecord, 'coreState'>;

export interface TLabObjectRecord {
  key: string;
  value: string;
  createRevision: number;
  modRevision: number;
  version: number;
}

export interface TLabTraceRecord {
  seq: number;
  t: number;
  component: string;
  node?: string;
  verb: string;
  object?: { kind: string; namespace?: string; name: string };
  message: string;
  causedBy?: number;
  data?: Record<string, unknown>;
}

export interface TLabCommandRecord {
  seq: number;
  input: string;
  stdout: string;
  stderr: string;
  exitCode: number;
  simTimeMs: number;
  wallMs: number;
  createdAt?: Date;
}

/** The Lab columns a writer may change; `revision` must be the previous one + 1. */
export type TLabStateUpdate = Pick<
  TLabRecord,
  | 'revision'
  | 'simTimeMs'
  | 'speed'
  | 'paused'
  | 'coreState'
  | 'clockAnchorWallMs'
  | 'clockAnchorSimMs'
  | 'lastTickWallMs'
  | 'quiescent'
  | 'nextWakeAtMs'
  | 'traceSeqOffset'
  | 'traceSeq'
  | 'commandSeq'
  | 'status'
> & { lastActiveAt?: Date };

export interface TLabStatePartRow {
  name: string;
  value: string;
}

export interface TLabChangeSet {
  upserts: TLabObjectRecord[];
  deletes: string[];
  /** core-state sections whose text changed / that no longer exist */
  partUpserts: TLabStatePartRow[];
  partDeletes: string[];
  trace: TLabTraceRecord[];
  command?: TLabCommandRecord;
  state: TLabStateUpdate;
}

/** A boot image's identity and the number of trace events its labs start with (libs/content). */
export interface TLabImageTrace {
  id: string;
  traceSeq: number;
}

export interface TNewLab {
  id: string;
  ownerId: string;
  kind: TLabKindDb;
  scenarioId: string | null;
  seed: number;
  objects: TLabObjectRecord[];
  parts: TLabStatePartRow[];
  /** the lab's own trace events (after the image's, when it has one) */
  trace: TLabTraceRecord[];
  /** the boot image's trace, seqs 1..n: stored once per image, shared by its labs */
  imageTrace?: { id: string; events: TLabTraceRecord[] };
  state: TLabStateUpdate;
}

type TRawLab = Omit<
  TLabRecord,
  'simTimeMs' | 'clockAnchorWallMs' | 'clockAnchorSimMs' | 'lastTickWallMs' | 'nextWakeAtMs'
> & {
  simTimeMs: bigint | number | string;
  clockAnchorWallMs: bigint | number | string;
  clockAnchorSimMs: bigint | number | string;
  lastTickWallMs: bigint | number | string;
  nextWakeAtMs: bigint | number | string | null;
};

const HEADER_COLUMNS = Prisma.sql`"id", "ownerId", "kind", "scenarioId", "status", "seed",
  "simTimeMs", "speed", "paused", "revision", "clockAnchorWallMs", "clockAnchorSimMs",
  "lastTickWallMs", "quiescent", "nextWakeAtMs", "traceSeqOffset", "traceSeq", "commandSeq",
  "createdAt", "lastActiveAt"`;

function toLabRecord<T extends Partial<TRawLab>>(raw: T): T & TLabHeader {
  return {
    ...raw,
    simTimeMs: Number(raw.simTimeMs),
    speed: Number(raw.speed),
    clockAnchorWallMs: Number(raw.clockAnchorWallMs),
    clockAnchorSimMs: Number(raw.clockAnchorSimMs),
    lastTickWallMs: Number(raw.lastTickWallMs),
    nextWakeAtMs:
      raw.nextWakeAtMs === null || raw.nextWakeAtMs === undefined ? null : Number(raw.nextWakeAtMs),
    createdAt: new Date(raw.createdAt as Date),
    lastActiveAt: new Date(raw.lastActiveAt as Date),
  } as T & TLabHeader;
}

/**
 * Locks the lab row for the rest of the transaction: the one-writer-per-lab rule across
 * processes. With `skipLocked` a busy lab returns null at once (a tick skips it: the writer
 * holding it moves the clock anyway); without it the caller waits its turn (exec, clock).
 */
export async function lockLab(
  tx: TDb,
  labId: string,
  opts: { skipLocked: boolean },
): Promise<TLabHeader | null> {
  // Without the core state: a writer whose cached instance is at the locked revision (most
  // writes) never reads it, and it is a few KB per write.
  const rows = opts.skipLocked
    ? await tx.$queryRaw<TRawLab[]>`SELECT ${HEADER_COLUMNS} FROM "Lab"
        WHERE "id" = ${labId} FOR UPDATE SKIP LOCKED`
    : await tx.$queryRaw<TRawLab[]>`SELECT ${HEADER_COLUMNS} FROM "Lab"
        WHERE "id" = ${labId} FOR UPDATE`;
  const row = rows[0];
  return row ? toLabRecord(row) : null;
}

/** The lab's serialized core (see lab-snapshot.ts); '' when the lab is gone. */
export async function loadCoreState(db: TDb, labId: string): Promise<string> {
  const [row] = await db.$queryRaw<{ coreState: string }[]>`SELECT "coreState" FROM "Lab"
    WHERE "id" = ${labId}`;
  return row?.coreState ?? '';
}

/** The lab's header when `ownerId` owns it; null otherwise (callers answer 404 either way). */
export async function findOwnedLab(
  db: TDb,
  labId: string,
  ownerId: string,
): Promise<TLabHeader | null> {
  const rows = await db.$queryRaw<TRawLab[]>`SELECT ${HEADER_COLUMNS} FROM "Lab"
    WHERE "id" = ${labId} AND "ownerId" = ${ownerId}`;
  const row = rows[0];
  return row ? toLabRecord(row) : null;
}

export async function findLabHeader(db: TDb, labId: string): Promise<TLabHeader | null> {
  const rows = await db.$queryRaw<TRawLab[]>`SELECT ${HEADER_COLUMNS} FROM "Lab"
    WHERE "id" = ${labId}`;
  const row = rows[0];
  return row ? toLabRecord(row) : null;
}

export async function listOwnedLabs(db: TDb, ownerId: string): Promise<TLabHeader[]> {
  const rows = await db.$queryRaw<TRawLab[]>`SELECT ${HEADER_COLUMNS} FROM "Lab"
    WHERE "ownerId" = ${ownerId} ORDER BY "createdAt" DESC, "id"`;
  return rows.map((row) => toLabRecord(row));
}

/**
 * Locks the owner's user row (so two concurrent creations cannot both pass the cap) and counts
 * the labs they hold.
 */
export async function lockOwnerAndCountLabs(tx: TDb, ownerId: string): Promise<number> {
  await tx.$queryRaw`SELECT "id" FROM "User" WHERE "id" = ${ownerId} FOR UPDATE`;
  const [row] = await tx.$queryRaw<{ n: number | bigint }[]>`SELECT count(*)::int AS n FROM "Lab"
    WHERE "ownerId" = ${ownerId}`;
  return Number(row?.n ?? 0);
}

export async function loadLabObjects(db: TDb, labId: string): Promise<TLabObjectRecord[]> {
  return db.$queryRaw<TLabObjectRecord[]>`SELECT "key", "value", "createRevision", "modRevision",
    "version" FROM "LabObject" WHERE "labId" = ${labId} ORDER BY "key"`;
}

export async function insertLab(tx: TDb, lab: TNewLab): Promise<void> {
  const s = lab.state;
  const image = lab.imageTrace;
  if (image) await ensureImageTrace(tx, image.id, image.events);
  await tx.$executeRaw`INSERT INTO "Lab" ("id", "ownerId", "kind", "scenarioId", "status", "seed",
      "simTimeMs", "speed", "paused", "revision", "coreState", "clockAnchorWallMs",
      "clockAnchorSimMs", "lastTickWallMs", "quiescent", "nextWakeAtMs", "traceSeqOffset",
      "traceSeq", "commandSeq", "traceImageKey", "traceImageSeq", "createdAt", "lastActiveAt")
    VALUES (${lab.id}, ${lab.ownerId}, ${lab.kind}::"LabKind", ${lab.scenarioId},
      ${s.status}::"LabStatus", ${lab.seed}, ${s.simTimeMs}, ${s.speed}, ${s.paused},
      ${s.revision}, ${s.coreState}, ${s.clockAnchorWallMs}, ${s.clockAnchorSimMs},
      ${s.lastTickWallMs}, ${s.quiescent}, ${s.nextWakeAtMs}, ${s.traceSeqOffset}, ${s.traceSeq},
      ${s.commandSeq}, ${image?.id ?? null}, ${image?.events.length ?? 0}, now(), now())`;
  await upsertObjects(tx, lab.id, lab.objects);
  await upsertStateParts(tx, lab.id, lab.parts);
  await insertTrace(tx, lab.id, lab.trace);
}

/**
 * Writes one committed step of a lab: changed keys, deleted keys, new trace events, the command
 * (if any) and the lab row, as ONE statement (data-modifying CTEs around the row's UPDATE): each
 * round trip to PostgreSQL costs a system call per side, and an exec used to make six of them
 * here. The sets are disjoint (a key is either upserted or deleted), so no row is touched twice.
 * Call inside the transaction that holds the lab's lock.
 */
export async function persistLabChanges(
  tx: TDb,
  labId: string,
  changes: TLabChangeSet,
): Promise<void> {
  const steps: Prisma.Sql[] = [];
  if (changes.upserts.length > 0) steps.push(upsertObjectsSql(labId, changes.upserts));
  if (changes.deletes.length > 0) {
    steps.push(Prisma.sql`DELETE FROM "LabObject" WHERE "labId" = ${labId}
      AND "key" = ANY(${changes.deletes}::text[])`);
  }
  if (changes.partUpserts.length > 0) steps.push(upsertStatePartsSql(labId, changes.partUpserts));
  if (changes.partDeletes.length > 0) {
    steps.push(Prisma.sql`DELETE FROM "LabStatePart" WHERE "labId" = ${labId}
      AND "name" = ANY(${changes.partDeletes}::text[])`);
  }
  if (changes.trace.length > 0) steps.push(insertTraceSql(labId, changes.trace));
  if (changes.command) steps.push(insertCommandSql(labId, changes.command));
  const update = updateLabStateSql(labId, changes.state);
  if (steps.length === 0) {
    await tx.$executeRaw(update);
    return;
  }
  const ctes = Prisma.join(
    steps.map((step, i) => Prisma.sql`${Prisma.raw(`s${i}`)} AS (${step})`),
    ', ',
  );
  await tx.$executeRaw`WITH ${ctes} ${update}`;
}

function updateLabStateSql(labId: string, s: TLabStateUpdate): Prisma.Sql {
  const lastActive = s.lastActiveAt
    ? Prisma.sql`, "lastActiveAt" = ${s.lastActiveAt}`
    : Prisma.empty;
  return Prisma.sql`UPDATE "Lab" SET "revision" = ${s.revision}, "simTimeMs" = ${s.simTimeMs},
      "speed" = ${s.speed}, "paused" = ${s.paused}, "coreState" = ${s.coreState},
      "clockAnchorWallMs" = ${s.clockAnchorWallMs}, "clockAnchorSimMs" = ${s.clockAnchorSimMs},
      "lastTickWallMs" = ${s.lastTickWallMs}, "quiescent" = ${s.quiescent},
      "nextWakeAtMs" = ${s.nextWakeAtMs}, "traceSeqOffset" = ${s.traceSeqOffset},
      "traceSeq" = ${s.traceSeq},
      "commandSeq" = ${s.commandSeq}, "status" = ${s.status}::"LabStatus" ${lastActive}
    WHERE "id" = ${labId}`;
}

async function upsertObjects(tx: TDb, labId: string, objects: TLabObjectRecord[]): Promise<void> {
  if (objects.length === 0) return;
  await tx.$executeRaw(upsertObjectsSql(labId, objects));
}

function upsertObjectsSql(labId: string, objects: TLabObjectRecord[]): Prisma.Sql {
  // Rows travel as one JSON text (JSON.stringify is native; pg would escape every element of a
  // text[] in JavaScript, and a kubelet's state is tens of KB).
  return Prisma.sql`INSERT INTO "LabObject" ("labId", "key", "value", "createRevision",
      "modRevision", "version")
    SELECT ${labId}, u.key, u.value, u."createRevision", u."modRevision", u.version
    FROM json_to_recordset(${JSON.stringify(objects)}::json)
      AS u(key text, value text, "createRevision" int, "modRevision" int, version int)
    ON CONFLICT ("labId", "key") DO UPDATE SET "value" = EXCLUDED."value",
      "createRevision" = EXCLUDED."createRevision", "modRevision" = EXCLUDED."modRevision",
      "version" = EXCLUDED."version"`;
}

async function upsertStateParts(tx: TDb, labId: string, parts: TLabStatePartRow[]): Promise<void> {
  if (parts.length === 0) return;
  await tx.$executeRaw(upsertStatePartsSql(labId, parts));
}

function upsertStatePartsSql(labId: string, parts: TLabStatePartRow[]): Prisma.Sql {
  return Prisma.sql`INSERT INTO "LabStatePart" ("labId", "name", "value")
    SELECT ${labId}, u.name, u.value
    FROM json_to_recordset(${JSON.stringify(parts)}::json) AS u(name text, value text)
    ON CONFLICT ("labId", "name") DO UPDATE SET "value" = EXCLUDED."value"`;
}

/**
 * Digests of what is stored for a lab, computed by PostgreSQL without sending the texts: its
 * keyspace (every key with its revisions and the md5 of its value, in byte order of the keys)
 * and its state parts (name and md5 of each, in byte order of the names). `labDigests` in
 * lab-digest.ts computes the same from a lab in memory; '' stands for none.
 */
export async function loadLabDigests(
  db: TDb,
  labId: string,
): Promise<{ keyspace: string; parts: string }> {
  const [row] = await db.$queryRaw<{ keyspace: string; parts: string }[]>`SELECT
    (SELECT coalesce(md5(string_agg("key" || E'\n' || "createRevision" || E'\n' || "modRevision"
        || E'\n' || "version" || E'\n' || md5("value") || E'\n', '' ORDER BY "key" COLLATE "C")), '')
      FROM "LabObject" WHERE "labId" = ${labId}) AS "keyspace",
    (SELECT coalesce(md5(string_agg("name" || E'\n' || md5("value"), E'\n'
        ORDER BY "name" COLLATE "C")), '')
      FROM "LabStatePart" WHERE "labId" = ${labId}) AS "parts"`;
  return row ?? { keyspace: '', parts: '' };
}

export async function loadLabStateParts(db: TDb, labId: string): Promise<TLabStatePartRow[]> {
  return db.$queryRaw<TLabStatePartRow[]>`SELECT "name", "value" FROM "LabStatePart"
    WHERE "labId" = ${labId} ORDER BY "name"`;
}

async function insertTrace(tx: TDb, labId: string, events: TLabTraceRecord[]): Promise<void> {
  if (events.length === 0) return;
  await tx.$executeRaw(insertTraceSql(labId, events));
}

/**
 * Stores an image's trace unless it is there: a cheap look for its last event first, so the
 * ~1,200 events travel once per image and database, not with every lab created from it.
 * ON CONFLICT: two processes storing the same image at once write the same rows.
 */
async function ensureImageTrace(
  tx: TDb,
  imageKey: string,
  events: readonly TLabTraceRecord[],
): Promise<void> {
  const last = events.at(-1);
  if (!last) return;
  const found = await tx.$queryRaw<{ seq: number }[]>`SELECT "seq" FROM "LabImageTraceEvent"
    WHERE "imageKey" = ${imageKey} AND "seq" = ${last.seq}`;
  if (found.length > 0) return;
  await tx.$executeRaw`INSERT INTO "LabImageTraceEvent" ("imageKey", "seq", "t", "component",
      "node", "verb", "object", "message", "causedBy", "data")
    SELECT ${imageKey}, u.seq, u.t, u.component, u.node, u.verb, u.object, u.message,
      u."causedBy", u.data
    FROM json_to_recordset(${JSON.stringify(events)}::json)
      AS u(seq int, t int8, component text, node text, verb text, object jsonb, message text,
        "causedBy" int, data jsonb)
    ON CONFLICT ("imageKey", "seq") DO NOTHING`;
}

function insertTraceSql(labId: string, events: TLabTraceRecord[]): Prisma.Sql {
  // ON CONFLICT DO NOTHING: a writer that lost its lock mid-commit cannot have committed, so a
  // duplicate seq can only be the very same event; never fail a tick over it.
  return Prisma.sql`INSERT INTO "LabTraceEvent" ("labId", "seq", "t", "component", "node",
      "verb", "object", "message", "causedBy", "data")
    SELECT ${labId}, u.seq, u.t, u.component, u.node, u.verb, u.object, u.message,
      u."causedBy", u.data
    FROM json_to_recordset(${JSON.stringify(events)}::json)
      AS u(seq int, t int8, component text, node text, verb text, object jsonb, message text,
        "causedBy" int, data jsonb)
    ON CONFLICT ("labId", "seq") DO NOTHING`;
}

function insertCommandSql(labId: string, c: TLabCommandRecord): Prisma.Sql {
  return Prisma.sql`INSERT INTO "LabCommand" ("labId", "seq", "input", "stdout", "stderr",
      "exitCode", "simTimeMs", "wallMs")
    VALUES (${labId}, ${c.seq}, ${c.input}, ${c.stdout}, ${c.stderr}, ${c.exitCode},
      ${c.simTimeMs}, ${c.wallMs})`;
}

type TRawTrace = Omit<TLabTraceRecord, 't' | 'node' | 'object' | 'causedBy' | 'data'> & {
  t: bigint | number | string;
  node: string | null;
  object: TLabTraceRecord['object'] | null;
  causedBy: number | null;
  data: Record<string, unknown> | null;
};

/** Trace events with seq > afterSeq, oldest first (SSE replay after Last-Event-ID). */
export async function readTraceAfter(
  db: TDb,
  labId: string,
  afterSeq: number,
  limit: number,
): Promise<TLabTraceRecord[]> {
  // the lab's own events, and those of the boot image it started from (seqs 1..traceImageSeq)
  const rows = await db.$queryRaw<TRawTrace[]>`SELECT * FROM (
      (SELECT "seq", "t", "component", "node", "verb", "object", "message", "causedBy", "data"
        FROM "LabTraceEvent" WHERE "labId" = ${labId} AND "seq" > ${afterSeq}
        ORDER BY "seq" LIMIT ${limit})
      UNION ALL
      (SELECT i."seq", i."t", i."component", i."node", i."verb", i."object", i."message",
          i."causedBy", i."data"
        FROM "Lab" l JOIN "LabImageTraceEvent" i ON i."imageKey" = l."traceImageKey"
        WHERE l."id" = ${labId} AND i."seq" > ${afterSeq} AND i."seq" <= l."traceImageSeq"
        ORDER BY i."seq" LIMIT ${limit})
    ) AS e ORDER BY "seq" LIMIT ${limit}`;
  return rows.map((r) => {
    // Same key order as the simulator's trace store, so a restored lab serializes byte-identically.
    const out = { seq: r.seq, t: Number(r.t), component: r.component } as TLabTraceRecord;
    if (r.node !== null) out.node = r.node;
    out.verb = r.verb;
    if (r.object !== null) out.object = r.object;
    out.message = r.message;
    if (r.causedBy !== null) out.causedBy = r.causedBy;
    if (r.data !== null) out.data = r.data;
    return out;
  });
}

/** The most recent `limit` trace events, oldest first (what a restored lab keeps in memory). */
export async function readRecentTrace(
  db: TDb,
  labId: string,
  limit: number,
): Promise<TLabTraceRecord[]> {
  const [row] = await db.$queryRaw<{ s: number | null }[]>`SELECT greatest(
      (SELECT max("seq") FROM "LabTraceEvent" WHERE "labId" = ${labId}),
      (SELECT "traceImageSeq" FROM "Lab" WHERE "id" = ${labId})) AS s`;
  const last = row?.s ?? 0;
  return readTraceAfter(db, labId, Math.max(0, last - limit), limit);
}

type TRawCommand = Omit<TLabCommandRecord, 'simTimeMs'> & { simTimeMs: bigint | number | string };

/** The inputs of commands `afterSeq` < seq <= `untilSeq`, in order, with the sim time each ended at. */
export async function loadLabCommands(
  db: TDb,
  labId: string,
  afterSeq: number,
  untilSeq: number,
): Promise<{ input: string; simTimeMs: number }[]> {
  const rows = await db.$queryRaw<{ input: string; simTimeMs: bigint | number | string }[]>`SELECT
      "input", "simTimeMs" FROM "LabCommand"
    WHERE "labId" = ${labId} AND "seq" > ${afterSeq} AND "seq" <= ${untilSeq} ORDER BY "seq"`;
  return rows.map((r) => ({ input: r.input, simTimeMs: Number(r.simTimeMs) }));
}

export async function listLabCommands(
  db: TDb,
  labId: string,
  limit: number,
): Promise<TLabCommandRecord[]> {
  const rows = await db.$queryRaw<TRawCommand[]>`SELECT "seq", "input", "stdout", "stderr",
      "exitCode", "simTimeMs", "wallMs", "createdAt"
    FROM "LabCommand" WHERE "labId" = ${labId} ORDER BY "seq" DESC LIMIT ${limit}`;
  return rows.reverse().map((r) => ({ ...r, simTimeMs: Number(r.simTimeMs) }));
}

/** Empties a lab's keyspace and state parts (reset: a fresh cluster replaces them). */
export async function deleteLabObjects(tx: TDb, labId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM "LabObject" WHERE "labId" = ${labId}`;
  await tx.$executeRaw`DELETE FROM "LabStatePart" WHERE "labId" = ${labId}`;
}

export async function deleteLab(db: TDb, labId: string): Promise<boolean> {
  const n = await db.$executeRaw`DELETE FROM "Lab" WHERE "id" = ${labId}`;
  return n > 0;
}

/** Running labs that still converge or wait on a timer: each needs a tick scheduler. */
export async function listLabsNeedingTicks(db: TDb): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Lab"
    WHERE "status" = 'ACTIVE' AND "quiescent" = false AND "paused" = false ORDER BY "id"`;
  return rows.map((r) => r.id);
}

/** Active labs nobody touched since `before`. */
export async function listIdleLabs(db: TDb, before: Date, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`SELECT "id" FROM "Lab"
    WHERE "status" = 'ACTIVE' AND "lastActiveAt" < ${before} ORDER BY "lastActiveAt" LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

/** Marks a lab as used now (any authenticated request on it); cheap, no lock. */
export async function touchLab(db: TDb, labId: string, at: Date): Promise<void> {
  await db.$executeRaw`UPDATE "Lab" SET "lastActiveAt" = ${at} WHERE "id" = ${labId}`;
}

export interface TLabCheckRecord {
  passed: boolean;
  score: number;
  maxScore: number;
  objectives: { id: string; passed: boolean; points: number }[];
  simTimeMs: number;
}

/** The lab's latest grading attempt with its attempt number; null before the first. */
export async function findLastLabCheck(
  db: TDb,
  labId: string,
): Promise<(TLabCheckRecord & { seq: number }) | null> {
  const [row] = await db.$queryRaw<
    (Omit<TLabCheckRecord, 'simTimeMs'> & { seq: number; simTimeMs: bigint | number | string })[]
  >`SELECT "seq", "passed", "score", "maxScore", "objectives", "simTimeMs" FROM "LabCheck"
    WHERE "labId" = ${labId} ORDER BY "seq" DESC LIMIT 1`;
  return row ? { ...row, simTimeMs: Number(row.simTimeMs) } : null;
}

/**
 * Records a grading attempt with the next attempt number of the lab. Two attempts racing for the
 * same number: the loser's insert hits the primary key and takes the next one.
 */
export async function insertLabCheck(
  db: TDb,
  labId: string,
  check: TLabCheckRecord,
): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db.$queryRaw<{ seq: number }[]>`INSERT INTO "LabCheck" ("labId", "seq",
          "passed", "score", "maxScore", "objectives", "simTimeMs")
        SELECT ${labId}, COALESCE(MAX("seq"), 0) + 1, ${check.passed}, ${check.score},
          ${check.maxScore}, ${JSON.stringify(check.objectives)}::jsonb, ${check.simTimeMs}
        FROM "LabCheck" WHERE "labId" = ${labId}
        RETURNING "seq"`;
      return row!.seq;
    } catch (error) {
      const isDuplicate =
        error instanceof Error && /23505|unique|LabCheck_pkey/i.test(error.message);
      if (!isDuplicate || attempt >= 3) throw error;
    }
  }
}
