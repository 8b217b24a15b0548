import { describe, expect, it } from 'vitest';
import { createNodeHost } from '../node/node-host';
import { readStaticPods } from './static-pods';

describe('readStaticPods', () => {
  it('should share one frozen parse of the same manifest between labs, and reparse an edit', () => {
    // two labs' control planes: same node, same kubeadm manifests
    const a = createNodeHost({ name: 'control-plane', controlPlane: true });
    const b = createNodeHost({ name: 'control-plane', controlPlane: true });
    const first = readStaticPods(a).pods;
    const second = readStaticPods(b).pods;
    expect(first.map((p) => p.pod.metadata.name)).toEqual([
      'etcd-control-plane',
      'kube-apiserver-control-plane',
      'kube-controller-manager-control-plane',
      'kube-scheduler-control-plane',
    ]);
    expect(second[1]).toBe(first[1]);
    expect(Object.isFrozen(first[1]!.pod.spec)).toBe(true);

    const file = '/etc/kubernetes/manifests/kube-scheduler.yaml';
    b.files.set(file, `${b.files.get(file) as string}# edited by the learner\n`);
    const edited = readStaticPods(b).pods[3]!;
    expect(edited).not.toBe(first[3]);
    expect(edited.hash).not.toBe(first[3]!.hash);
    expect(readStaticPods(a).pods[3]).toBe(first[3]);
  });
});
