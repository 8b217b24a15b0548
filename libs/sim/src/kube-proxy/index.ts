export * from './kube-proxy';
export * from './proxy-rules';
export * from './chain-names';
