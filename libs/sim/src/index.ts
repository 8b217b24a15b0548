export * from './model';
export * from './client/api-client';
export * from './trace/trace-event';
export * from './runtime/rng';
export * from './runtime/component';
export * from './lab/lab-types';
export * from './shared';
