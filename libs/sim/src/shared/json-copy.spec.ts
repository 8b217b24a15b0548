import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frozenJsonCopy, jsonCopy } from './json-copy';

const keepInfinity = (_k: string, x: unknown): unknown =>
  x === Infinity ? 'Infinity' : x === -Infinity ? '-Infinity' : x;

/** Plain data as saved states hold it, with what JSON drops or rewrites mixed in. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constantFrom(null, undefined, Infinity, -Infinity, -0, NaN),
  ),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('node'), { maxKeys: 5 }),
  ),
})).node;

describe('frozenJsonCopy', () => {
  it('should give what a JSON round trip gives, frozen all the way down, for any plain data', () => {
    fc.assert(
      fc.property(value, (v) => {
        const copy = frozenJsonCopy(v);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(v));
        const text = JSON.stringify(v);
        expect(copy).toStrictEqual(text === undefined ? undefined : JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('should keep Infinity as a string when asked, as the kubelet saves its timers', () => {
    fc.assert(
      fc.property(value, (v) => {
        const text = JSON.stringify(v, keepInfinity);
        expect(frozenJsonCopy(v, { nonFinite: 'string' })).toStrictEqual(
          text === undefined ? undefined : JSON.parse(text),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('should give what JSON.parse with the Infinity reviver gives, unfrozen, when asked to revive', () => {
    const revive = (_k: string, x: unknown): unknown =>
      x === 'Infinity' ? Infinity : x === '-Infinity' ? -Infinity : x;
    fc.assert(
      fc.property(value, (v) => {
        const text = JSON.stringify(v);
        const copy = jsonCopy(v, { reviveInfinity: true });
        expect(copy).toStrictEqual(text === undefined ? undefined : JSON.parse(text, revive));
        if (copy !== null && typeof copy === 'object') expect(Object.isFrozen(copy)).toBe(false);
      }),
      { numRuns: 300 },
    );
    expect(jsonCopy({ a: 'Infinity', b: ['-Infinity'] }, { reviveInfinity: true })).toEqual({
      a: Infinity,
      b: [-Infinity],
    });
  });

  it('should freeze every object and array it makes', () => {
    const copy = frozenJsonCopy({ a: [{ b: 1 }], c: { d: [2] } });
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(copy.a)).toBe(true);
    expect(Object.isFrozen(copy.a[0])).toBe(true);
    expect(Object.isFrozen(copy.c.d)).toBe(true);
  });
});
