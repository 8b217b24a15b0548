import { z } from 'zod';

// A break-fix scenario is data: the cluster it starts from (manifests created through the
// apiserver, then faults injected through libs/sim's fault API), what the learner must reach
// (objectives, each a declarative check over the lab's state) and the hints shown when a check
// fails. Both locales are written on their own; a test holds them to the same ids.

const ZId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'id must be kebab-case');

/** A sentence in each locale the app speaks. */
export const ZLocalized = z.strictObject({ en: z.string().min(1), 'zh-TW': z.string().min(1) });
export type TLocalized = z.infer<typeof ZLocalized>;

const ZTaint = z.strictObject({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
});

/** The faults a scenario may inject (libs/sim `FaultSpec`, the kinds scenarios use). */
export const ZScenarioFault = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('stopComponent'),
    ref: z.strictObject({
      component: z.enum(['kubelet', 'kube-proxy', 'containerd']),
      node: z.string().min(1),
    }),
  }),
  z.strictObject({ type: z.literal('addNodeTaint'), node: z.string().min(1), taint: ZTaint }),
]);
export type TScenarioFault = z.infer<typeof ZScenarioFault>;

const ZLabels = z.record(z.string(), z.string());

/** A check over the lab's state; every kind reads objects the learner can see with kubectl. */
export const ZScenarioCheck = z.discriminatedUnion('kind', [
  /** at least `count` pods matching `selector` are Running with every container ready */
  z.strictObject({
    kind: z.literal('podsReady'),
    namespace: z.string().min(1),
    selector: ZLabels,
    count: z.number().int().positive(),
  }),
  /** the Service's Endpoints list at least one ready address */
  z.strictObject({
    kind: z.literal('serviceHasEndpoints'),
    namespace: z.string().min(1),
    name: z.string().min(1),
  }),
  /** the Node's Ready condition is True */
  z.strictObject({ kind: z.literal('nodeReady'), node: z.string().min(1) }),
  /** the Node still carries the taint (the fix must not remove it) */
  z.strictObject({
    kind: z.literal('nodeHasTaint'),
    node: z.string().min(1),
    key: z.string().min(1),
    effect: ZTaint.shape.effect,
  }),
]);
export type TScenarioCheck = z.infer<typeof ZScenarioCheck>;

export const ZScenarioObjective = z.strictObject({
  id: ZId,
  text: ZLocalized,
  check: ZScenarioCheck,
  /** shown when this objective is not met */
  hint: ZLocalized,
  points: z.number().int().positive(),
});
export type TScenarioObjective = z.infer<typeof ZScenarioObjective>;

export const ZScenario = z.strictObject({
  id: ZId,
  title: ZLocalized,
  /** what the learner is told when the lab opens */
  brief: ZLocalized,
  setup: z.strictObject({
    /** objects created as kubernetes-admin before the faults */
    manifests: z.array(z.record(z.string(), z.unknown())),
    /** simulated ms the healthy cluster runs before the faults */
    settleMs: z.number().int().nonnegative(),
    faults: z.array(ZScenarioFault),
    /** simulated ms the broken cluster runs before the learner arrives */
    brokenMs: z.number().int().nonnegative(),
  }),
  objectives: z.array(ZScenarioObjective).min(1),
});
export type TScenario = z.infer<typeof ZScenario>;
export type TScenarioInput = z.input<typeof ZScenario>;
