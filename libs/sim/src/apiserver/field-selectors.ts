// fieldSelector support per resource (the conversion funcs' field label tables in
// k8s.io/kubernetes/pkg/apis/*/v1/conversion.go). Unknown labels are a 400 from the apiserver.

import type { KubeObject } from '../model';

export interface FieldRequirement {
  field: string;
  /** field split on dots, parsed once */
  path: string[];
  op: '=' | '!=';
  value: string;
}

const COMMON = ['metadata.name', 'metadata.namespace'];
const EXTRA: Record<string, string[]> = {
  pods: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  events: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  nodes: ['spec.unschedulable'],
  namespaces: ['status.phase'],
  secrets: ['type'],
  replicasets: ['status.replicas'],
  jobs: ['status.successful'],
};

export class FieldSelectorError extends Error {}

export function parseFieldSelector(
  resource: string,
  input: string | undefined,
): FieldRequirement[] {
  if (!input || input.trim() === '') return [];
  const allowed = [...COMMON, ...(EXTRA[resource] ?? [])];
  return input.split(',').map((part) => {
    const m = part.trim().match(/^([^!=]+?)\s*(==|=|!=)\s*(.*)$/);
    if (!m) throw new FieldSelectorError(`invalid selector: '${part}'; can't understand '${part}'`);
    const field = (m[1] as string).trim();
    if (!allowed.includes(field))
      throw new FieldSelectorError(`field label not supported: ${field}`);
    return {
      field,
      path: field.split('.'),
      op: m[2] === '!=' ? '!=' : '=',
      value: (m[3] as string).trim(),
    };
  });
}

function fieldValue(obj: KubeObject, field: string, path: string[]): string {
  let cur: unknown = obj;
  if (field === 'source') {
    const src = (obj as { source?: { component?: string } }).source;
    return src?.component ?? '';
  }
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  return String(cur);
}

export function matchesFields(obj: KubeObject, reqs: FieldRequirement[]): boolean {
  for (const r of reqs) {
    if ((fieldValue(obj, r.field, r.path) === r.value) !== (r.op === '=')) return false;
  }
  return true;
}

/**
 * The namespace a `metadata.namespace=<ns>` requirement pins, so a list across all namespaces
 * only reads that namespace's keys (every requirement is still checked on each object).
 */
export function selectedNamespace(reqs: FieldRequirement[]): string | undefined {
  for (const r of reqs)
    if (r.field === 'metadata.namespace' && r.op === '=' && r.value) return r.value;
  return undefined;
}
