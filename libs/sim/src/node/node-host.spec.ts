import { describe, expect, it } from 'vitest';
import { formatJournalLine } from './systemd';
import { createNodeHost, restoreNodeHost } from './node-host';

describe('createNodeHost', () => {
  it('should derive IPs and pod CIDR from the node name when no hint is given', () => {
    const h = createNodeHost({ name: 'node-2' });
    expect([h.internalIP, h.podCIDR, h.index]).toEqual(['172.18.0.4', '10.244.2.0/24', 2]);
  });

  it('should give the control plane the kubeadm static pod manifests and PKI', () => {
    const h = createNodeHost({ name: 'control-plane', controlPlane: true });
    const manifests = [...h.files.keys()]
      .filter((p) => p.startsWith('/etc/kubernetes/manifests/'))
      .sort();
    expect(manifests).toEqual([
      '/etc/kubernetes/manifests/etcd.yaml',
      '/etc/kubernetes/manifests/kube-apiserver.yaml',
      '/etc/kubernetes/manifests/kube-controller-manager.yaml',
      '/etc/kubernetes/manifests/kube-scheduler.yaml',
    ]);
    const api = h.files.get('/etc/kubernetes/manifests/kube-apiserver.yaml')!;
    expect(api).toContain('    - --advertise-address=172.18.0.2\n');
    expect(api).toContain('    image: registry.k8s.io/kube-apiserver:v1.32.5\n');
    expect(h.files.get('/etc/kubernetes/pki/etcd/ca.crt')).toMatch(
      /^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/,
    );
    expect(
      createNodeHost({ name: 'node-1' }).files.has('/etc/kubernetes/manifests/kube-apiserver.yaml'),
    ).toBe(false);
  });

  it('should cache pause, kube-proxy and the requested images (control plane images only there)', () => {
    const w = createNodeHost({ name: 'node-1', cachedImages: ['busybox:1.36'] });
    expect(w.containerd.findImage('registry.k8s.io/pause:3.10')).toBeDefined();
    expect(w.containerd.findImage('busybox:1.36')).toBeDefined();
    expect(w.containerd.findImage('nginx:1.27')).toBeUndefined();
    expect(createNodeHost({ name: 'node-1' }).containerd.findImage('nginx:1.27')).toBeDefined();
    expect(w.containerd.findImage('registry.k8s.io/etcd:3.5.16-0')).toBeUndefined();
  });

  it('should restore to an identical host when serialized to JSON', () => {
    const h = createNodeHost({ name: 'node-1' });
    const sb = h.containerd.runPodSandbox({ uid: 'u', name: 'p', namespace: 'default' }, 10);
    h.containerd.startContainer(
      h.containerd.createContainer(sb.id, { name: 'app', image: 'nginx:1.27' }, 0, 10).id,
      10,
    );
    h.systemd.stop('kubelet', 20);
    const json = JSON.stringify(h.toJSON());
    const r = restoreNodeHost(json);
    expect(JSON.stringify(r.toJSON())).toBe(json);
    expect(r.systemd.isActive('kubelet')).toBe(false);
    expect(r.containerd.listContainers()).toHaveLength(1);
  });

  it('should print journald lines in journalctl short format', () => {
    const h = createNodeHost({ name: 'node-1' });
    h.systemd.stop('kubelet', 65_000);
    const lines = h.systemd
      .entries('kubelet')
      .map((e) => formatJournalLine(e, 'node-1', h.epochMs));
    expect(lines).toContain(
      'Jan 05 09:01:05 node-1 systemd[1]: Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
    );
  });
});

describe('host snapshots', () => {
  // A lab serializes every host on each write; unchanged sections are handed out as the same
  // frozen object so the store reuses their text (libs/db lab-snapshot.ts).
  it('should hand out the same frozen sections until the iptables rules, journal or files change', () => {
    const h = createNodeHost({ name: 'node-1' });
    const first = h.toJSON();
    const second = h.toJSON();
    expect(second.iptables).toBe(first.iptables);
    expect(second.systemd).toBe(first.systemd);
    expect(second.files).toBe(first.files);
    expect(Object.isFrozen(first.iptables)).toBe(true);
    expect(() => {
      (first.files as Record<string, string>)['/tmp/x'] = 'y';
    }).toThrow(TypeError);

    h.iptables.ensureRule('nat', 'KUBE-SERVICES', {
      matches: [],
      target: { kind: 'jump', chain: 'KUBE-NODEPORTS' },
    });
    h.systemd.log('kubelet', 5, 'Started kubelet');
    h.files.set('/root/notes.txt', 'hello\n');
    const third = h.toJSON();
    expect(third.iptables).not.toBe(first.iptables);
    expect(third.iptables.nat['KUBE-SERVICES']).toHaveLength(1);
    expect(third.systemd).not.toBe(first.systemd);
    expect(third.systemd.journal.at(-1)?.message).toBe('Started kubelet');
    expect(third.files['/root/notes.txt']).toBe('hello\n');
    // an identical rule is not added twice, and leaves the snapshot alone
    h.iptables.ensureRule('nat', 'KUBE-SERVICES', {
      matches: [],
      target: { kind: 'jump', chain: 'KUBE-NODEPORTS' },
    });
    expect(h.toJSON().iptables).toBe(third.iptables);
    h.files.delete('/root/notes.txt');
    expect(h.toJSON().files['/root/notes.txt']).toBeUndefined();
  });

  it('should serialize a restored host to the same text as the original', () => {
    const h = createNodeHost({ name: 'control-plane', controlPlane: true });
    h.files.set('/root/a.yaml', 'kind: Pod\n');
    const text = JSON.stringify(h.toJSON());
    expect(JSON.stringify(restoreNodeHost(text).toJSON())).toBe(text);
  });
});
