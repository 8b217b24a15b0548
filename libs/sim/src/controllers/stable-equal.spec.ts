import { describe, expect, it } from 'vitest';
import { stableStringify } from '../shared/hash';
import { stableEqual } from './stable-equal';

const text = (a: unknown, b: unknown): boolean => stableStringify(a) === stableStringify(b);

describe('stableEqual', () => {
  it('should agree with stableStringify on the cases where printing hides a difference', () => {
    const cases: [unknown, unknown][] = [
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [{ a: 1, c: undefined }, { a: 1 }],
      [{ a: null }, { a: undefined }],
      [{ a: null }, {}],
      [[undefined], [null]],
      [[NaN], [null]],
      [{ a: Infinity }, { a: null }],
      [0, -0],
      ['1', 1],
      [[1, 2], { 0: 1, 1: 2 }],
      [{ a: [] }, { a: {} }],
      [{ a: { b: 'x' } }, { a: { b: 'x', c: undefined } }],
      [{ a: { b: 'x' } }, { a: { b: 'y' } }],
      [undefined, null],
      [{ a: 1 }, { a: 1, b: 2 }],
      [{ a: 1, b: 2 }, { a: 1 }],
    ];
    for (const [a, b] of cases) expect([a, b, stableEqual(a, b)]).toEqual([a, b, text(a, b)]);
  });

  it('should agree with stableStringify on random nested data', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const leaves: unknown[] = [null, undefined, 0, 1, 'a', 'b', true, false, NaN];
    const gen = (depth: number): unknown => {
      const pick = next(depth > 2 ? 1 : 3);
      if (pick === 0) return leaves[next(leaves.length)];
      if (pick === 1) return Array.from({ length: next(3) }, () => gen(depth + 1));
      const obj: Record<string, unknown> = {};
      for (let i = next(3); i > 0; i--) obj[['x', 'y', 'z'][next(3)] as string] = gen(depth + 1);
      return obj;
    };
    for (let i = 0; i < 2000; i++) {
      const a = gen(0);
      const b = next(2) ? structuredClone(a) : gen(0);
      expect(stableEqual(a, b)).toBe(text(a, b));
    }
  });
});
