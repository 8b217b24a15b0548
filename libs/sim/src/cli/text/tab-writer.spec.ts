import { describe, expect, it } from 'vitest';
import type { TabWriterOptions } from './tab-writer';
import { DESCRIBE_TABWRITER, GET_TABWRITER, formatCells, formatTabbed } from './tab-writer';

describe('formatTabbed', () => {
  it('should pad get columns to widest cell + 3 when cells are wider than 6', () => {
    const text =
      'NAME\tREADY\tSTATUS\tRESTARTS\tAGE\n' + 'my-app-7d9f4b6c5-x2k1m\t0/1\tPending\t0\t2s\n';
    expect(formatTabbed(text, GET_TABWRITER)).toBe(
      'NAME                     READY   STATUS    RESTARTS   AGE\n' +
        'my-app-7d9f4b6c5-x2k1m   0/1     Pending   0          2s\n',
    );
  });

  it('should keep a minimum width of 6 when every cell is short', () => {
    expect(formatTabbed('A\tB\tC\nx\ty\tz\n', GET_TABWRITER)).toBe(
      'A     B     C\nx     y     z\n',
    );
  });

  it('should end a column block at a line with fewer cells when formatting describe output', () => {
    const text = 'Name:\tweb\nNamespace:\tdefault\nContainers:\n  app:\n    Image:\tnginx\n';
    expect(formatTabbed(text, DESCRIBE_TABWRITER)).toBe(
      'Name:       web\nNamespace:  default\nContainers:\n  app:\n    Image:  nginx\n',
    );
  });

  it('should remember widths across flushes when given a width memory', () => {
    const mem: number[] = [];
    const a = formatTabbed('NAME\tAGE\nlong-pod-name\t1s\n', GET_TABWRITER, mem);
    const b = formatTabbed('x\t2s\n', GET_TABWRITER, mem);
    expect(a).toBe('NAME            AGE\nlong-pod-name   1s\n');
    expect(b).toBe('x               2s\n');
  });

  it('should count runes, not UTF-16 units, when measuring cells', () => {
    expect(formatTabbed('名前\tX\nab\tY\n', { minwidth: 0, tabwidth: 8, padding: 1 })).toBe(
      '名前 X\nab Y\n',
    );
  });
});

/** Go's tabwriter cell by cell: the block of (line, column) is found by walking up and down. */
function reference(rows: string[][], opts: TabWriterOptions, remembered?: number[]): string {
  const has = (i: number, col: number) =>
    i >= 0 && i < rows.length && (rows[i] as string[]).length - 1 > col;
  const width = (s: string) => [...s].length;
  const pads = rows.map(() => [] as number[]);
  for (let col = 0; rows.some((_, i) => has(i, col)); col++) {
    for (let i = 0; i < rows.length; i++) {
      if (!has(i, col) || has(i - 1, col)) continue;
      let end = i;
      let w = Math.max(opts.minwidth, remembered?.[col] ?? 0);
      for (; has(end, col); end++)
        w = Math.max(w, width((rows[end] as string[])[col] as string) + opts.padding);
      if (remembered) remembered[col] = w;
      for (let k = i; k < end; k++) (pads[k] as number[])[col] = w;
    }
  }
  return rows
    .map((cells, i) =>
      cells
        .map((c, j) =>
          j < cells.length - 1
            ? c + ' '.repeat(((pads[i] as number[])[j] as number) - width(c))
            : c,
        )
        .join(''),
    )
    .join('\n');
}

describe('formatCells', () => {
  it('should lay out ragged rows exactly as the cell-by-cell tabwriter when lines differ in cell counts', () => {
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const words = ['', 'a', 'pod', 'Running', 'web-7d9f4b6c5-x2k1m', '名前', '😀x', '10.244.1.17'];
    for (let round = 0; round < 200; round++) {
      const rows = Array.from({ length: next(12) }, () =>
        Array.from({ length: next(6) }, () => words[next(words.length)] as string),
      );
      const opts = round % 2 ? GET_TABWRITER : DESCRIBE_TABWRITER;
      const memA = round % 3 ? undefined : [4, 30];
      const memB = memA ? [...memA] : undefined;
      expect(formatCells(rows, opts, memA)).toBe(reference(rows, opts, memB));
      expect(memA).toEqual(memB);
    }
  });

  it('should print a line with no cells as an empty line', () => {
    expect(formatCells([['a', 'b'], [], ['c']], GET_TABWRITER)).toBe('a     b\n\nc');
  });
});
