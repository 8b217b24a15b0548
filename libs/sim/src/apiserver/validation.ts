// Schema validation with upstream's field paths and messages (k8s.io/kubernetes/pkg/apis/*/
// validation, apimachinery/pkg/util/validation). Returns field errors; the caller turns them into
// a 422 Invalid Status.

import type { Container, KubeObject, PodSpec } from '../model';
import { fromLabelSelector, matchesRequirements } from '../shared/labels';
import { isValidQuantity, parseQuantity } from '../shared/quantity';
import type { FieldError } from './status';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
export const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
export const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

type Errs = FieldError[];

function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value, detail };
}
function required(field: string, detail?: string): FieldError {
  return detail
    ? { type: 'FieldValueRequired', field, detail }
    : { type: 'FieldValueRequired', field };
}

export function validateSubdomain(field: string, name: string, errs: Errs): void {
  if (name.length > 253) errs.push(invalid(field, name, 'must be no more than 253 characters'));
  else if (!DNS1123_SUBDOMAIN.test(name)) errs.push(invalid(field, name, SUBDOMAIN_MSG));
}

function validateLabel(field: string, name: string, errs: Errs): void {
  if (name.length > 63) errs.push(invalid(field, name, 'must be no more than 63 characters'));
  else if (!DNS1123_LABEL.test(name)) errs.push(invalid(field, name, LABEL_MSG));
}

function validate1035(field: string, name: string, errs: Errs): void {
  if (name.length > 63) errs.push(invalid(field, name, 'must be no more than 63 characters'));
  else if (!DNS1035_LABEL.test(name)) errs.push(invalid(field, name, DNS1035_MSG));
}

/** Kinds whose names must be DNS labels (not subdomains). */
const LABEL_NAMED = new Set(['Namespace']);
const DNS1035_NAMED = new Set(['Service']);
const PATH_SEGMENT_NAMED = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function validateMeta(obj: KubeObject, errs: Errs): void {
  const name = obj.metadata.name;
  if (!name) {
    errs.push(required('metadata.name', 'name or generateName is required'));
    return;
  }
  if (LABEL_NAMED.has(obj.kind)) validateLabel('metadata.name', name, errs);
  else if (DNS1035_NAMED.has(obj.kind)) validate1035('metadata.name', name, errs);
  else if (PATH_SEGMENT_NAMED.has(obj.kind)) {
    // RBAC objects only need a valid path segment (system:kube-scheduler, kubeadm:...)
    if (name === '.' || name === '..')
      errs.push(invalid('metadata.name', name, `may not be '${name}'`));
    else if (/[/%]/.test(name))
      errs.push(
        invalid('metadata.name', name, `may not contain '${name.includes('/') ? '/' : '%'}'`),
      );
  } else if (obj.kind !== 'Event') validateSubdomain('metadata.name', name, errs);
  const labels = obj.metadata.labels;
  // walked in place: most writes (Events, status) carry none, and every write is validated
  for (const k in labels) {
    const v: unknown = labels[k];
    if (typeof v !== 'string' || v.length > 63 || !LABEL_VALUE.test(v)) {
      errs.push(
        invalid(
          'metadata.labels',
          v,
          "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
        ),
      );
    }
  }
}

function validateContainers(path: string, list: unknown, errs: Errs, requireOne: boolean): void {
  if (!Array.isArray(list) || list.length === 0) {
    if (requireOne) errs.push(required(path));
    return;
  }
  const seen = new Set<string>();
  list.forEach((raw: Container, i) => {
    const p = `${path}[${i}]`;
    if (!raw.name) errs.push(required(`${p}.name`));
    else {
      validateLabel(`${p}.name`, raw.name, errs);
      if (seen.has(raw.name))
        errs.push({ type: 'FieldValueDuplicate', field: `${p}.name`, value: raw.name });
      seen.add(raw.name);
    }
    if (!raw.image || (typeof raw.image === 'string' && raw.image.trim() === ''))
      errs.push(required(`${p}.image`));
    (raw.ports ?? []).forEach((port, j) => {
      const cp = port.containerPort;
      if (cp === undefined) errs.push(required(`${p}.ports[${j}].containerPort`));
      else if (!Number.isInteger(cp) || cp < 1 || cp > 65535) {
        errs.push(
          invalid(`${p}.ports[${j}].containerPort`, cp, 'must be between 1 and 65535, inclusive'),
        );
      }
    });
    const req = raw.resources?.requests ?? {};
    const lim = raw.resources?.limits ?? {};
    for (const k in req) {
      const v = req[k] as string;
      if (!isValidQuantity(v)) continue;
      const l = lim[k];
      if (l !== undefined && isValidQuantity(l) && parseQuantity(v) > parseQuantity(l)) {
        errs.push(
          invalid(`${p}.resources.requests`, v, `must be less than or equal to ${k} limit of ${l}`),
        );
      }
    }
  });
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

export function validatePodSpec(
  path: string,
  spec: PodSpec | undefined,
  errs: Errs,
  allowedRestart = RESTART_POLICIES,
): void {
  if (!spec || typeof spec !== 'object') {
    errs.push(required(`${path}.containers`));
    return;
  }
  validateContainers(`${path}.containers`, spec.containers, errs, true);
  validateContainers(`${path}.initContainers`, spec.initContainers, errs, false);
  if (spec.restartPolicy !== undefined && !allowedRestart.includes(spec.restartPolicy)) {
    errs.push({
      type: 'FieldValueNotSupported',
      field: `${path}.restartPolicy`,
      value: spec.restartPolicy,
      supported: allowedRestart,
    });
  }
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) {
    errs.push(
      invalid(
        `${path}.terminationGracePeriodSeconds`,
        spec.terminationGracePeriodSeconds,
        'must be greater than or equal to 0',
      ),
    );
  }
}

interface WorkloadSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template?: { metadata?: { labels?: Record<string, string> }; spec?: PodSpec };
}

function validateWorkload(
  spec: WorkloadSpec | undefined,
  errs: Errs,
  allowedRestart: string[],
  selectorRequired = true,
  kind = 'deployment',
): void {
  if (!spec) {
    errs.push(required('spec.template.spec.containers'));
    return;
  }
  if (spec.replicas !== undefined && (typeof spec.replicas !== 'number' || spec.replicas < 0)) {
    errs.push(invalid('spec.replicas', spec.replicas, 'must be greater than or equal to 0'));
  }
  if (!spec.selector) {
    if (selectorRequired) errs.push(required('spec.selector'));
  } else {
    const labels = spec.template?.metadata?.labels ?? {};
    const reqs = fromLabelSelector(spec.selector as never);
    if (reqs.length === 0) {
      errs.push(invalid('spec.selector', spec.selector, `empty selector is invalid for ${kind}`));
    } else if (!matchesRequirements(labels, reqs)) {
      errs.push(
        invalid(
          'spec.template.metadata.labels',
          labels,
          '`selector` does not match template `labels`',
        ),
      );
    }
  }
  validatePodSpec('spec.template.spec', spec.template?.spec, errs, allowedRestart);
}

function validateService(obj: KubeObject, errs: Errs): void {
  const spec = (obj['spec'] ?? {}) as {
    type?: string;
    clusterIP?: string;
    ports?: { port?: number; name?: string; nodePort?: number }[];
  };
  const types = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];
  if (spec.type && !types.includes(spec.type)) {
    errs.push({
      type: 'FieldValueNotSupported',
      field: 'spec.type',
      value: spec.type,
      supported: types,
    });
  }
  if (
    spec.type !== 'ExternalName' &&
    spec.clusterIP !== 'None' &&
    (!spec.ports || spec.ports.length === 0)
  ) {
    errs.push(required('spec.ports'));
  }
  (spec.ports ?? []).forEach((p, i) => {
    if (p.port === undefined) errs.push(required(`spec.ports[${i}].port`));
    else if (!Number.isInteger(p.port) || p.port < 1 || p.port > 65535) {
      errs.push(invalid(`spec.ports[${i}].port`, p.port, 'must be between 1 and 65535, inclusive'));
    }
    if ((spec.ports ?? []).length > 1 && !p.name) errs.push(required(`spec.ports[${i}].name`));
    if (p.nodePort !== undefined && (p.nodePort < 30000 || p.nodePort > 32767)) {
      errs.push(
        invalid(
          `spec.ports[${i}].nodePort`,
          p.nodePort,
          'provided port is not in the valid range. The range of valid ports is 30000-32767',
        ),
      );
    }
  });
}

/** Validation on create. */
export function validateObject(obj: KubeObject): FieldError[] {
  const errs: Errs = [];
  validateMeta(obj, errs);
  const spec = obj['spec'] as Record<string, unknown> | undefined;
  switch (obj.kind) {
    case 'Pod':
      validatePodSpec('spec', spec as unknown as PodSpec, errs);
      break;
    case 'Deployment':
    case 'ReplicaSet':
      validateWorkload(spec as WorkloadSpec, errs, ['Always']);
      break;
    case 'DaemonSet':
      validateWorkload(spec as WorkloadSpec, errs, ['Always'], true, 'daemonset');
      break;
    case 'Job':
      validateWorkload(spec as WorkloadSpec, errs, ['OnFailure', 'Never'], false);
      break;
    case 'Service':
      validateService(obj, errs);
      break;
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      if (!obj['roleRef']) errs.push(required('roleRef'));
      break;
    default:
      break;
  }
  return errs;
}

function goSelector(sel: unknown): string {
  const s = (sel ?? {}) as { matchLabels?: Record<string, string> };
  const entries = Object.entries(s.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  const ml = entries.length
    ? `map[string]string{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(', ')}}`
    : 'map[string]string(nil)';
  return `v1.LabelSelector{MatchLabels:${ml}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}`;
}

/** Validation on update: create rules plus immutable fields. */
export function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateObject(obj);
  const spec = obj['spec'] as Record<string, unknown> | undefined;
  const oldSpec = old['spec'] as Record<string, unknown> | undefined;
  if (
    (obj.kind === 'Deployment' ||
      obj.kind === 'ReplicaSet' ||
      obj.kind === 'DaemonSet' ||
      obj.kind === 'Job') &&
    spec &&
    oldSpec
  ) {
    if (JSON.stringify(spec['selector']) !== JSON.stringify(oldSpec['selector'])) {
      errs.push({
        type: 'FieldValueInvalid',
        field: 'spec.selector',
        value: undefined,
        detail: 'field is immutable',
      });
      const last = errs[errs.length - 1] as FieldError & { rendered?: string };
      last.value = { __go: goSelector(spec['selector']) };
    }
  }
  if (
    obj.kind === 'Service' &&
    spec &&
    oldSpec &&
    oldSpec['clusterIP'] &&
    spec['clusterIP'] !== oldSpec['clusterIP']
  ) {
    errs.push(invalid('spec.clusterIPs[0]', spec['clusterIP'], 'may not change once set'));
  }
  if (obj.kind === 'Pod' && spec && oldSpec) {
    const strip = (s: Record<string, unknown>) => {
      const c = JSON.parse(JSON.stringify(s)) as Record<string, unknown>;
      for (const ct of [
        ...((c['containers'] as Container[]) ?? []),
        ...((c['initContainers'] as Container[]) ?? []),
      ]) {
        ct.image = '';
      }
      delete c['activeDeadlineSeconds'];
      delete c['tolerations'];
      delete c['terminationGracePeriodSeconds'];
      return JSON.stringify(c);
    };
    if (strip(spec) !== strip(oldSpec)) {
      errs.push({
        type: 'FieldValueForbidden',
        field: 'spec',
        detail:
          'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
      });
    }
  }
  return errs;
}
