// The kubelet on the control-plane node runs the control plane from /etc/kubernetes/manifests.
// After each command the terminal compares those files: a removed manifest stops its component,
// a restored one starts it, an edited one restarts it (or leaves it down if the YAML is broken).

import { parse } from 'yaml';
import type { SimLab } from '../../lab';
import type { ProcessRef } from '../../lab/lab-types';
import type { ComponentName } from '../../trace/trace-event';
import { readSnapshot } from '../etcdctl/etcdctl';

const MANIFESTS: Record<string, ComponentName> = {
  'kube-apiserver.yaml': 'kube-apiserver',
  'etcd.yaml': 'etcd',
  'kube-controller-manager.yaml': 'kube-controller-manager',
  'kube-scheduler.yaml': 'kube-scheduler',
};
const DIR = '/etc/kubernetes/manifests/';

type Snapshot = Record<string, string | undefined>;

function isValidPod(text: string): boolean {
  try {
    const doc = parse(text, { maxAliasCount: 10 }) as {
      kind?: unknown;
      spec?: { containers?: unknown };
    } | null;
    return !!doc && doc.kind === 'Pod' && Array.isArray(doc.spec?.containers);
  } catch {
    return false;
  }
}

/**
 * The article's restore procedure: `etcdctl snapshot restore --data-dir=/var/lib/etcd-restored`,
 * then point the etcd-data hostPath in etcd.yaml at it. When etcd restarts on a freshly restored
 * data dir, the cluster state becomes the snapshot's (once per data dir).
 */
function restoreIfNewDataDir(lab: SimLab, files: Map<string, string>, manifest: string): void {
  let dataDir: string | undefined;
  try {
    const doc = parse(manifest, { maxAliasCount: 10 }) as {
      spec?: { volumes?: { name?: string; hostPath?: { path?: string } }[] };
    };
    dataDir = doc.spec?.volumes?.find((v) => v?.name === 'etcd-data')?.hostPath?.path;
  } catch {
    return;
  }
  if (!dataDir) return;
  const marker = `${dataDir}/member/snap/.applied`;
  const snap = readSnapshot(files.get(`${dataDir}/member/snap/db`));
  if (!snap || files.has(marker)) return;
  lab.snapshotRestore(snap);
  files.set(marker, '');
}

export const watchStaticPods = {
  snapshot(lab: SimLab, node: string): Snapshot {
    const files = lab.node(node)?.files;
    const snap: Snapshot = {};
    for (const f of Object.keys(MANIFESTS)) snap[f] = files?.get(DIR + f);
    return snap;
  },

  apply(lab: SimLab, node: string, before: Snapshot): void {
    const files = lab.node(node)?.files;
    if (!files) return;
    for (const [f, component] of Object.entries(MANIFESTS)) {
      const after = files.get(DIR + f);
      const prev = before[f];
      if (after === prev) continue;
      const ref: ProcessRef = component === 'etcd' ? { component, node } : { component };
      try {
        if (after === undefined || !isValidPod(after)) lab.stopProcess(ref);
        else if (prev === undefined) lab.startProcess(ref);
        else {
          lab.stopProcess(ref);
          if (component === 'etcd') restoreIfNewDataDir(lab, files, after);
          lab.startProcess(ref);
        }
      } catch {
        // the lab refuses (e.g. unknown process): the manifest change has no effect
      }
    }
  },
};
