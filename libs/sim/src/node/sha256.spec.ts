import { describe, expect, it } from 'vitest';
import { base32Std, sha256Hex, utf8Bytes } from './sha256';

describe('sha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'The quick brown fox jumps over the lazy dog',
      'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
    ],
    ['a'.repeat(1000), '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3'],
    ['é✓', sha256Hex(Uint8Array.from([0xc3, 0xa9, 0xe2, 0x9c, 0x93]))],
  ])('should hash %j to the FIPS 180-4 digest when given that input', (input, hex) => {
    expect(sha256Hex(input)).toBe(hex);
  });

  it('should encode code points above the BMP as four UTF-8 bytes when given an emoji', () => {
    expect([...utf8Bytes('😀')]).toEqual([0xf0, 0x9f, 0x98, 0x80]);
  });
});

describe('base32Std', () => {
  it.each([
    ['', ''],
    ['f', 'MY======'],
    ['fo', 'MZXQ===='],
    ['foo', 'MZXW6==='],
    ['foob', 'MZXW6YQ='],
    ['fooba', 'MZXW6YTB'],
    ['foobar', 'MZXW6YTBOI======'],
  ])('should encode %j as RFC 4648 %j when padding is needed', (input, out) => {
    expect(base32Std(utf8Bytes(input))).toBe(out);
  });
});
