import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  TClockRequest,
  TCreateLabRequest,
  TExecResponse,
  TLabCheckResponse,
  TLabLastCheckResponse,
  TLabListResponse,
  TScenarioListResponse,
  TLabNotice,
  TLabView,
} from '@kubejourney/contracts';
import {
  findScenario,
  gradeScenario,
  labStartFiles,
  SCENARIOS,
  type TScenario,
} from '@kubejourney/content';
import type {
  LabWriteContext,
  TLabCheckRecord,
  TLabCommit,
  TLabWriteResult,
} from '@kubejourney/db';
import { ADMIN_USER, type ApiResponse, type LabRequest, type SimLab } from '@kubejourney/sim';
import { randomInt } from 'node:crypto';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/domain-error';
import { LabEventsRepository } from './lab-events.repository';
import { LabQueueRepository } from './lab-queue.repository';
import { LAB_SHELL, type TLabShell } from './lab-shell';
import { toLabSummary, toLabView } from './lab-view.mapper';
import { LABS_CONFIG, type TLabsConfig } from './labs.config';
import { LabsRepository } from './labs.repository';

/** lastActiveAt is refreshed by reads at most this often (a read should rarely write). */
const TOUCH_EVERY_MS = 60_000;

const notFound = () => new DomainError('NOT_FOUND', 'Lab not found');

@Injectable()
export class LabsService {
  private readonly logger = new Logger(LabsService.name);

  constructor(
    private readonly labs: LabsRepository,
    private readonly queue: LabQueueRepository,
    private readonly events: LabEventsRepository,
    private readonly clock: Clock,
    @Inject(LABS_CONFIG) private readonly config: TLabsConfig,
    @Inject(LAB_SHELL) private readonly shell: TLabShell,
  ) {}

  async create(ownerId: string, request: TCreateLabRequest): Promise<TLabView> {
    const blueprint =
      request.kind === 'sandbox'
        ? { kind: 'SANDBOX' as const, scenarioId: null, seed: randomInt(1, 2 ** 31 - 1) }
        : {
            kind: 'SCENARIO' as const,
            scenarioId: request.scenarioId,
            seed: randomInt(1, 2 ** 31 - 1),
          };
    const created = await this.labs.create(ownerId, blueprint, this.config.limitPerUser);
    if (created.kind === 'limit-reached') {
      throw new DomainError(
        'LIMIT_REACHED',
        `You already have ${created.count} labs, the most one learner may keep at once (${this.config.limitPerUser}). Delete one to create another.`,
      );
    }
    if (created.kind === 'unknown-scenario') {
      throw new DomainError('NOT_FOUND', `Scenario "${blueprint.scenarioId}" not found`);
    }
    if (created.needsTicks) await this.queue.arm(created.header.id);
    return this.view(ownerId, created.header.id);
  }

  listScenarios(): TScenarioListResponse {
    return {
      scenarios: SCENARIOS.map((s) => ({
        id: s.id,
        title: s.title,
        brief: s.brief,
        maxScore: s.objectives.reduce((sum, o) => sum + o.points, 0),
        objectives: s.objectives.map((o) => ({ id: o.id, text: o.text, points: o.points })),
      })),
    };
  }

  async list(ownerId: string): Promise<TLabListResponse> {
    return { labs: (await this.labs.listOwned(ownerId)).map(toLabSummary) };
  }

  /** The view model; a hibernated lab wakes up (the learner came back). */
  async get(ownerId: string, labId: string): Promise<TLabView> {
    const header = await this.labs.findOwned(labId, ownerId);
    if (!header) throw notFound();
    const now = this.clock.now();
    if (header.status === 'HIBERNATED') {
      await this.commit(await this.labs.write(labId, ownerId, (ctx) => this.wake(ctx)));
    } else if (now.getTime() - header.lastActiveAt.getTime() > TOUCH_EVERY_MS) {
      await this.labs.touch(labId, now);
    }
    return this.view(ownerId, labId);
  }

  async exec(ownerId: string, labId: string, command: string): Promise<TExecResponse> {
    if (!(await this.labs.findOwned(labId, ownerId))) throw notFound();
    const wait = await this.events.takeCommandToken(
      labId,
      this.config.rateLimit.commands,
      this.config.rateLimit.windowSeconds,
    );
    if (wait !== null) {
      throw new DomainError(
        'RATE_LIMITED',
        `Too many commands for this lab: at most ${this.config.rateLimit.commands} every ${this.config.rateLimit.windowSeconds} seconds. Try again in ${wait} s.`,
        { retryAfterSeconds: wait },
      );
    }
    const result = await this.labs.write(labId, ownerId, (ctx) => {
      this.wake(ctx);
      ctx.catchUp();
      const started = performance.now();
      const { terminalState, prompt, openEditor, ...output } = this.shell(
        ctx.lab,
        command,
        (ms) => ctx.advance(ms),
        ctx.terminalState,
        // A sandbox starts with the files the chapters' commands use (kubectl apply -f
        // deployment.yaml); the worker replays the command with the same (libs/content).
        labStartFiles(ctx.row.kind),
      );
      ctx.terminalState = terminalState;
      const simTimeMs = ctx.lab.now;
      const seq = ctx.recordCommand({
        input: command,
        ...output,
        simTimeMs,
        wallMs: Math.round(performance.now() - started),
      });
      return { seq, ...output, simTimeMs, prompt, ...(openEditor ? { openEditor } : {}) };
    });
    return this.commit(result);
  }

  /**
   * An apiserver call as the lab's admin, outside the command line (scenario setup, graders,
   * tests). Persisted, published and re-armed like a command, but not in the command history.
   */
  async request(ownerId: string, labId: string, request: LabRequest): Promise<ApiResponse> {
    return this.commit(
      await this.labs.write(labId, ownerId, (ctx) => {
        this.wake(ctx);
        ctx.catchUp();
        ctx.isMutated = true;
        return ctx.lab.request(ADMIN_USER, request);
      }),
    );
  }

  /**
   * Grades a scenario lab where it stands now (caught up with its clock) and records the
   * attempt. Grading reads the lab only: the write commits the catch-up, nothing else.
   */
  async check(ownerId: string, labId: string): Promise<TLabCheckResponse> {
    const header = await this.labs.findOwned(labId, ownerId);
    if (!header) throw notFound();
    const scenario = header.scenarioId ? findScenario(header.scenarioId) : undefined;
    if (header.kind !== 'SCENARIO' || !scenario) {
      throw new DomainError('CONFLICT', 'This lab is a sandbox: only scenario labs are graded.');
    }
    const graded = await this.commit(
      await this.labs.write(labId, ownerId, (ctx) => {
        this.wake(ctx);
        ctx.catchUp();
        return { grade: gradeScenario(scenario, ctx.lab), simTimeMs: ctx.lab.now };
      }),
    );
    const { grade, simTimeMs } = graded;
    const record = {
      passed: grade.passed,
      score: grade.score,
      maxScore: grade.maxScore,
      objectives: grade.objectives,
      simTimeMs,
    };
    const attempt = await this.labs.recordCheck(labId, record);
    return toCheckResponse(scenario, { ...record, seq: attempt });
  }

  /** The latest attempt, as `check` answered it (a learner coming back to the exercise). */
  async lastCheck(ownerId: string, labId: string): Promise<TLabLastCheckResponse> {
    const header = await this.labs.findOwned(labId, ownerId);
    if (!header) throw notFound();
    const scenario = header.scenarioId ? findScenario(header.scenarioId) : undefined;
    if (header.kind !== 'SCENARIO' || !scenario) return { last: null };
    const last = await this.labs.lastCheck(labId);
    return { last: last ? toCheckResponse(scenario, last) : null };
  }

  async changeClock(ownerId: string, labId: string, request: TClockRequest): Promise<TLabView> {
    await this.commit(
      await this.labs.write(labId, ownerId, (ctx) => {
        this.wake(ctx);
        ctx.isTouched = true;
        if ('speed' in request) ctx.changeClock({ speed: request.speed });
        else if (request.action === 'pause') ctx.changeClock({ paused: true });
        else if (request.action === 'resume') ctx.changeClock({ paused: false });
        else ctx.step(request.ms);
      }),
    );
    return this.view(ownerId, labId);
  }

  async reset(ownerId: string, labId: string): Promise<TLabView> {
    await this.commit(await this.labs.reset(labId, ownerId));
    return this.view(ownerId, labId);
  }

  async delete(ownerId: string, labId: string): Promise<void> {
    if (!(await this.labs.findOwned(labId, ownerId))) throw notFound();
    await this.labs.delete(labId);
    await this.queue.disarm(labId);
    await this.publish(labId, { type: 'deleted' });
  }

  async view(ownerId: string, labId: string): Promise<TLabView> {
    const data = await this.labs.readView(labId, ownerId);
    if (!data) throw notFound();
    return toLabView(data.header, data.coreState, data.objects, this.clock.now().getTime());
  }

  private wake(ctx: LabWriteContext<SimLab>): void {
    ctx.wake();
    ctx.isTouched = true;
  }

  /**
   * After a committed write: tell the streams, and keep the tick scheduler in step with the
   * lab (armed while it converges and its clock runs, removed otherwise).
   */
  private async commit<T>(written: TLabWriteResult<T>): Promise<T> {
    if (written.kind !== 'ok') throw notFound();
    const commit = written.commit;
    if (commit) {
      const labId = commit.header.id;
      await this.publish(labId, toChangedNotice(commit));
      if (commit.needsTicks) await this.queue.arm(labId);
      else if (commit.header.paused || commit.header.status !== 'ACTIVE')
        await this.queue.disarm(labId);
    }
    return written.result;
  }

  private async publish(labId: string, notice: TLabNotice): Promise<void> {
    // The write is committed: a lost notice only delays streams until the next one (they also
    // fill gaps from the database), so it must not fail the request.
    await this.events.publish(labId, notice).catch((error: unknown) => {
      this.logger.warn(`could not publish a notice for lab ${labId}: ${String(error)}`);
    });
  }
}

export function toChangedNotice(commit: TLabCommit): TLabNotice {
  return {
    type: 'changed',
    revision: commit.revision,
    simTimeMs: commit.simTimeMs,
    events: commit.events,
    objectsChanged: commit.objectsChanged,
  };
}

/** A graded attempt in the scenario's words: each objective's text, and a hint where not met. */
function toCheckResponse(
  scenario: TScenario,
  attempt: TLabCheckRecord & { seq: number },
): TLabCheckResponse {
  return {
    attempt: attempt.seq,
    passed: attempt.passed,
    score: attempt.score,
    maxScore: attempt.maxScore,
    simTimeMs: attempt.simTimeMs,
    objectives: scenario.objectives.map((objective) => {
      const passed = attempt.objectives.find((o) => o.id === objective.id)?.passed === true;
      return {
        id: objective.id,
        text: objective.text,
        passed,
        points: objective.points,
        hint: passed ? null : objective.hint,
      };
    }),
  };
}
