export * from './etcd-store';
export * from './encryption';
