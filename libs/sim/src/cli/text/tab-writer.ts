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

/**
 * The same on rows already split into cells (every row but the last cell is tab-terminated).
 * `kubectl get -A` sends thousands of rows through here, so it keeps one flat array of cell
 * widths, one list of blocks per column, and appends straight to the output string.
 */
export function formatCells(
  rows: string[][],
  opts: TabWriterOptions,
  remembered?: number[],
): string {
  const n = rows.length;
  // widths of the tab-terminated cells, row after row
  const start = new Int32Array(n + 1);
  let columns = 0;
  for (let i = 0; i < n; i++) {
    const terminated = (rows[i] as string[]).length - 1;
    start[i + 1] = (start[i] as number) + (terminated > 0 ? terminated : 0);
    if (terminated > columns) columns = terminated;
  }
  const widths = new Int32Array(start[n] as number);
  for (let i = 0; i < n; i++) {
    const cells = rows[i] as string[];
    const at = start[i] as number;
    for (let j = 0; j < cells.length - 1; j++) widths[at + j] = runeWidth(cells[j] as string);
  }
  // per column, its blocks of consecutive lines: where each ends and how wide it is
  const blockEnds: number[][] = new Array<number[]>(columns);
  const blockWidths: number[][] = new Array<number[]>(columns);
  for (let col = 0; col < columns; col++) {
    const ends: number[] = [];
    const sizes: number[] = [];
    let i = 0;
    while (i < n) {
      if ((rows[i] as string[]).length - 1 <= col) {
        i++;
        continue;
      }
      let width = Math.max(opts.minwidth, remembered?.[col] ?? 0);
      for (; i < n && (rows[i] as string[]).length - 1 > col; i++) {
        const w = (widths[(start[i] as number) + col] as number) + opts.padding;
        if (w > width) width = w;
      }
      if (remembered) remembered[col] = width;
      ends.push(i);
      sizes.push(width);
    }
    blockEnds[col] = ends;
    blockWidths[col] = sizes;
  }
  const block = new Int32Array(columns);
  let out = '';
  for (let i = 0; i < n; i++) {
    if (i > 0) out += '\n';
    const cells = rows[i] as string[];
    const last = cells.length - 1;
    const at = start[i] as number;
    for (let j = 0; j < last; j++) {
      const ends = blockEnds[j] as number[];
      let b = block[j] as number;
      while ((ends[b] as number) <= i) b++;
      block[j] = b;
      out += cells[j] as string;
      out += spaces(((blockWidths[j] as number[])[b] as number) - (widths[at + j] as number));
    }
    if (last >= 0) out += cells[last] as string;
  }
  return out;
}
