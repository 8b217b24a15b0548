import { COMPONENTS } from '@kubejourney/sim';
import { LOCALES } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import { findStopBySlug, listStations, METRO_LINE } from './metro-line.data';
import {
  COMPONENT_COLOURS,
  JOURNEY_COMPONENTS,
  ZMetroLine,
  type TMetroLine,
  type TStop,
} from './metro-line.schema';

const clone = (): TMetroLine => structuredClone(METRO_LINE);
const issuesOf = (line: unknown) => {
  const result = ZMetroLine.safeParse(line);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('METRO_LINE', () => {
  it('should pass the metro line schema when parsed', () => {
    expect(issuesOf(METRO_LINE)).toEqual([]);
  });

  it('should list the seven stations in journey order when asked for stations', () => {
    expect(listStations().map((station) => station.component)).toEqual([
      'kubectl',
      'kube-apiserver',
      'etcd',
      'kube-controller-manager',
      'kube-scheduler',
      'kubelet',
      'kube-proxy',
    ]);
  });

  it('should start at the departure hall and end at the terminus when read in order', () => {
    expect(METRO_LINE.stops.map((stop) => stop.kind)).toEqual([
      'hall',
      ...Array(7).fill('station'),
      'terminus',
    ]);
  });

  it('should use the component names of the simulator trace when naming components', () => {
    expect([...JOURNEY_COMPONENTS]).toEqual([...COMPONENTS]);
  });

  it.each(LOCALES)(
    'should give every stop a distinct title and a summary when the locale is %s',
    (locale) => {
      const titles = METRO_LINE.stops.map((stop) => stop.title[locale]);
      expect(new Set(titles).size).toBe(METRO_LINE.stops.length);
      for (const stop of METRO_LINE.stops) {
        expect(stop.summary[locale].length).toBeGreaterThan(40);
        expect(stop.summary[locale].length).toBeLessThan(260);
      }
    },
  );

  it.each(listStations().map((station) => [station.slug, station] as const))(
    'should name the component in both titles when the station is %s',
    (_slug, station) => {
      const name = station.component.replace(/^kube-controller-manager$/, 'controller-manager');
      for (const locale of LOCALES) expect(station.title[locale]).toContain(name);
    },
  );

  it('should find a stop by its slug when the slug exists', () => {
    expect(findStopBySlug('etcd')?.title.en).toContain('etcd');
    expect(findStopBySlug('no-such-stop')).toBeUndefined();
  });
});

describe('ZMetroLine', () => {
  const station = (line: TMetroLine, slug: string) =>
    line.stops.find((stop) => stop.slug === slug) as Extract<TStop, { kind: 'station' }>;

  it.each<[string, (line: TMetroLine) => void, string]>([
    [
      'a translation is missing',
      (line) => delete (line.stops[1].title as Partial<Record<string, string>>).en,
      'expected string',
    ],
    ['a translation is blank', (line) => (line.stops[2].summary['zh-TW'] = '   '), 'Too small'],
    [
      'a station wears another component colour',
      (line) => (station(line, 'etcd').colour = 'green'),
      'a station takes the colour of its component',
    ],
    [
      'two stations swap places',
      (line) => ([line.stops[4], line.stops[5]] = [line.stops[5], line.stops[4]]),
      'journey order',
    ],
    ['a slug is repeated', (line) => (line.stops[3].slug = 'kubectl'), 'duplicate slug "kubectl"'],
    ['the slug is not kebab-case', (line) => (line.stops[3].slug = 'Etcd Store'), 'kebab-case'],
    ['the terminus is missing', (line) => line.stops.pop(), 'ends at the terminus'],
    ['a station is missing', (line) => line.stops.splice(6, 1), 'journey order'],
  ])('should reject the line when %s', (_case, mutate, expected) => {
    const line = clone();
    mutate(line);
    expect(issuesOf(line).join('\n')).toContain(expected);
  });

  it('should give every component exactly one colour when the colour table is read', () => {
    const colours = JOURNEY_COMPONENTS.map((component) => COMPONENT_COLOURS[component]);
    expect(new Set(colours).size).toBe(JOURNEY_COMPONENTS.length);
    expect(colours).not.toContain('stone');
  });
});
