export * from './meta';
export * from './core';
export * from './apps';
export * from './batch';
export * from './discovery';
export * from './coordination';
export * from './rbac';
export * from './resources';
