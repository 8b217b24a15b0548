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

function runeWidth(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Formats `text` (lines of tab-separated cells) as Go's tabwriter would on Flush. `remembered`
 * carries column widths across calls (RememberWidths): `kubectl get -w` rows keep the header's
 * alignment and only ever grow.
 */
export function formatTabbed(text: string, opts: TabWriterOptions, remembered?: number[]): string {
  const endsWithNewline = text.endsWith('\n');
  const rawLines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const lines = rawLines.map((l) => l.split('\t'));
  const out: string[] = [];
  const widths: number[] = [];

  const writeLines = (line0: number, line1: number) => {
    for (let i = line0; i < line1; i++) {
      const cells = lines[i] as string[];
      let s = '';
      for (let j = 0; j < cells.length; j++) {
        const c = cells[j] as string;
        s += c;
        if (j < widths.length && j < cells.length - 1) {
          const pad = (widths[j] as number) - runeWidth(c);
          if (pad > 0) s += ' '.repeat(pad);
        }
      }
      out.push(s);
    }
  };

  const format = (line0: number, line1: number) => {
    const column = widths.length;
    for (let th = line0; th < line1; th++) {
      if (column >= (lines[th] as string[]).length - 1) continue;
      writeLines(line0, th);
      line0 = th;
      let width = opts.minwidth;
      if (remembered && remembered[column] !== undefined)
        width = Math.max(width, remembered[column]);
      for (; th < line1; th++) {
        const cells = lines[th] as string[];
        if (column >= cells.length - 1) break;
        const w = runeWidth(cells[column] as string) + opts.padding;
        if (w > width) width = w;
      }
      if (remembered) remembered[column] = width;
      widths.push(width);
      format(line0, th);
      widths.pop();
      line0 = th;
      th--; // the outer loop's th++ must revisit the line that ended the block
    }
    writeLines(line0, line1);
  };
  format(0, lines.length);
  return out.join('\n') + (endsWithNewline ? '\n' : '');
}
