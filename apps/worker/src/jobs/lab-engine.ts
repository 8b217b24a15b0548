import { createScenarioLab, findScenario } from '@kubejourney/content';
import type { TLabEngine } from '@kubejourney/db';
import { createLab, restoreLab, type SimLab } from '@kubejourney/sim';

/** libs/sim bound to the lab store (the API binds the same; apps never import each other). */
export const simLabEngine: TLabEngine<SimLab> = {
  create: (blueprint) => {
    if (blueprint.kind === 'SANDBOX') return createLab({ seed: blueprint.seed });
    const scenario = blueprint.scenarioId ? findScenario(blueprint.scenarioId) : undefined;
    return scenario ? createScenarioLab(scenario, blueprint.seed) : null;
  },
  restore: (serialized) => restoreLab(serialized),
};
