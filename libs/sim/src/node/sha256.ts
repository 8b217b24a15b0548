// A small pure SHA-256 (FIPS 180-4). kube-proxy names its chains after base32(sha256(...)) and
// containerd ids are sha256-shaped, and the simulator may not import node:crypto (it must run in
// the browser and stay free of I/O), so it carries its own.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** UTF-8 bytes of a JS string (no TextEncoder: the lib target has no DOM types). */
export function utf8Bytes(input: string): Uint8Array {
  // ids and names are ASCII: one byte per char, without the code point walk
  let ascii = true;
  for (let i = 0; i < input.length; i++) {
    if (input.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    const bytes = new Uint8Array(input.length);
    for (let i = 0; i < input.length; i++) bytes[i] = input.charCodeAt(i);
    return bytes;
  }
  const out: number[] = [];
  for (const ch of input) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out.push(cp);
    else if (cp < 0x800) out.push(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else {
      out.push(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 63),
        0x80 | ((cp >> 6) & 63),
        0x80 | (cp & 63),
      );
    }
  }
  return Uint8Array.from(out);
}

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

// The message schedule and the digest, reused by every call (the simulator is single-threaded).
const W = new Uint32Array(64);
const H = new Uint32Array(8);

/**
 * The message, padded, in a buffer reused by every call (zeroed up to the length used): ids for
 * every sandbox and container are hashed here, a few dozen bytes each.
 */
let block = new Uint8Array(256);

/** Hashes the message into H (the digest's eight big-endian words). */
function digestInto(data: Uint8Array | string): void {
  let msg: Uint8Array | undefined;
  let length: number;
  // ids and names are ASCII: their char codes are their bytes, written straight into the block
  if (typeof data === 'string') {
    let ascii = true;
    for (let i = 0; i < data.length; i++) {
      if (data.charCodeAt(i) >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) length = data.length;
    else {
      msg = utf8Bytes(data);
      length = msg.length;
    }
  } else {
    msg = data;
    length = data.length;
  }
  const bitLen = length * 8;
  const paddedLength = ((length + 9 + 63) >> 6) << 6;
  if (block.length < paddedLength) block = new Uint8Array(paddedLength);
  const padded = block;
  padded.fill(0, 0, paddedLength);
  if (msg !== undefined) padded.set(msg);
  else for (let i = 0; i < length; i++) padded[i] = (data as string).charCodeAt(i);
  padded[length] = 0x80;
  writeUint32(padded, paddedLength - 8, Math.floor(bitLen / 2 ** 32));
  writeUint32(padded, paddedLength - 4, bitLen >>> 0);

  // Plain locals and 32-bit arithmetic.
  let h0 = 0x6a09e667;
  let h1 = 0xbb67ae85;
  let h2 = 0x3c6ef372;
  let h3 = 0xa54ff53a;
  let h4 = 0x510e527f;
  let h5 = 0x9b05688c;
  let h6 = 0x1f83d9ab;
  let h7 = 0x5be0cd19;
  const w = W;
  for (let off = 0; off < paddedLength; off += 64) {
    for (let i = 0; i < 16; i++) {
      const p = off + i * 4;
      w[i] =
        ((padded[p] as number) << 24) |
        ((padded[p + 1] as number) << 16) |
        ((padded[p + 2] as number) << 8) |
        (padded[p + 3] as number);
    }
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15] as number;
      const b = w[i - 2] as number;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = (w[i - 16] as number) + s0 + (w[i - 7] as number) + s1;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let hh = h7;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + (K[i] as number) + (w[i] as number)) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h0 = (h0 + a) >>> 0;
    h1 = (h1 + b) >>> 0;
    h2 = (h2 + c) >>> 0;
    h3 = (h3 + d) >>> 0;
    h4 = (h4 + e) >>> 0;
    h5 = (h5 + f) >>> 0;
    h6 = (h6 + g) >>> 0;
    h7 = (h7 + hh) >>> 0;
  }
  H[0] = h0;
  H[1] = h1;
  H[2] = h2;
  H[3] = h3;
  H[4] = h4;
  H[5] = h5;
  H[6] = h6;
  H[7] = h7;
}

export function sha256(data: Uint8Array | string): Uint8Array {
  digestInto(data);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) writeUint32(out, i * 4, H[i] as number);
  return out;
}

/** Big-endian, as DataView.setUint32 writes it. */
function writeUint32(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value >>> 24;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX_PAIRS[bytes[i] as number] as string;
  return s;
}

const HEX_CODES = Array.from({ length: 16 }, (_, d) => d.toString(16).charCodeAt(0));
/** The digest's hex char codes, reused: one flat string per id, not 32 concatenations. */
const HEX_OUT: number[] = new Array<number>(64).fill(0);

export function sha256Hex(data: Uint8Array | string): string {
  digestInto(data);
  const out = HEX_OUT;
  for (let i = 0; i < 8; i++) {
    const v = H[i] as number;
    for (let j = 0; j < 8; j++) out[i * 8 + j] = HEX_CODES[(v >>> (28 - 4 * j)) & 15] as number;
  }
  return String.fromCharCode.apply(null, out);
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Go's base32.StdEncoding.EncodeToString (RFC 4648, with '=' padding). */
export function base32Std(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += B32[(buffer << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}
