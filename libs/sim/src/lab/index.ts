export * from './lab-types';
export * from './lab';
export type { SchedulerView } from './components';
