// olekukonko/tablewriter as etcdctl uses it (-w table): upper-case centred headers, right-aligned
// cells, `+---+` borders.

export function etcdTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+\n`;
  const center = (s: string, w: number) => {
    const left = Math.floor((w - s.length) / 2);
    return ' '.repeat(left) + s + ' '.repeat(w - s.length - left);
  };
  let out = line;
  out += `|${header.map((h, i) => ` ${center(h.toUpperCase(), widths[i] as number)} `).join('|')}|\n`;
  out += line;
  for (const r of rows)
    out += `|${widths.map((w, i) => ` ${(r[i] ?? '').padStart(w)} `).join('|')}|\n`;
  out += line;
  return out;
}

/** dustin/go-humanize Bytes: `20 kB`, `2.1 MB`. */
export function humanizeBytes(n: number): string {
  if (n < 10) return `${n} B`;
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  const e = Math.min(Math.floor(Math.log(n) / Math.log(1000)), units.length - 1);
  const val = Math.floor((n / Math.pow(1000, e)) * 10 + 0.5) / 10;
  return `${val < 10 ? val.toFixed(1) : val.toFixed(0)} ${units[e]}`;
}
