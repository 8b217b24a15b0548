// base64 over UTF-8 without Buffer/TextEncoder (libs/sim has no Node or DOM globals).

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const LOOKUP = new Map([...ALPHABET].map((c, i) => [c, i]));

export function utf8Encode(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else
      out.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 63),
        0x80 | ((cp >> 6) & 63),
        0x80 | (cp & 63),
      );
  }
  return out;
}

/** Lenient UTF-8 decode: invalid sequences become U+FFFD, like a terminal would show them. */
export function utf8Decode(bytes: number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i] as number;
    let cp = 0xfffd;
    let n = 1;
    if (b < 0x80) cp = b;
    else if (b >= 0xc0 && b < 0xe0 && i + 1 < bytes.length) {
      cp = ((b & 31) << 6) | ((bytes[i + 1] as number) & 63);
      n = 2;
    } else if (b >= 0xe0 && b < 0xf0 && i + 2 < bytes.length) {
      cp =
        ((b & 15) << 12) | (((bytes[i + 1] as number) & 63) << 6) | ((bytes[i + 2] as number) & 63);
      n = 3;
    } else if (b >= 0xf0 && i + 3 < bytes.length) {
      cp =
        ((b & 7) << 18) |
        (((bytes[i + 1] as number) & 63) << 12) |
        (((bytes[i + 2] as number) & 63) << 6) |
        ((bytes[i + 3] as number) & 63);
      n = 4;
    }
    out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
    i += n;
  }
  return out;
}

export function base64Encode(s: string): string {
  const bytes = utf8Encode(s);
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i] as number, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += ALPHABET[(n >> 18) & 63];
    out += ALPHABET[(n >> 12) & 63];
    out += b === undefined ? '=' : ALPHABET[(n >> 6) & 63];
    out += c === undefined ? '=' : ALPHABET[n & 63];
  }
  return out;
}

/** Decodes base64; returns null on invalid input (GNU base64: "base64: invalid input"). */
export function base64Decode(s: string): string | null {
  const clean = s.replace(/[\s]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
  const body = clean.replace(/=+$/, '');
  if (body.length % 4 === 1) return null;
  const bytes: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const ch of body) {
    acc = (acc << 6) | (LOOKUP.get(ch) as number);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  return utf8Decode(bytes);
}

export function isBase64(s: string): boolean {
  return base64Decode(s) !== null && s.replace(/\s/g, '').length % 4 === 0;
}
