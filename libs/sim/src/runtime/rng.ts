// Seeded PRNG (mulberry32). The simulator never calls Math.random: all randomness (pod name
// suffixes, UIDs, IPs picked, pull jitter) comes from here so that the same seed replays the
// same cluster byte for byte. The state is a single uint32 so it serializes trivially.

export interface Rng {
  /** float in [0, 1) */
  next(): number;
  /** integer in [0, n) */
  int(n: number): number;
  state(): number;
}

export function createRng(seed: number): Rng {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    state: () => s,
  };
}

/** kube's rand alphabet: no vowels, no confusable characters (apimachinery util/rand). */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function randomSuffix(rng: Rng, length = 5): string {
  let out = '';
  for (let i = 0; i < length; i++) out += SAFE_ALPHABET[rng.int(SAFE_ALPHABET.length)];
  return out;
}
