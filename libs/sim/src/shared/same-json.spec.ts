import { describe, expect, it } from 'vitest';
import { sameJson } from './same-json';

const text = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

describe('sameJson', () => {
  it('should agree with the JSON text when values are plain data', () => {
    const cases: [unknown, unknown][] = [
      [
        { a: 1, b: [1, 'x', null] },
        { a: 1, b: [1, 'x', null] },
      ],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [{ a: 1, c: undefined }, { a: 1 }],
      [
        { a: undefined, b: 1 },
        { b: 1, a: undefined },
      ],
      [[undefined], [null]],
      [{ a: { b: { c: 'd' } } }, { a: { b: { c: 'e' } } }],
      [{ a: [] }, { a: {} }],
      [{ a: null }, { a: undefined }],
      ['x', 'x'],
      [1, '1'],
    ];
    for (const [a, b] of cases) expect(sameJson(a, b)).toBe(text(a, b));
  });

  it('should answer false rather than true when the text is equal but the values are not', () => {
    expect(sameJson({ a: Number.NaN }, { a: null })).toBe(false);
    expect(text({ a: Number.NaN }, { a: null })).toBe(true);
  });

  it('should not compare values with toJSON by their fields when they carry a toJSON', () => {
    expect(sameJson(new Date(0), new Date(0))).toBe(false);
  });
});
