// Building blocks of kubectl describe (kubectl pkg/describe/describe.go): the prefix writer's
// levels, multi-line labels/annotations, RFC1123Z times and the Events table (FIDELITY.md §2).

import type { KubeObject } from '../../model';
import { timestampSince } from '../../apiserver/printers';
import { MONTH_ABBR, WEEKDAY_ABBR } from '../../shared/time';

export class DescribeWriter {
  text = '';
  /** writes `fmt` at an indent level (two spaces per level), like prefixWriter.Write */
  w(level: number, s: string): void {
    this.text += '  '.repeat(level) + s;
  }
}

/** time.RFC1123Z: `Mon, 02 Jan 2006 15:04:05 -0700` (UTC here). */
export function rfc1123z(iso: string | undefined): string {
  const t = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(t)) return '<unset>';
  const d = new Date(t);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${WEEKDAY_ABBR[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTH_ABBR[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

export function labelsMultiline(
  w: DescribeWriter,
  title: string,
  labels: Record<string, string> | undefined,
  indent = '',
): void {
  w.w(0, `${indent}${title}:\t`);
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) {
    w.text += '<none>\n';
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) w.w(0, `${indent}\t`);
    w.text += `${k}=${(labels as Record<string, string>)[k]}\n`;
  });
}

const MAX_ANNOTATION_LEN = 140;

export function annotationsMultiline(
  w: DescribeWriter,
  annotations: Record<string, string> | undefined,
  indent = '',
): void {
  w.w(0, `${indent}Annotations:\t`);
  const keys = Object.keys(annotations ?? {}).sort();
  if (keys.length === 0) {
    w.text += '<none>\n';
    return;
  }
  keys.forEach((k, i) => {
    if (i !== 0) w.w(0, `${indent}\t`);
    const value = (annotations as Record<string, string>)[k]?.replace(/\n$/, '') ?? '';
    if (value.length + k.length + 2 > MAX_ANNOTATION_LEN) {
      w.text += `${k}:\n`;
      for (const line of value.split('\n')) {
        const short =
          line.length > MAX_ANNOTATION_LEN - 2
            ? `${line.slice(0, MAX_ANNOTATION_LEN - 5)}...`
            : line;
        w.w(0, `${indent}\t  ${short}\n`);
      }
    } else w.text += `${k}: ${value}\n`;
  });
}

type Ev = KubeObject & {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  source?: { component?: string };
  reportingComponent?: string;
  reportingController?: string;
};

export function eventsSection(w: DescribeWriter, events: KubeObject[], now: number): void {
  if (events.length === 0) {
    w.text += 'Events:\t<none>\n';
    return;
  }
  // SortableEvents orders by lastTimestamp; same-second events keep the order they were recorded in
  const rv = (e: Ev) => Number(e.metadata?.resourceVersion ?? 0);
  const at = (e: Ev) => Date.parse(e.lastTimestamp ?? e.eventTime ?? '');
  const sorted = [...(events as Ev[])].sort((a, b) => at(a) - at(b) || rv(a) - rv(b));
  w.text += 'Events:\n';
  w.w(1, 'Type\tReason\tAge\tFrom\tMessage\n');
  w.w(1, '----\t------\t----\t----\t-------\n');
  for (const e of sorted) {
    const first = timestampSince(e.firstTimestamp || e.eventTime, now);
    const interval =
      (e.count ?? 1) > 1
        ? `${timestampSince(e.lastTimestamp, now)} (x${e.count} over ${first})`
        : first;
    const source = e.source?.component || e.reportingController || e.reportingComponent || '';
    w.w(
      1,
      `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${(e.message ?? '').trim()}\n`,
    );
  }
}
