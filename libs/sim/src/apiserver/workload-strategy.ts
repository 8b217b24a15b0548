// Per-resource registry strategies that the generic create/update path calls (k/k
// pkg/registry/<group>/<resource>/strategy.go), for what plain defaulting cannot know.

import type { KubeObject } from '../model';

export const DS_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/**
 * daemonSetStrategy PrepareForCreate/PrepareForUpdate: spec.templateGeneration starts at 1 and
 * grows by one whenever the pod template changes; apps/v1 shows it as an annotation. A client's
 * own value is ignored (the old object's value is the base).
 */
export function prepareDaemonSet(next: KubeObject, cur?: KubeObject): void {
  const template = (o: KubeObject) =>
    JSON.stringify((o['spec'] as { template?: unknown })?.template);
  let gen = 1;
  if (cur) {
    const prev = Number(cur.metadata.annotations?.[DS_TEMPLATE_GENERATION] ?? '1') || 1;
    gen = template(cur) === template(next) ? prev : prev + 1;
  }
  next.metadata.annotations = {
    ...(next.metadata.annotations ?? {}),
    [DS_TEMPLATE_GENERATION]: String(gen),
  };
}
