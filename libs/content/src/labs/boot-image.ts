import { restoreLab, type SerializedLab, type SimLab } from '@kubejourney/sim';

/**
 * The seed every boot image is built with. A lab's own seed takes over the PRNG once it is
 * restored from its image, so everything the learner causes is drawn from the lab's seed.
 */
export const BOOT_IMAGE_SEED = 1;

/**
 * Labs start from boot images, as cloud machines start from a disk image: booting a cluster
 * costs ~90 ms of CPU (about 12 simulated seconds of kubeadm, kubelets and addons), restoring
 * one from its serialized text ~9 ms. An image is built once per process and kind (sandbox, or
 * a scenario's healthy prelude) and never changes, so a lab restored from it is the same lab
 * whichever process built the image: same seed and same inputs still give the same cluster.
 * The pods the boot created (CoreDNS, kube-proxy, static pods) therefore carry the same names
 * in every lab; what the learner creates does not.
 */
const images = new Map<string, TBootImage>();

/** What a lab restored from an image knows of it: the trace it starts with is the image's. */
export interface TBootImageTrace {
  /**
   * Names the image's content, not just its kind: a digest of its text, so two builds whose
   * boots differ never share stored rows.
   */
  id: string;
  /** the image's trace events are seqs 1..traceSeq of every lab restored from it */
  traceSeq: number;
}

interface TBootImage {
  text: string;
  trace: TBootImageTrace;
}

/** Labs restored from an image, with the image's trace (see TBootImageTrace). */
const restoredFrom = new WeakMap<SimLab, TBootImageTrace>();

/** The image `key`, built by `boot` (with BOOT_IMAGE_SEED) the first time it is asked for. */
function image(key: string, boot: (seed: number) => SimLab): TBootImage {
  let built = images.get(key);
  if (built === undefined) {
    const lab = boot(BOOT_IMAGE_SEED);
    const text = lab.serialize();
    const traceSeq = lab.trace().at(-1)?.seq ?? 0;
    built = { text, trace: { id: `${key}@${fnv1a64(text)}`, traceSeq } };
    images.set(key, built);
  }
  return built;
}

/** Builds the image `key` now, if this process has not yet (a server warming up at boot). */
export function warmImage(key: string, boot: (seed: number) => SimLab): void {
  image(key, boot);
}

/** A lab restored from the image `key`, its PRNG seeded with `seed` from here on. */
export function labFromImage(key: string, boot: (seed: number) => SimLab, seed: number): SimLab {
  const { text, trace } = image(key, boot);
  const state = JSON.parse(text) as SerializedLab;
  state.rng = seed >>> 0;
  const lab = restoreLab(state);
  restoredFrom.set(lab, trace);
  return lab;
}

/** The image `lab` was restored from (its trace), or null for a lab built any other way. */
export function bootImageTraceOf(lab: SimLab): TBootImageTrace | null {
  return restoredFrom.get(lab) ?? null;
}

/**
 * 64-bit FNV-1a of a text's UTF-16 units, as 16 hex digits (two 32-bit lanes with different
 * offsets). It tells images apart; it is not meant to resist anyone crafting a collision.
 */
function fnv1a64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x0100019d);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return hex(a) + hex(b);
}
