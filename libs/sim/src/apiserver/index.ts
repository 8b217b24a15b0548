export * from './api-server';
export * from './authn';
export * from './rbac';
export * from './status';
export * from './admission';
export { WatchCache } from './watch-cache';
export type { CachedEvent, SavedEvent, WatchHistoryState } from './watch-cache';
