export * from './labels';
export * from './quantity';
export * from './time';
export * from './hash';
export * from './event-recorder';
export * from './informer';
