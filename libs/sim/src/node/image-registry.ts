// The simulated world outside the cluster: which images exist on which registries, how big they
// are, and how a reference normalises (`nginx:1.27` is `docker.io/library/nginx:1.27`). A pull of
// anything not listed here fails the way containerd reports it, which is how exercises produce
// ErrImagePull / ImagePullBackOff (`nginx:doesnotexist`, the typo `ngnix:1.27`).

import { sha256Hex } from './sha256';

export interface ImageRef {
  /** what the pod spec said, e.g. `nginx:1.27` */
  ref: string;
  /** fully qualified, e.g. `docker.io/library/nginx:1.27` */
  normalized: string;
  /** `docker.io/library/nginx` */
  repository: string;
  tag: string;
  digest?: string;
}

export interface ImageInfo {
  repository: string;
  tag: string;
  /** repo digest, `sha256:...` (what imageID shows after `@`) */
  digest: string;
  /** image config id, `sha256:...` (crictl images IMAGE ID) */
  id: string;
  sizeBytes: number;
}

export type PullResult = { ok: true; image: ImageInfo } | { ok: false; error: string };

/** A repository: tags that exist and the compressed size the kubelet reports. */
const CATALOG: Record<string, { tags: string[]; sizeBytes: number }> = {
  'docker.io/library/nginx': {
    tags: ['1.27', '1.27.3', '1.26', '1.25', 'latest', 'alpine', '1.27-alpine', 'stable'],
    sizeBytes: 72_195_292,
  },
  'docker.io/library/httpd': { tags: ['2.4', '2.4.62', 'latest', 'alpine'], sizeBytes: 58_071_245 },
  'docker.io/library/busybox': {
    tags: ['1.36', '1.37', '1.36.1', 'latest', 'stable'],
    sizeBytes: 2_166_802,
  },
  'docker.io/library/alpine': { tags: ['3.19', '3.20', '3.21', 'latest'], sizeBytes: 3_653_068 },
  'docker.io/library/redis': {
    tags: ['7', '7.4', '7.2', 'latest', 'alpine'],
    sizeBytes: 45_158_423,
  },
  'docker.io/library/postgres': { tags: ['16', '17', 'latest'], sizeBytes: 158_224_331 },
  'docker.io/library/python': { tags: ['3.12-slim', '3.13-slim', 'latest'], sizeBytes: 49_605_880 },
  'docker.io/library/ubuntu': { tags: ['22.04', '24.04', 'latest'], sizeBytes: 29_754_290 },
  'docker.io/curlimages/curl': { tags: ['8.11.1', 'latest'], sizeBytes: 10_371_662 },
  'docker.io/hashicorp/http-echo': { tags: ['1.0', 'latest'], sizeBytes: 3_421_122 },
  'registry.k8s.io/pause': { tags: ['3.10', '3.9'], sizeBytes: 320_368 },
  'registry.k8s.io/kube-apiserver': { tags: ['v1.32.5'], sizeBytes: 28_671_624 },
  'registry.k8s.io/kube-controller-manager': { tags: ['v1.32.5'], sizeBytes: 26_259_392 },
  'registry.k8s.io/kube-scheduler': { tags: ['v1.32.5'], sizeBytes: 20_657_536 },
  'registry.k8s.io/kube-proxy': { tags: ['v1.32.5'], sizeBytes: 30_907_858 },
  'registry.k8s.io/etcd': { tags: ['3.5.16-0'], sizeBytes: 57_680_541 },
  'registry.k8s.io/coredns/coredns': { tags: ['v1.11.3'], sizeBytes: 18_562_039 },
  'registry.k8s.io/echoserver': { tags: ['1.10', '1.4'], sizeBytes: 46_384_612 },
  'registry.k8s.io/e2e-test-images/agnhost': { tags: ['2.52', '2.53'], sizeBytes: 52_134_720 },
  'docker.io/kindest/kindnetd': { tags: ['v20241212-9f82dd49'], sizeBytes: 39_008_320 },
};

/** Images the exercises invent: any name under these prefixes exists with these tags. */
const EXERCISE_PREFIXES = ['docker.io/kubejourney/', 'ghcr.io/kubejourney/'];
const EXERCISE_TAGS = ['latest', '1.0', '1.1', '2.0', 'v1', 'v2'];

/**
 * Parses an image reference the way containerd's reference.ParseDockerRef does. Every pod sync
 * asks about the same few references: each is parsed once (bounded, cleared when full) and the
 * answer is frozen, shared by every caller.
 */
export function normalizeImage(ref: string): ImageRef {
  let parsed = parsedRefs.get(ref);
  if (parsed === undefined) {
    if (parsedRefs.size >= PARSED_REFS_MAX) parsedRefs.clear();
    parsed = Object.freeze(parseImageRef(ref));
    parsedRefs.set(ref, parsed);
  }
  return parsed;
}

const parsedRefs = new Map<string, ImageRef>();
const PARSED_REFS_MAX = 1024;

function parseImageRef(ref: string): ImageRef {
  let rest = ref.trim();
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag = '';
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const first = rest.split('/')[0] as string;
  const hasRegistry =
    rest.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  let repository = hasRegistry ? rest : `docker.io/${rest}`;
  if (!hasRegistry && !rest.includes('/')) repository = `docker.io/library/${rest}`;
  if (!tag && !digest) tag = 'latest';
  const normalized = `${repository}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
  return { ref, normalized, repository, tag, digest };
}

/** The short form crictl and Node.status.images also list, e.g. `nginx:1.27` stays as given. */
export function imageInfoFor(repository: string, tag: string, sizeBytes: number): ImageInfo {
  return {
    repository,
    tag,
    digest: `sha256:${sha256Hex(`manifest:${repository}:${tag}`)}`,
    id: `sha256:${sha256Hex(`config:${repository}:${tag}`)}`,
    sizeBytes,
  };
}

function exerciseSize(repository: string): number {
  return 8_000_000 + (parseInt(sha256Hex(repository).slice(0, 6), 16) % 40_000_000);
}

/**
 * kubelet's InvalidImageName message (`Failed to apply default image tag ...`), or null when the
 * reference parses.
 */
export function invalidImageReason(ref: string): string | null {
  const r = normalizeImage(ref);
  if (ref.trim() === '' || /\s/.test(ref)) {
    return `Failed to apply default image tag "${ref}": couldn't parse image name "${ref}": invalid reference format`;
  }
  if (/[A-Z]/.test(r.repository)) {
    return `Failed to apply default image tag "${ref}": couldn't parse image name "${ref}": invalid reference format: repository name (${r.repository.replace(/^docker\.io\/(library\/)?/, '')}) must be lowercase`;
  }
  return null;
}

/** What a registry answers for `ref` (deterministic; no network). */
export function lookupImage(ref: string): PullResult {
  const r = normalizeImage(ref);
  const invalid = invalidImageReason(ref);
  if (invalid) return { ok: false, error: invalid };
  const entry = CATALOG[r.repository];
  const exercise = EXERCISE_PREFIXES.some((p) => r.repository.startsWith(p));
  const what = r.normalized;
  if (!entry && !exercise) {
    return {
      ok: false,
      error:
        `rpc error: code = Unknown desc = failed to pull and unpack image "${what}": failed to resolve reference "${what}": ` +
        'pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed',
    };
  }
  const tags = entry ? entry.tags : EXERCISE_TAGS;
  const size = entry ? entry.sizeBytes : exerciseSize(r.repository);
  if (r.digest) {
    const known = tags
      .map((t) => imageInfoFor(r.repository, t, size))
      .find((i) => i.digest === r.digest);
    if (known) return { ok: true, image: known };
  } else if (tags.includes(r.tag)) {
    return { ok: true, image: imageInfoFor(r.repository, r.tag, size) };
  }
  return {
    ok: false,
    error:
      `rpc error: code = NotFound desc = failed to pull and unpack image "${what}": failed to resolve reference "${what}": ` +
      `${what}: not found`,
  };
}

/** Pull time: a base latency plus size over a ~20 MB/s link, so nginx takes about 4 s. */
export function pullDurationMs(sizeBytes: number, jitter01: number): number {
  return Math.round(600 + sizeBytes / 20_000 + jitter01 * 400);
}
