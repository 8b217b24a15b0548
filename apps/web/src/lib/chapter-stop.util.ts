import {
  formatMessage,
  METRO_LINE,
  type TMessages,
  type TMetroLine,
  type TStop,
} from '@kubejourney/content';

// Where a chapter sits on the metro line: its stop, its station number (the hall and the terminus
// have none) and its neighbours. The chapter page and the lab's lesson pane both label stops so.

export type TChapterStop = {
  stop: TStop;
  index: number;
  /** 1–7 for a station, undefined for the hall and the terminus */
  stationNumber?: number;
  previous?: TStop;
  next?: TStop;
};

export function findChapterStop(
  slug: string,
  line: TMetroLine = METRO_LINE,
): TChapterStop | undefined {
  const index = line.stops.findIndex((stop) => stop.slug === slug);
  if (index < 0) return undefined;
  const stop = line.stops[index] as TStop;
  const stationNumber =
    stop.kind === 'station'
      ? line.stops.slice(0, index + 1).filter((s) => s.kind === 'station').length
      : undefined;
  return {
    stop,
    index,
    ...(stationNumber ? { stationNumber } : {}),
    ...(index > 0 ? { previous: line.stops[index - 1] } : {}),
    ...(index < line.stops.length - 1 ? { next: line.stops[index + 1] } : {}),
  };
}

/** "Stop 5", "Departure hall" or "Terminus", in the learner's language. */
export function stopKicker(found: TChapterStop, learn: TMessages['learn']): string {
  if (found.stationNumber) return formatMessage(learn.stopNumber, { number: found.stationNumber });
  return found.stop.kind === 'hall' ? learn.kindHall : learn.kindTerminus;
}
