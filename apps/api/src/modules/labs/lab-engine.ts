import type { TLabEngine } from '@kubejourney/db';
import { createLab, restoreLab, type SimLab } from '@kubejourney/sim';

/**
 * libs/sim bound to the lab store. A sandbox is the default cluster (control plane + 3 nodes);
 * scenarios are not published yet, so every scenario id is unknown (answered with 404).
 */
export const simLabEngine: TLabEngine<SimLab> = {
  create: (blueprint) =>
    blueprint.kind === 'SANDBOX' ? createLab({ seed: blueprint.seed }) : null,
  restore: (serialized) => restoreLab(serialized),
};
