import { LOCALES, type TLocale } from '@kubejourney/contracts';
import { z } from 'zod';

// The course is drawn as a metro line: a departure hall, seven stations (one per component) and a
// terminus. The schema holds the rules the UI relies on, so a typo in the data fails a test instead
// of quietly drawing a wrong map.

/**
 * The seven components, spelled as the simulator's trace spells them (libs/sim trace COMPONENTS),
 * so a station, a trace badge and a lane of the journey view share one key and one colour.
 */
export const JOURNEY_COMPONENTS = [
  'kubectl',
  'kube-apiserver',
  'etcd',
  'kube-controller-manager',
  'kube-scheduler',
  'kubelet',
  'kube-proxy',
] as const;
export const ZJourneyComponent = z.enum(JOURNEY_COMPONENTS);
export type TJourneyComponent = z.infer<typeof ZJourneyComponent>;

/** Tailwind colour families. `stone` is the line's own ink, used by the hall and the terminus. */
export const COLOUR_FAMILIES = [
  'slate',
  'green',
  'amber',
  'violet',
  'blue',
  'teal',
  'rose',
  'stone',
] as const;
export const ZColourFamily = z.enum(COLOUR_FAMILIES);
export type TColourFamily = z.infer<typeof ZColourFamily>;

/** One colour per component, everywhere (UX.md). Errors never borrow these. */
export const COMPONENT_COLOURS: Readonly<Record<TJourneyComponent, TColourFamily>> = {
  kubectl: 'slate',
  'kube-apiserver': 'green',
  etcd: 'amber',
  'kube-controller-manager': 'violet',
  'kube-scheduler': 'blue',
  kubelet: 'teal',
  'kube-proxy': 'rose',
};

/** Where a component runs; the map groups stations by it. */
export const ZONES = ['laptop', 'control-plane', 'node'] as const;
export const ZZone = z.enum(ZONES);
export type TZone = z.infer<typeof ZZone>;

/** Progress a learner can have at a stop; only `not-visited` is tracked so far. */
export const STOP_PROGRESS_STATES = ['not-visited', 'reading', 'done', 'exercises-solved'] as const;
export const ZStopProgress = z.enum(STOP_PROGRESS_STATES);
export type TStopProgress = z.infer<typeof ZStopProgress>;

/** A text every locale must provide; an empty or missing translation is a data error. */
export const ZLocalizedText = z.strictObject(
  Object.fromEntries(LOCALES.map((locale) => [locale, z.string().trim().min(1)])) as Record<
    TLocale,
    z.ZodString
  >,
);
export type TLocalizedText = Record<TLocale, string>;

const ZSlug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'slug must be kebab-case');

const ZStopBase = z.object({
  id: ZSlug,
  slug: ZSlug,
  title: ZLocalizedText,
  summary: ZLocalizedText,
});

export const ZStation = ZStopBase.extend({
  kind: z.literal('station'),
  component: ZJourneyComponent,
  zone: ZZone,
  colour: ZColourFamily,
}).refine((station) => station.colour === COMPONENT_COLOURS[station.component], {
  message: 'a station takes the colour of its component',
  path: ['colour'],
});

export const ZEndStop = ZStopBase.extend({
  kind: z.enum(['hall', 'terminus']),
  colour: z.literal('stone'),
});

export const ZStop = z.discriminatedUnion('kind', [ZStation, ZEndStop]);
export type TStation = z.infer<typeof ZStation>;
export type TEndStop = z.infer<typeof ZEndStop>;
export type TStop = z.infer<typeof ZStop>;

export const ZMetroLine = z
  .object({
    id: ZSlug,
    name: ZLocalizedText,
    zones: z.strictObject({
      laptop: ZLocalizedText,
      'control-plane': ZLocalizedText,
      node: ZLocalizedText,
    }),
    stops: z.array(ZStop),
  })
  .superRefine((line, ctx) => {
    const { stops } = line;
    const fail = (message: string, path: (string | number)[] = ['stops']) =>
      ctx.addIssue({ code: 'custom', message, path });

    if (stops[0]?.kind !== 'hall') fail('the line starts at the departure hall');
    if (stops.at(-1)?.kind !== 'terminus') fail('the line ends at the terminus');
    if (stops.filter((stop) => stop.kind !== 'station').length !== 2) {
      fail('the line has exactly one hall and one terminus');
    }
    // The stations follow the request: the order is what the course teaches.
    const components = stops.flatMap((stop) => (stop.kind === 'station' ? [stop.component] : []));
    if (components.join() !== JOURNEY_COMPONENTS.join()) {
      fail(`stations must visit the components in journey order: ${JOURNEY_COMPONENTS.join(', ')}`);
    }
    for (const key of ['id', 'slug'] as const) {
      const seen = new Set<string>();
      stops.forEach((stop, index) => {
        if (seen.has(stop[key])) fail(`duplicate ${key} "${stop[key]}"`, ['stops', index, key]);
        seen.add(stop[key]);
      });
    }
  });
export type TMetroLine = z.infer<typeof ZMetroLine>;
