// ImageLocality (pkg/scheduler/framework/plugins/imagelocality): prefers nodes that already hold
// the pod's images, weighted by image size and scaled down by how many nodes have the image (so
// an image present everywhere does not pull every pod to one node). Small images (< 23MB) count
// for nothing; the sum is capped at 1000MB per container.

import type { Container, Pod } from '../../model';
import type { ScorePlugin } from '../framework/plugin-types';
import { MAX_NODE_SCORE } from '../framework/plugin-types';
import type { NodeInfo, Snapshot } from '../framework/node-info';

export const IMAGE_LOCALITY = 'ImageLocality';
const MB = 1024 * 1024;
export const MIN_THRESHOLD = 23 * MB;
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** A reference without a tag gets `:latest` (digests and registries are left alone). */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:latest` : name;
}

/** The pod's images (init containers first) as nodes report them, taken once per cycle. */
function podImageNames(pod: Pod): string[] {
  const inits = pod.spec.initContainers ?? [];
  const containers = pod.spec.containers ?? [];
  // made at its length, without the merged container list a spread would build first
  const names = new Array<string>(inits.length + containers.length);
  for (let i = 0; i < inits.length; i++)
    names[i] = normalizedImageName((inits[i] as Container).image);
  for (let i = 0; i < containers.length; i++)
    names[inits.length + i] = normalizedImageName((containers[i] as Container).image);
  return names;
}

export function sumImageScores(pod: Pod, node: NodeInfo, totalNumNodes: number): number {
  return sumScoresOf(podImageNames(pod), node, totalNumNodes);
}

function sumScoresOf(images: string[], node: NodeInfo, totalNumNodes: number): number {
  let sum = 0;
  const states = node.imageStates;
  for (let i = 0; i < images.length; i++) {
    const state = states.get(images[i] as string);
    if (!state) continue;
    // scaledImageScore: int64(float64(size) * numNodes/totalNumNodes)
    sum += Math.trunc(state.sizeBytes * (state.numNodes / totalNumNodes));
  }
  return sum;
}

export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  const clamped = Math.min(Math.max(sumScores, MIN_THRESHOLD), maxThreshold);
  return Math.trunc((MAX_NODE_SCORE * (clamped - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

export const imageLocalityPlugin: ScorePlugin<string[]> = {
  name: IMAGE_LOCALITY,
  preScore(pod) {
    return { skip: false, state: podImageNames(pod) };
  },
  score(pod, node, images, snapshot: Snapshot) {
    const names = images ?? podImageNames(pod);
    return calculatePriority(sumScoresOf(names, node, snapshot.nodes.length), names.length);
  },
};
