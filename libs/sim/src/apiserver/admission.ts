// Admission control: mutating plugins rewrite the object, then validating plugins may only accept
// or reject it (the order matters: a mutation after validation could sneak past a policy).
// Plugins here: LimitRanger (default requests/limits), ServiceAccount, a sidecar injector for
// labelled namespaces (what Istio's webhook does), DefaultTolerationSeconds, and a "no :latest"
// validating policy shaped like a webhook (OPA Gatekeeper / Kyverno style).

import type {
  Container,
  KubeObject,
  LimitRange,
  Namespace,
  Pod,
  PodSpec,
  Toleration,
} from '../model';
import type { Rng } from '../runtime/rng';
import { randomSuffix } from '../runtime/rng';
import { deepFreeze } from '../shared/deep-freeze';

export const SIDECAR_LABEL = 'kubejourney.dev/sidecar-injection';
export const POLICY_LABEL = 'kubejourney.dev/policy';
export const NO_LATEST_WEBHOOK = 'no-latest.kubejourney.dev';
export const SIDECAR_IMAGE = 'docker.io/envoyproxy/envoy:v1.32.1';

export interface AdmissionContext {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  namespace?: Namespace;
  limitRanges: LimitRange[];
  serviceAccountExists: (name: string) => boolean;
  rng: Rng;
  /** the value of a PriorityClass, undefined when there is none by that name */
  priorityClassValue?: (name: string) => number | undefined;
}

export interface MutationRecord {
  plugin: string;
  change: string;
}

function podSpecOf(obj: KubeObject): PodSpec | undefined {
  if (obj.kind === 'Pod') return (obj as Pod).spec;
  return undefined;
}

function limitRanger(spec: PodSpec, ranges: LimitRange[], out: MutationRecord[]): void {
  for (const lr of ranges) {
    for (const item of lr.spec?.limits ?? []) {
      if (item.type !== 'Container') continue;
      for (const c of spec.containers ?? []) {
        const before = JSON.stringify(c.resources ?? {});
        c.resources ??= {};
        for (const [res, q] of Object.entries(item.default ?? {})) {
          c.resources.limits ??= {};
          c.resources.limits[res] ??= q;
        }
        for (const [res, q] of Object.entries(item.defaultRequest ?? item.default ?? {})) {
          c.resources.requests ??= {};
          // defaultRequest falls back to the container's limit, then to the range's default
          c.resources.requests[res] ??=
            c.resources.limits?.[res] && !item.defaultRequest?.[res] ? c.resources.limits[res] : q;
        }
        if (JSON.stringify(c.resources) !== before) {
          out.push({
            plugin: 'LimitRanger',
            change: `set resources of container ${c.name} from LimitRange ${lr.metadata.name}`,
          });
        }
      }
    }
  }
}

function sidecarInjector(pod: Pod, out: MutationRecord[]): void {
  const spec = pod.spec;
  if (spec.containers.some((c) => c.name === 'istio-proxy')) return;
  const sidecar: Container = {
    name: 'istio-proxy',
    image: SIDECAR_IMAGE,
    args: ['proxy', 'sidecar'],
    ports: [{ containerPort: 15090, name: 'http-envoy-prom', protocol: 'TCP' }],
    resources: { requests: { cpu: '10m', memory: '40Mi' }, limits: { cpu: '2', memory: '1Gi' } },
    imagePullPolicy: 'IfNotPresent',
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  };
  spec.containers.push(sidecar);
  pod.metadata.annotations = {
    ...(pod.metadata.annotations ?? {}),
    'sidecar.istio.io/status': '{"containers":["istio-proxy"]}',
  };
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), 'security.istio.io/tlsMode': 'istio' };
  out.push({
    plugin: 'MutatingAdmissionWebhook',
    change: 'sidecar-injector.kubejourney.dev injected container istio-proxy',
  });
}

const DEFAULT_TOLERATIONS: Toleration[] = [
  {
    key: 'node.kubernetes.io/not-ready',
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  },
  {
    key: 'node.kubernetes.io/unreachable',
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: 300,
  },
];

function defaultTolerationSeconds(spec: PodSpec, out: MutationRecord[]): void {
  const tolerations = (spec.tolerations ??= []);
  for (const t of DEFAULT_TOLERATIONS) {
    const has = tolerations.some(
      (x) =>
        (x.key === t.key || (x.operator === 'Exists' && !x.key)) &&
        (!x.effect || x.effect === 'NoExecute'),
    );
    if (!has) {
      tolerations.push({ ...t });
      out.push({
        plugin: 'DefaultTolerationSeconds',
        change: `added toleration ${t.key}:NoExecute for 300s`,
      });
    }
  }
}

const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

// The same for every pod, and only ever read (stored pods are frozen whole): shared, not copied.
const TOKEN_PROJECTION = deepFreeze({
  defaultMode: 420,
  sources: [
    { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
    { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    {
      downwardAPI: {
        items: [
          {
            fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' },
            path: 'namespace',
          },
        ],
      },
    },
  ],
});

function serviceAccount(pod: Pod, ctx: AdmissionContext, out: MutationRecord[]): void {
  const spec = pod.spec;
  if (!spec.serviceAccountName) {
    spec.serviceAccountName = spec.serviceAccount ?? 'default';
    out.push({
      plugin: 'ServiceAccount',
      change: `set serviceAccountName ${spec.serviceAccountName}`,
    });
  }
  spec.serviceAccount = spec.serviceAccountName;
  if ((spec.volumes ?? []).some((v) => v.name.startsWith('kube-api-access-'))) return;
  // the projected token volume every pod gets (BoundServiceAccountTokenVolume)
  const name = `kube-api-access-${randomSuffix(ctx.rng)}`;
  // mountServiceAccountToken: init containers first, then containers; one that already mounts
  // something at the token path keeps it, and the volume is only added if someone mounts it
  let needsTokenVolume = false;
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    if ((c.volumeMounts ?? []).some((m) => m.mountPath === SERVICE_ACCOUNT_MOUNT_PATH)) continue;
    c.volumeMounts = [
      ...(c.volumeMounts ?? []),
      { name, mountPath: SERVICE_ACCOUNT_MOUNT_PATH, readOnly: true },
    ];
    needsTokenVolume = true;
  }
  if (!needsTokenVolume) return;
  spec.volumes = [...(spec.volumes ?? []), { name, projected: TOKEN_PROJECTION }];
  out.push({ plugin: 'ServiceAccount', change: `mounted projected token volume ${name}` });
}

/**
 * Runs the mutating chain in upstream order and returns what each plugin did. Errors are returned
 * as a Forbidden reason string.
 */
export function runMutating(
  obj: KubeObject,
  ctx: AdmissionContext,
): { records: MutationRecord[]; error?: string } {
  const records: MutationRecord[] = [];
  if (ctx.operation !== 'CREATE') return { records };
  const spec = podSpecOf(obj);
  if (!spec || !Array.isArray(spec.containers)) return { records };
  const pod = obj as Pod;
  limitRanger(spec, ctx.limitRanges, records);
  const priorityError = priority(spec, ctx, records);
  if (priorityError) return { records, error: priorityError };
  const saName = spec.serviceAccountName ?? spec.serviceAccount ?? 'default';
  if (saName !== 'default' && !ctx.serviceAccountExists(saName)) {
    return {
      records,
      error: `error looking up service account ${obj.metadata.namespace}/${saName}: serviceaccount ${JSON.stringify(saName)} not found`,
    };
  }
  serviceAccount(pod, ctx, records);
  // Webhooks run after the built-in mutating plugins.
  defaultTolerationSeconds(spec, records);
  if (ctx.namespace?.metadata.labels?.[SIDECAR_LABEL] === 'enabled') sidecarInjector(pod, records);
  return { records };
}

/** The Priority plugin: spec.priority comes from the named PriorityClass (0 without a name). */
function priority(spec: PodSpec, ctx: AdmissionContext, out: MutationRecord[]): string | undefined {
  const name = spec.priorityClassName;
  if (!name || !ctx.priorityClassValue) return undefined;
  const value = ctx.priorityClassValue(name);
  if (value === undefined) return `no PriorityClass with name ${name} was found`;
  spec.priority = value;
  out.push({ plugin: 'Priority', change: `set priority ${value} from PriorityClass ${name}` });
  return undefined;
}

/** Images with `:latest` or no tag at all (a digest pins the image, so it is fine). */
export function isLatestImage(image: string): boolean {
  if (image.includes('@')) return false;
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  return colon < 0 || image.slice(colon + 1) === 'latest';
}

function containersOf(obj: KubeObject): { path: string; containers: Container[] } | undefined {
  const spec = obj['spec'] as Record<string, unknown> | undefined;
  if (!spec) return undefined;
  if (obj.kind === 'Pod')
    return {
      path: 'spec',
      containers: [
        ...((spec['containers'] as Container[]) ?? []),
        ...((spec['initContainers'] as Container[]) ?? []),
      ],
    };
  const template = spec['template'] as { spec?: PodSpec } | undefined;
  if (template?.spec) {
    return {
      path: 'spec.template.spec',
      containers: [...(template.spec.containers ?? []), ...(template.spec.initContainers ?? [])],
    };
  }
  return undefined;
}

export interface ValidationDenial {
  webhook: string;
  message: string;
}

/** Validating chain; returns the first denial. */
export function runValidating(
  obj: KubeObject,
  ctx: AdmissionContext,
): { checked: string[]; denial?: ValidationDenial } {
  const checked: string[] = [];
  if (ctx.operation === 'DELETE') return { checked };
  if (ctx.namespace?.metadata.labels?.[POLICY_LABEL] === 'no-latest') {
    const found = containersOf(obj);
    checked.push(NO_LATEST_WEBHOOK);
    if (found) {
      const bad = found.containers.filter(
        (c) => typeof c.image === 'string' && isLatestImage(c.image),
      );
      if (bad.length > 0) {
        const list = bad
          .map((c) => `container ${JSON.stringify(c.name)} uses image ${JSON.stringify(c.image)}`)
          .join('; ');
        return {
          checked,
          denial: {
            webhook: NO_LATEST_WEBHOOK,
            message: `images must be pinned to a version tag, ":latest" and untagged images are not allowed: ${list}`,
          },
        };
      }
    }
  }
  return { checked };
}
