import { describe, expect, it } from 'vitest';
import { DESCRIBE_TABWRITER, GET_TABWRITER, formatTabbed } from './tab-writer';

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
