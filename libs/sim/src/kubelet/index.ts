export * from './kubelet';
export * from './backoff';
export * from './probes';
export * from './pod-status';
export * from './node-status';
export type { PodRuntime, ContainerRuntime, ContainerStage } from './pod-worker';
export {
  readStaticPods,
  mirrorPodFor,
  isMirrorPod,
  STATIC_POD_PATH,
  MIRROR_ANNOTATION,
  HASH_ANNOTATION,
} from './static-pods';
