import { ADMIN_USER, applyFault, createLab, type SimLab } from '@kubejourney/sim';
import { labFromImage, warmImage } from '../labs/boot-image';
import type { TScenario } from './scenario.schema';

// A scenario's starting cluster, built only through libs/sim's public API: a default lab runs
// healthy for `settleMs`, the faults are injected (so a taint is there before any pod is
// scheduled), the manifests are created as kubernetes-admin (as `kubectl create` would), and
// the broken cluster runs for `brokenMs` so the learner arrives to the symptoms
// (ImagePullBackOff, NotReady, Pending...) rather than to their causes.

/** Advances in steps no longer than a tick's catch-up, as the lab runtime would. */
function run(lab: SimLab, ms: number): void {
  for (let left = ms; left > 0; left -= 2_000) lab.advance(Math.min(2_000, left));
}

/** The healthy prelude scenarios share: a default lab run for `settleMs` (a boot image). */
function healthyPrelude(settleMs: number): (seed: number) => SimLab {
  return (seed) => {
    const lab = createLab({ seed });
    run(lab, settleMs);
    return lab;
  };
}

function preludeImageKey(settleMs: number): string {
  return `scenario-prelude:${settleMs}`;
}

/** Builds the prelude image `scenario` starts from, if this process has not yet. */
export function warmScenarioImage(scenario: TScenario): void {
  const { settleMs } = scenario.setup;
  warmImage(preludeImageKey(settleMs), healthyPrelude(settleMs));
}

export function createScenarioLab(scenario: TScenario, seed: number): SimLab {
  const { settleMs } = scenario.setup;
  const lab = labFromImage(preludeImageKey(settleMs), healthyPrelude(settleMs), seed);
  for (const fault of scenario.setup.faults) {
    const result = applyFault(lab, fault);
    if (!result.ok) throw new Error(`scenario ${scenario.id}: ${result.message}`);
  }
  for (const manifest of scenario.setup.manifests) {
    const meta = (manifest['metadata'] ?? {}) as { namespace?: string };
    const kind = String(manifest['kind']);
    const res = lab.request(ADMIN_USER, {
      verb: 'create',
      resource: RESOURCE_BY_KIND[kind] ?? `${kind.toLowerCase()}s`,
      namespace: meta.namespace,
      body: manifest,
    });
    if (res.code !== 201) {
      throw new Error(`scenario ${scenario.id}: creating a ${kind} answered HTTP ${res.code}`);
    }
  }
  run(lab, scenario.setup.brokenMs);
  return lab;
}

/** The kinds scenarios create, with their resource names (plural, as the apiserver serves them). */
const RESOURCE_BY_KIND: Record<string, string> = {
  Deployment: 'deployments',
  Service: 'services',
  Pod: 'pods',
};
