import { z } from 'zod';

// The HTTP contract of labs (a learner's simulated cluster), shared by apps/api (validation at
// the edge), apps/worker (the tick job and the pub/sub notices) and apps/web (terminal, map,
// journey timeline).

export const LAB_KINDS = ['sandbox', 'scenario'] as const;
export const ZLabKind = z.enum(LAB_KINDS);
export type TLabKind = z.infer<typeof ZLabKind>;

export const LAB_STATUSES = ['active', 'hibernated'] as const;
export const ZLabStatus = z.enum(LAB_STATUSES);
export type TLabStatus = z.infer<typeof ZLabStatus>;

export const LAB_SPEED_MIN = 0.25;
export const LAB_SPEED_MAX = 10;
/** A plain command line; kubectl's own flags never come close. */
export const LAB_COMMAND_MAX_CHARS = 10_000;
/** A command line that carries a file through a heredoc (`cat <<EOF | kubectl apply -f -`). */
export const LAB_HEREDOC_MAX_BYTES = 256 * 1024;
/** One `step` moves the clock at most this far (10 simulated minutes). */
export const LAB_STEP_MAX_MS = 600_000;

export const ZCreateLabRequest = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sandbox') }),
  z.object({
    kind: z.literal('scenario'),
    scenarioId: z.string().trim().min(1, 'scenarioId is required').max(100),
  }),
]);
export type TCreateLabRequest = z.infer<typeof ZCreateLabRequest>;

function utf8Bytes(text: string): number {
  // TextEncoder is in every runtime we target (Node, browsers), unlike Buffer.
  return new TextEncoder().encode(text).length;
}

export const ZExecRequest = z.object({
  command: z
    .string()
    .min(1, 'command is required')
    .refine((command) => utf8Bytes(command) <= LAB_HEREDOC_MAX_BYTES, {
      message: `A command with its files must be at most ${LAB_HEREDOC_MAX_BYTES / 1024} KiB`,
    })
    .refine((command) => command.includes('<<') || command.length <= LAB_COMMAND_MAX_CHARS, {
      message: `A command line must be at most ${LAB_COMMAND_MAX_CHARS} characters (files can be sent through a heredoc, up to ${LAB_HEREDOC_MAX_BYTES / 1024} KiB)`,
    }),
});
export type TExecRequest = z.infer<typeof ZExecRequest>;

export const ZExecResponse = z.object({
  /** position of the command in the lab's history, starting at 1 */
  seq: z.number().int().positive(),
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().int(),
  /** simulated ms at which the command ran */
  simTimeMs: z.number().int().nonnegative(),
  /** the shell's prompt after the command: `root@node-1:~# ` after `ssh node-1` */
  prompt: z.string(),
  /** `vi FILE` / `kubectl edit`: the file (on that node) the UI's editor opens */
  openEditor: z
    .object({
      path: z.string(),
      host: z.string(),
      /** a command the UI runs once the file is saved (`kubectl edit` applies it) */
      afterSave: z.string().optional(),
    })
    .optional(),
});
export type TExecResponse = z.infer<typeof ZExecResponse>;

export const ZClockRequest = z.union([
  z.object({ action: z.literal('pause') }),
  z.object({ action: z.literal('resume') }),
  z.object({
    action: z.literal('step'),
    ms: z
      .number()
      .int('ms must be a whole number of milliseconds')
      .min(1, 'ms must be at least 1')
      .max(LAB_STEP_MAX_MS, `ms must be at most ${LAB_STEP_MAX_MS}`),
  }),
  z.object({
    speed: z
      .number()
      .min(LAB_SPEED_MIN, `speed must be at least ${LAB_SPEED_MIN}`)
      .max(LAB_SPEED_MAX, `speed must be at most ${LAB_SPEED_MAX}`),
  }),
]);
export type TClockRequest = z.infer<typeof ZClockRequest>;

export const ZLabClock = z.object({
  simTimeMs: z.number().int().nonnegative(),
  speed: z.number(),
  paused: z.boolean(),
  /** true when nothing is converging and no timer is pending: the lab is not being ticked */
  quiescent: z.boolean(),
});
export type TLabClock = z.infer<typeof ZLabClock>;

export const ZLabSummary = z.object({
  id: z.string(),
  kind: ZLabKind,
  scenarioId: z.string().nullable(),
  status: ZLabStatus,
  revision: z.number().int().nonnegative(),
  simTimeMs: z.number().int().nonnegative(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
});
export type TLabSummary = z.infer<typeof ZLabSummary>;

export const ZLabListResponse = z.object({ labs: z.array(ZLabSummary) });
export type TLabListResponse = z.infer<typeof ZLabListResponse>;

export const ZLabNodeView = z.object({
  name: z.string(),
  /** the NodeReady condition as `kubectl get nodes` prints it */
  status: z.enum(['Ready', 'NotReady', 'Unknown']),
  roles: z.array(z.string()),
  unschedulable: z.boolean(),
  internalIP: z.string().nullable(),
  podCIDR: z.string().nullable(),
  taints: z.array(z.string()),
  /** `namespace/name` of the pods bound to this node */
  pods: z.array(z.string()),
});
export type TLabNodeView = z.infer<typeof ZLabNodeView>;

export const ZComponentHealth = z.enum(['Healthy', 'Unhealthy', 'Unknown']);

export const ZLabControlPlaneView = z.object({
  /** kube-apiserver, etcd, kube-controller-manager, kube-scheduler */
  component: z.string(),
  node: z.string(),
  /** its static (mirror) pod in kube-system, when the apiserver can list it */
  pod: z.string().nullable(),
  health: ZComponentHealth,
});
export type TLabControlPlaneView = z.infer<typeof ZLabControlPlaneView>;

export const ZLabEtcdMemberView = z.object({
  id: z.string(),
  name: z.string(),
  peerURL: z.string(),
  clientURL: z.string(),
  healthy: z.boolean(),
  isLeader: z.boolean(),
});

export const ZLabEtcdView = z.object({
  members: z.array(ZLabEtcdMemberView),
  hasQuorum: z.boolean(),
  revision: z.number().int().nonnegative(),
});
export type TLabEtcdView = z.infer<typeof ZLabEtcdView>;

export const ZLabPodView = z.object({
  namespace: z.string(),
  name: z.string(),
  phase: z.string(),
  /** the STATUS column of `kubectl get pods` (e.g. ContainerCreating, CrashLoopBackOff) */
  status: z.string(),
  node: z.string().nullable(),
  /** `ready/total` containers, as the READY column */
  ready: z.string(),
  isReady: z.boolean(),
  podIP: z.string().nullable(),
  restarts: z.number().int().nonnegative(),
  ownerKind: z.string().nullable(),
});
export type TLabPodView = z.infer<typeof ZLabPodView>;

export const ZLabServiceView = z.object({
  namespace: z.string(),
  name: z.string(),
  type: z.string(),
  clusterIP: z.string().nullable(),
  ports: z.array(z.string()),
  /** ready endpoints as `ip:port` */
  endpoints: z.array(z.string()),
});
export type TLabServiceView = z.infer<typeof ZLabServiceView>;

export const ZLabView = ZLabSummary.extend({
  clock: ZLabClock,
  /** highest trace seq stored: a stream opened with this Last-Event-ID continues from here */
  traceSeq: z.number().int().nonnegative(),
  nodes: z.array(ZLabNodeView),
  controlPlane: z.array(ZLabControlPlaneView),
  etcd: ZLabEtcdView,
  pods: z.array(ZLabPodView),
  services: z.array(ZLabServiceView),
});
export type TLabView = z.infer<typeof ZLabView>;

// ---- server-sent events (GET /api/labs/:id/stream) --------------------------------------------

export const ZTraceEventPayload = z.object({
  seq: z.number().int().positive(),
  t: z.number().int().nonnegative(),
  component: z.string(),
  node: z.string().optional(),
  verb: z.string(),
  object: z
    .object({ kind: z.string(), namespace: z.string().optional(), name: z.string() })
    .optional(),
  message: z.string(),
  causedBy: z.number().int().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type TTraceEventPayload = z.infer<typeof ZTraceEventPayload>;

/** SSE event names; a `trace` event carries `id: <seq>` so a reconnect resumes after it. */
export const LAB_SSE_EVENTS = {
  trace: 'trace',
  view: 'view',
  deleted: 'deleted',
  resync: 'resync',
} as const;

/**
 * `event: resync` — the client read too slowly, so the server stopped queueing events for it;
 * once its socket drained, the events it missed follow from the database (after `afterSeq`),
 * then a fresh view. Nothing is lost; a client may show that it caught up.
 */
export const ZLabResyncEventPayload = z.object({ afterSeq: z.number().int().nonnegative() });

/** `event: view` — the lab changed; the payload is the fresh view model. */
export const ZLabViewEventPayload = ZLabView;

// ---- worker <-> api (Redis) -------------------------------------------------------------------

/** Redis pub/sub channel carrying a lab's notices (prefix = REDIS_KEY_PREFIX). */
export function labChannel(redisKeyPrefix: string, labId: string): string {
  return `${redisKeyPrefix}lab:${labId}`;
}

/** What a writer (worker tick, API exec/clock) publishes after each committed change. */
export const ZLabNotice = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('changed'),
    revision: z.number().int().nonnegative(),
    simTimeMs: z.number().int().nonnegative(),
    /** trace events committed with this revision, in seq order */
    events: z.array(ZTraceEventPayload),
    /** false when only the clock moved (no etcd key changed) */
    objectsChanged: z.boolean(),
  }),
  z.object({ type: z.literal('deleted') }),
]);
export type TLabNotice = z.infer<typeof ZLabNotice>;

/** BullMQ: queue and job names shared by the API (which re-arms) and the worker (which ticks). */
export const LAB_QUEUE = 'labs';
export const LAB_TICK_JOB = 'lab.tick';
export const LAB_HIBERNATE_JOB = 'lab.hibernate';
/** One Job Scheduler per lab while it needs ticking. */
export function labSchedulerId(labId: string): string {
  return `lab:${labId}`;
}
export const ZLabTickPayload = z.object({ labId: z.string().min(1) });
export type TLabTickPayload = z.infer<typeof ZLabTickPayload>;

/** A sentence in both locales (the UI shows the learner's). */
export const ZLocalizedText = z.object({ en: z.string(), 'zh-TW': z.string() });

/** POST /api/labs/:id/check: the scenario graded on the server, and the attempt recorded. */
export const ZLabCheckResponse = z.object({
  /** attempt number within the lab, from 1 */
  attempt: z.number().int().positive(),
  passed: z.boolean(),
  score: z.number().int().nonnegative(),
  maxScore: z.number().int().positive(),
  /** simulated ms of the lab when it was graded */
  simTimeMs: z.number().int().nonnegative(),
  objectives: z.array(
    z.object({
      id: z.string(),
      text: ZLocalizedText,
      passed: z.boolean(),
      points: z.number().int().positive(),
      /** only for an objective not met */
      hint: ZLocalizedText.nullable(),
    }),
  ),
});
export type TLabCheckResponse = z.infer<typeof ZLabCheckResponse>;

/** GET /api/labs/:id/check: the lab's latest graded attempt (null before the first check). */
export const ZLabLastCheckResponse = z.object({ last: ZLabCheckResponse.nullable() });
export type TLabLastCheckResponse = z.infer<typeof ZLabLastCheckResponse>;

/** GET /api/labs/scenarios: what a learner can start (hints are only given by a failed check). */
export const ZScenarioListResponse = z.object({
  scenarios: z.array(
    z.object({
      id: z.string(),
      title: ZLocalizedText,
      brief: ZLocalizedText,
      maxScore: z.number().int().positive(),
      objectives: z.array(
        z.object({ id: z.string(), text: ZLocalizedText, points: z.number().int().positive() }),
      ),
    }),
  ),
});
export type TScenarioListResponse = z.infer<typeof ZScenarioListResponse>;
