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
const images = new Map<string, string>();

/** The image's text, built by `boot` (with BOOT_IMAGE_SEED) the first time `key` is asked for. */
function imageText(key: string, boot: (seed: number) => SimLab): string {
  let text = images.get(key);
  if (text === undefined) {
    text = boot(BOOT_IMAGE_SEED).serialize();
    images.set(key, text);
  }
  return text;
}

/** Builds the image `key` now, if this process has not yet (a server warming up at boot). */
export function warmImage(key: string, boot: (seed: number) => SimLab): void {
  imageText(key, boot);
}

/** A lab restored from the image `key`, its PRNG seeded with `seed` from here on. */
export function labFromImage(key: string, boot: (seed: number) => SimLab, seed: number): SimLab {
  const state = JSON.parse(imageText(key, boot)) as SerializedLab;
  state.rng = seed >>> 0;
  return restoreLab(state);
}
