// Static pods: the kubelet reads Pod manifests from its staticPodPath (/etc/kubernetes/manifests)
// and runs them itself, without the apiserver; that is how kubeadm's control plane starts before
// any apiserver exists. So that kubectl can see them, it posts a read-only "mirror pod" named
// <name>-<node>. Editing a manifest changes its hash: the kubelet replaces the pod; deleting the
// file stops it; deleting the mirror pod only makes the kubelet post it again.

import { parse } from 'yaml';
import type { Pod } from '../model';
import type { NodeHost } from '../node/node-host';
import { sha256Hex } from '../node/sha256';
import { deepFreeze } from '../shared/deep-freeze';

export const STATIC_POD_PATH = '/etc/kubernetes/manifests';
const MANIFEST_PREFIX = `${STATIC_POD_PATH}/`;
export const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
export const HASH_ANNOTATION = 'kubernetes.io/config.hash';

export interface StaticPod {
  file: string;
  hash: string;
  pod: Pod;
}

type Parsed = { ok: true; sp: StaticPod } | { ok: false; error: string };

/** Parsed manifests by file, reused while the text is unchanged (the kubelet rereads every sync). */
export type StaticPodCache = Map<string, { text: string; parsed: Parsed }>;

/** Reads every manifest under the static pod path; files that do not parse are skipped (and logged by the caller). */
export function readStaticPods(
  host: NodeHost,
  cache: StaticPodCache = new Map(),
): { pods: StaticPod[]; errors: { file: string; error: string }[] } {
  const pods: StaticPod[] = [];
  const errors: { file: string; error: string }[] = [];
  // every kubelet sync reads the directory: one pass over the node's files, no copy of their list
  const files: string[] = [];
  for (const f of host.files.keys()) {
    if (
      f.startsWith(MANIFEST_PREFIX) &&
      /\.(ya?ml|json)$/.test(f) &&
      !f.slice(MANIFEST_PREFIX.length).includes('/')
    )
      files.push(f);
  }
  files.sort();
  for (const file of files) {
    const text = host.files.get(file) as string;
    let hit = cache.get(file);
    if (!hit || hit.text !== text) {
      hit = { text, parsed: parseShared(host, file, text) };
      cache.set(file, hit);
    }
    if (hit.parsed.ok) pods.push(hit.parsed.sp);
    else errors.push({ file, error: hit.parsed.error });
  }
  for (const file of [...cache.keys()]) if (!host.files.has(file)) cache.delete(file);
  return { pods, errors };
}

/**
 * Parsed manifests shared by every lab in the process, by node, file and text: the kubeadm
 * manifests are the same text in every lab, and a lab restored in a worker would otherwise parse
 * its four manifests (YAML) again (~2.5 ms of each restore). The result depends on nothing else,
 * and is frozen so that no lab can change what another one reads. Bounded: cleared when full.
 */
const sharedParses = new Map<string, Parsed>();
const SHARED_PARSES_MAX = 512;

function parseShared(host: NodeHost, file: string, text: string): Parsed {
  const key = `${host.name}\n${file}\n${text}`;
  let parsed = sharedParses.get(key);
  if (!parsed) {
    if (sharedParses.size >= SHARED_PARSES_MAX) sharedParses.clear();
    parsed = deepFreeze(parseManifest(host, file, text));
    sharedParses.set(key, parsed);
  }
  return parsed;
}

function parseManifest(host: NodeHost, file: string, text: string): Parsed {
  {
    let doc: unknown;
    try {
      doc = parse(text);
    } catch (e) {
      return { ok: false, error: (e as Error).message.split('\n')[0] as string };
    }
    const obj = doc as Partial<Pod> | null;
    if (!obj || obj.kind !== 'Pod' || !obj.metadata?.name || !Array.isArray(obj.spec?.containers)) {
      return { ok: false, error: 'invalid pod: not a v1 Pod with a name and containers' };
    }
    // The config hash covers the manifest and the node, like the kubelet's (md5-length hex).
    const hash = sha256Hex(`${host.name}\n${text}`).slice(0, 32);
    const namespace = obj.metadata.namespace ?? 'default';
    const name = `${obj.metadata.name}-${host.name}`;
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...obj.metadata,
        name,
        namespace,
        uid: hash,
        annotations: {
          ...(obj.metadata.annotations ?? {}),
          [HASH_ANNOTATION]: hash,
          'kubernetes.io/config.source': 'file',
        },
      },
      spec: {
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        schedulerName: 'default-scheduler',
        enableServiceLinks: true,
        ...obj.spec,
        containers: obj.spec!.containers.map((c) => ({
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          ...c,
        })),
        nodeName: host.name,
        tolerations: obj.spec?.tolerations ?? [{ operator: 'Exists', effect: 'NoExecute' }],
      },
    };
    delete (pod.metadata as { creationTimestamp?: unknown }).creationTimestamp;
    return { ok: true, sp: { file, hash, pod } };
  }
}

/** The mirror pod the kubelet posts for a static pod. */
export function mirrorPodFor(sp: StaticPod, nodeUid: string | undefined, seenIso: string): Pod {
  const pod = JSON.parse(JSON.stringify(sp.pod)) as Pod;
  delete pod.metadata.uid;
  pod.metadata.annotations = {
    ...(pod.metadata.annotations ?? {}),
    [MIRROR_ANNOTATION]: sp.hash,
    'kubernetes.io/config.seen': seenIso,
  };
  if (nodeUid) {
    pod.metadata.ownerReferences = [
      {
        apiVersion: 'v1',
        kind: 'Node',
        name: pod.spec.nodeName as string,
        uid: nodeUid,
        controller: true,
      },
    ];
  }
  return pod;
}

export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[MIRROR_ANNOTATION] !== undefined;
}
