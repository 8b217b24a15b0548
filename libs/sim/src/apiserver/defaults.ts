// Registry defaulting (k8s.io/kubernetes/pkg/apis/*/v1/defaults.go): what the apiserver fills in
// before admission, so `kubectl get -o yaml` shows the same fields a real cluster shows.

import type { Container, KubeObject, PodSpec, Probe } from '../model';

function defaultProbe(p: Probe | undefined): void {
  if (!p) return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
  if (p.httpGet) {
    p.httpGet.path ??= '/';
    p.httpGet.scheme ??= 'HTTP';
  }
}

/** `:latest` or no tag (and no digest) pulls Always, everything else IfNotPresent. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  if (colon < 0) return 'Always';
  return image.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultContainer(c: Container): void {
  if (typeof c.image === 'string' && c.image !== '')
    c.imagePullPolicy ??= defaultPullPolicy(c.image);
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.resources ??= {};
  for (const p of c.ports ?? []) p.protocol ??= 'TCP';
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
}

export function defaultPodSpec(spec: PodSpec | undefined): void {
  if (!spec) return;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  spec.enableServiceLinks ??= true;
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  spec.priority ??= 0;
  if (Array.isArray(spec.containers))
    for (const c of spec.containers) if (c && typeof c === 'object') defaultContainer(c);
  if (Array.isArray(spec.initContainers))
    for (const c of spec.initContainers) if (c && typeof c === 'object') defaultContainer(c);
}

type Obj = KubeObject & Record<string, unknown>;

/** Applies registry defaults in place. */
export function applyDefaults(obj: Obj): void {
  const spec = obj['spec'] as Record<string, unknown> | undefined;
  switch (obj.kind) {
    case 'Pod':
      defaultPodSpec(spec as unknown as PodSpec);
      break;
    case 'Deployment': {
      if (!spec) break;
      spec['replicas'] ??= 1;
      spec['revisionHistoryLimit'] ??= 10;
      spec['progressDeadlineSeconds'] ??= 600;
      const strategy = (spec['strategy'] ??= {}) as Record<string, unknown>;
      strategy['type'] ??= 'RollingUpdate';
      if (strategy['type'] === 'RollingUpdate') {
        const ru = (strategy['rollingUpdate'] ??= {}) as Record<string, unknown>;
        ru['maxUnavailable'] ??= '25%';
        ru['maxSurge'] ??= '25%';
      }
      defaultTemplate(spec);
      break;
    }
    case 'DaemonSet': {
      // k8s.io/kubernetes pkg/apis/apps/v1/defaults.go SetDefaults_DaemonSet
      if (!spec) break;
      const strategy = (spec['updateStrategy'] ??= {}) as Record<string, unknown>;
      strategy['type'] ??= 'RollingUpdate';
      if (strategy['type'] === 'RollingUpdate') {
        const ru = (strategy['rollingUpdate'] ??= {}) as Record<string, unknown>;
        ru['maxUnavailable'] ??= 1;
        ru['maxSurge'] ??= 0;
      }
      spec['revisionHistoryLimit'] ??= 10;
      defaultTemplate(spec);
      break;
    }
    case 'ReplicaSet':
      if (!spec) break;
      spec['replicas'] ??= 1;
      defaultTemplate(spec);
      break;
    case 'Job':
      if (!spec) break;
      spec['parallelism'] ??= 1;
      spec['completions'] ??= 1;
      spec['backoffLimit'] ??= 6;
      spec['completionMode'] ??= 'NonIndexed';
      spec['suspend'] ??= false;
      spec['manualSelector'] ??= undefined;
      if (spec['manualSelector'] === undefined) delete spec['manualSelector'];
      defaultTemplate(spec);
      break;
    case 'Service': {
      if (!spec) break;
      spec['type'] ??= 'ClusterIP';
      spec['sessionAffinity'] ??= 'None';
      if (spec['type'] !== 'ExternalName') {
        spec['internalTrafficPolicy'] ??= 'Cluster';
        spec['ipFamilies'] ??= ['IPv4'];
        spec['ipFamilyPolicy'] ??= 'SingleStack';
      }
      if (spec['type'] === 'NodePort' || spec['type'] === 'LoadBalancer')
        spec['externalTrafficPolicy'] ??= 'Cluster';
      for (const p of (spec['ports'] as Record<string, unknown>[] | undefined) ?? []) {
        p['protocol'] ??= 'TCP';
        p['targetPort'] ??= p['port'];
      }
      (obj as Record<string, unknown>)['status'] ??= { loadBalancer: {} };
      break;
    }
    case 'Namespace': {
      obj.metadata.labels = {
        ...(obj.metadata.labels ?? {}),
        'kubernetes.io/metadata.name': obj.metadata.name ?? '',
      };
      const s = (obj['spec'] ??= {}) as Record<string, unknown>;
      s['finalizers'] ??= ['kubernetes'];
      (obj as Record<string, unknown>)['status'] = { phase: 'Active' };
      break;
    }
    case 'Secret':
      (obj as Record<string, unknown>)['type'] ??= 'Opaque';
      break;
    case 'PersistentVolumeClaim': {
      // the registry strategy resets status: a new claim is Pending until a binder binds it
      const s = (obj['spec'] ??= {}) as Record<string, unknown>;
      s['volumeMode'] ??= 'Filesystem';
      (obj as Record<string, unknown>)['status'] = { phase: 'Pending' };
      break;
    }
    case 'PersistentVolume': {
      const s = (obj['spec'] ??= {}) as Record<string, unknown>;
      s['persistentVolumeReclaimPolicy'] ??= 'Retain';
      s['volumeMode'] ??= 'Filesystem';
      // the registry strategy resets status to Pending; the PV controller's first sync makes an
      // unclaimed volume Available, so it stays Pending while kube-controller-manager is down
      (obj as Record<string, unknown>)['status'] = { phase: 'Pending' };
      break;
    }
    case 'StorageClass':
      (obj as Record<string, unknown>)['reclaimPolicy'] ??= 'Delete';
      (obj as Record<string, unknown>)['volumeBindingMode'] ??= 'Immediate';
      break;
    case 'PriorityClass':
      (obj as Record<string, unknown>)['preemptionPolicy'] ??= 'PreemptLowerPriority';
      break;
    case 'ServiceAccount':
    case 'ConfigMap':
    default:
      break;
  }
}

function defaultTemplate(spec: Record<string, unknown>): void {
  const template = spec['template'] as
    { spec?: PodSpec; metadata?: Record<string, unknown> } | undefined;
  if (template && typeof template === 'object') {
    template.metadata ??= {};
    (template.metadata as Record<string, unknown>)['creationTimestamp'] ??= null;
    defaultPodSpec(template.spec);
  }
}

/** v1 Pod QoS class (pkg/apis/core/helper/qos). */
export function qosClass(spec: PodSpec): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  let any = false;
  let guaranteed = true;
  for (const c of containers) {
    const req = c.resources?.requests ?? {};
    const lim = c.resources?.limits ?? {};
    if (Object.keys(req).length || Object.keys(lim).length) any = true;
    for (const r of ['cpu', 'memory']) {
      const l = lim[r];
      const q = req[r] ?? l;
      if (l === undefined || q !== l) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
