export * from './kubelet';
export * from './backoff';
export * from './probes';
export * from './pod-status';
export * from './node-status';
export type { PodRuntime, ContainerRuntime, ContainerStage } from './pod-worker';
