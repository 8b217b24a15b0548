import type { TLabEngine } from '@kubejourney/db';
import { createLab, restoreLab, type SimLab } from '@kubejourney/sim';

/** libs/sim bound to the lab store (the API binds the same; apps never import each other). */
export const simLabEngine: TLabEngine<SimLab> = {
  create: (blueprint) =>
    blueprint.kind === 'SANDBOX' ? createLab({ seed: blueprint.seed }) : null,
  restore: (serialized) => restoreLab(serialized),
};
