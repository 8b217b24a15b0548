// Port of Go's text/tabwriter (the liggitt/tabwriter fork kubectl uses): tab-terminated cells,
// column blocks of consecutive lines, width = max(minwidth, widest cell + padding), padded with
// spaces. `kubectl get` uses (6, 4, 3) with RememberWidths; `kubectl describe` uses (0, 8, 2).

export interface TabWriterOptions {
  minwidth: number;
  tabwidth: number;
  padding: number;
}

export const GET_TABWRITER: TabWriterOptions = { minwidth: 6, tabwidth: 4, padding: 3 };
export const DESCRIBE_TABWRITER: TabWriterOptions = { minwidth: 0, tabwidth: 8, padding: 2 };

/** Go counts runes: every UTF-16 unit except the second half of a surrogate pair. */
function runeWidth(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

const SPACES: string[] = [];
function spaces(n: number): string {
  if (n <= 0) return '';
  return (SPACES[n] ??= ' '.repeat(n));
}

/**
 * Formats `text` (lines of tab-separated cells) as Go's tabwriter would on Flush. `remembered`
 * carries column widths across calls (RememberWidths): `kubectl get -w` rows keep the header's
 * alignment and only ever grow.
 *
 * Go formats recursively: a column block is a run of consecutive lines that have a tab-terminated
 * cell in that column, inside the enclosing block of the previous column. Because a line with a
 * cell in column j also has one in column j-1, those runs are simply the maximal runs of lines
 * with more than j+1 cells, so one pass per column gives the same widths in linear time.
 */
export function formatTabbed(text: string, opts: TabWriterOptions, remembered?: number[]): string {
  const endsWithNewline = text.endsWith('\n');
  const rows = (endsWithNewline ? text.slice(0, -1) : text).split('\n').map((l) => l.split('\t'));
  return formatCells(rows, opts, remembered) + (endsWithNewline ? '\n' : '');
}

/** The same on rows already split into cells (every row but the last cell is tab-terminated). */
export function formatCells(
  rows: string[][],
  opts: TabWriterOptions,
  remembered?: number[],
): string {
  const n = rows.length;
  const cellWidths = rows.map((cells) => cells.map(runeWidth));
  const padTo: number[][] = rows.map(() => []);
  for (let col = 0; ; col++) {
    let any = false;
    let i = 0;
    while (i < n) {
      if ((rows[i] as string[]).length - 1 <= col) {
        i++;
        continue;
      }
      any = true;
      const start = i;
      let width = Math.max(opts.minwidth, remembered?.[col] ?? 0);
      for (; i < n && (rows[i] as string[]).length - 1 > col; i++) {
        const w = ((cellWidths[i] as number[])[col] as number) + opts.padding;
        if (w > width) width = w;
      }
      if (remembered) remembered[col] = width;
      for (let k = start; k < i; k++) (padTo[k] as number[])[col] = width;
    }
    if (!any) break;
  }
  const out: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const cells = rows[i] as string[];
    const widths = cellWidths[i] as number[];
    const pads = padTo[i] as number[];
    let line = '';
    for (let j = 0; j < cells.length; j++) {
      line += cells[j];
      if (j < cells.length - 1) line += spaces((pads[j] as number) - (widths[j] as number));
    }
    out[i] = line;
  }
  return out.join('\n');
}
