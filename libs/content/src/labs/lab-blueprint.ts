import {
  createLab,
  restoreLab,
  runCommandLine,
  type SerializedLab,
  type SimLab,
} from '@kubejourney/sim';
import { CHAPTER_LAB_FILES } from '../chapters/chapter-commands.data';
import { bootImageTraceOf, labFromImage, warmImage } from './boot-image';
import { findScenario, SCENARIOS } from '../scenarios/scenarios.data';
import { createScenarioLab, warmScenarioImage } from '../scenarios/scenario-lab';

/** What a stored lab is built from (libs/db keeps it on the Lab row). */
export type TLabBlueprintKind = 'SANDBOX' | 'SCENARIO';

/**
 * The files /root holds when a lab's first shell opens: a sandbox has the manifests the
 * chapters' commands use (`kubectl apply -f deployment.yaml`); a scenario brings its own state.
 */
export function labStartFiles(
  kind: TLabBlueprintKind,
): Readonly<Record<string, string>> | undefined {
  return kind === 'SANDBOX' ? CHAPTER_LAB_FILES : undefined;
}

/** Simulated time a fresh cluster may take to come up (it takes about 12 s). */
const BOOT_LIMIT_MS = 60_000;

/**
 * A sandbox as a learner finds a cluster kubeadm has just set up: every node Ready, kube-proxy
 * and CoreDNS running, nothing left to do. Its boot (~12 simulated seconds, ~1,200 trace
 * events) is in the lab's trace like everything else; the lab arrives quiescent, so no tick
 * runs until the learner does something. Steps of 500 ms, as ticks would.
 */
export function bootSandbox(seed: number): SimLab {
  const lab = createLab({ seed });
  let step = lab.advance(0);
  for (let t = 0; !step.quiescent && t < BOOT_LIMIT_MS; t += 500) step = lab.advance(500);
  return lab;
}

const SANDBOX_IMAGE = 'sandbox';

/** A booted sandbox from the sandbox's boot image, its PRNG seeded with `seed` from there on. */
export function createBootedLab(seed: number): SimLab {
  return labFromImage(SANDBOX_IMAGE, bootSandbox, seed);
}

/**
 * libs/sim bound to the lab store (libs/db `TLabEngine`), the same in the API and the worker:
 * a sandbox is the default cluster (control plane + 3 nodes), booted; a scenario is built broken from
 * its setup (an unknown scenario id gives null). `replayCommand` runs a recorded command line
 * again exactly as `POST /exec` ran it, so a process whose copy of the lab is one command behind
 * catches up without rebuilding the lab.
 */
export const simLabEngine = {
  create(blueprint: { kind: TLabBlueprintKind; scenarioId: string | null; seed: number }) {
    if (blueprint.kind === 'SANDBOX') return createBootedLab(blueprint.seed);
    const scenario = blueprint.scenarioId ? findScenario(blueprint.scenarioId) : undefined;
    return scenario ? createScenarioLab(scenario, blueprint.seed) : null;
  },
  /**
   * Builds every boot image now (~0.3 s of CPU), so that no learner's first lab waits for one:
   * a server calls it once at startup.
   */
  warm(): void {
    warmImage(SANDBOX_IMAGE, bootSandbox);
    for (const scenario of SCENARIOS) warmScenarioImage(scenario);
  },
  /** The boot image a just-created lab came from (its trace is the image's): see boot-image.ts. */
  bootImageTrace: (lab: SimLab) => bootImageTraceOf(lab),
  restore: (serialized: string): SimLab => restoreLab(serialized),
  restoreValue: (value: unknown): SimLab => restoreLab(value as SerializedLab),
  replayCommand(
    lab: SimLab,
    command: { input: string; kind: TLabBlueprintKind },
    terminalState: string | null,
    advance: (ms: number) => unknown,
  ): string {
    return runCommandLine(lab, command.input, advance, terminalState, labStartFiles(command.kind))
      .terminalState;
  },
};
