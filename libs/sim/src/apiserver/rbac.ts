// Authorization: the node authorizer first (kubelets are confined to their own node), then RBAC
// (Role/ClusterRole rules reached through RoleBindings/ClusterRoleBindings). Mirrors
// k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac: verbs, apiGroups, resources (with
// `resource/subresource`, `*`, `resource/*`, `*/subresource`), resourceNames; RoleBindings may
// point at a ClusterRole to grant it inside one namespace.

import type { PolicyRule, Role, RoleBinding, Subject } from '../model';
import type { UserInfo } from './authn';

export interface RequestAttributes {
  user: UserInfo;
  verb: string;
  apiGroup: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export interface Decision {
  allowed: boolean;
  /** why it was denied (appended to the Forbidden message), or what allowed it */
  reason: string;
  /** the binding that allowed it, for the trace */
  via?: string;
}

export interface RbacSource {
  clusterRoles(): Role[];
  clusterRoleBindings(): RoleBinding[];
  roles(namespace: string): Role[];
  roleBindings(namespace: string): RoleBinding[];
}

export function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  if (!ruleCoversRequest(rule, a)) return false;
  const names = rule.resourceNames ?? [];
  if (names.length > 0 && (!a.name || !names.includes(a.name))) return false;
  return true;
}

/** ruleAllows without the object's name: verbs, apiGroups and resources. */
function ruleCoversRequest(rule: PolicyRule, a: RequestAttributes): boolean {
  if (!rule.verbs.includes('*') && !rule.verbs.includes(a.verb)) return false;
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(a.apiGroup)) return false;
  const resources = rule.resources ?? [];
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resourceOk = resources.some(
    (r) =>
      r === '*' ||
      r === combined ||
      (a.subresource !== undefined && (r === `${a.resource}/*` || r === `*/${a.subresource}`)),
  );
  return resourceOk;
}

/**
 * Whether rbacAuthorize's answer to a request can depend on the object's name: only a rule with
 * resourceNames reads it (in ruleAllows), so when no role in reach (every ClusterRole, and the
 * request namespace's Roles, bound or not) has one covering the request's verb, group and
 * resource, every name gets the same decision.
 */
export function nameCanMatter(source: RbacSource, a: RequestAttributes): boolean {
  const namedRuleCovers = (role: Role): boolean =>
    (role.rules ?? []).some((r) => (r.resourceNames ?? []).length > 0 && ruleCoversRequest(r, a));
  if (source.clusterRoles().some(namedRuleCovers)) return true;
  return !!a.namespace && source.roles(a.namespace).some(namedRuleCovers);
}

export function subjectMatches(
  subject: Subject,
  user: UserInfo,
  bindingNamespace?: string,
): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      const ns = subject.namespace ?? bindingNamespace;
      return user.name === `system:serviceaccount:${ns}:${subject.name}`;
    }
  }
}

function rulesOf(source: RbacSource, binding: RoleBinding, namespace?: string): PolicyRule[] {
  const ref = binding.roleRef;
  if (ref.kind === 'ClusterRole') {
    return source.clusterRoles().find((r) => r.metadata.name === ref.name)?.rules ?? [];
  }
  if (!namespace) return [];
  return source.roles(namespace).find((r) => r.metadata.name === ref.name)?.rules ?? [];
}

export function rbacAuthorize(source: RbacSource, a: RequestAttributes): Decision {
  for (const b of source.clusterRoleBindings()) {
    if (!(b.subjects ?? []).some((s) => subjectMatches(s, a.user))) continue;
    if (rulesOf(source, b).some((r) => ruleAllows(r, a))) {
      return {
        allowed: true,
        reason: '',
        via: `ClusterRoleBinding "${b.metadata.name}" of ClusterRole "${b.roleRef.name}"`,
      };
    }
  }
  if (a.namespace) {
    for (const b of source.roleBindings(a.namespace)) {
      if (!(b.subjects ?? []).some((s) => subjectMatches(s, a.user, a.namespace))) continue;
      if (rulesOf(source, b, a.namespace).some((r) => ruleAllows(r, a))) {
        return {
          allowed: true,
          reason: '',
          via: `RoleBinding "${b.metadata.name}/${a.namespace}" of ${b.roleRef.kind} "${b.roleRef.name}"`,
        };
      }
    }
  }
  return { allowed: false, reason: '' };
}

const NODE_READABLE = new Set([
  'services',
  'endpoints',
  'endpointslices',
  'nodes',
  'pods',
  'configmaps',
  'secrets',
  'namespaces',
]);

/**
 * The node authorizer + NodeRestriction, reduced to what the simulated kubelet does: read what it
 * needs, write only its own Node, its own Lease, and pods bound to it (checked on the object by
 * the apiserver through `nodeOwnsPod`). Returns undefined for non-node users.
 * Every kubelet request passes here (~20,000 in a 3,000-pod settle): an allowed one gets the one
 * shared answer, and the verb lists are made once.
 */
export function nodeAuthorize(a: RequestAttributes): Decision | undefined {
  if (!a.user.groups.includes('system:nodes') || !a.user.name.startsWith('system:node:'))
    return undefined;
  const read = a.verb === 'get' || a.verb === 'list' || a.verb === 'watch';
  if (a.resource === 'nodes') {
    if (read) return NODE_AUTHORIZER;
    const node = nodeName(a);
    if (a.verb === 'create' || a.name === node) return NODE_AUTHORIZER;
    return { allowed: false, reason: `node '${node}' cannot modify node '${a.name ?? ''}'` };
  }
  if (a.resource === 'leases' && a.apiGroup === 'coordination.k8s.io') {
    if (
      a.namespace === 'kube-node-lease' &&
      (a.name === nodeName(a) || (a.verb === 'create' && !a.name))
    ) {
      return NODE_AUTHORIZER;
    }
    return {
      allowed: false,
      reason: 'can only access node lease with the same name as the requesting node',
    };
  }
  if (a.resource === 'events') {
    return EVENT_VERBS.includes(a.verb) ? NODE_AUTHORIZER : { allowed: false, reason: '' };
  }
  if (a.resource === 'pods') {
    // Writes are checked against the pod's spec.nodeName by the apiserver (NodeRestriction).
    if (read && !a.subresource) return NODE_AUTHORIZER;
    if (a.subresource === 'status' && POD_STATUS_VERBS.includes(a.verb)) return NODE_AUTHORIZER;
    if (!a.subresource && POD_WRITE_VERBS.includes(a.verb)) return NODE_AUTHORIZER;
    if (a.subresource === 'eviction' && a.verb === 'create') return NODE_AUTHORIZER;
    return { allowed: false, reason: '' };
  }
  if (read && NODE_READABLE.has(a.resource)) return NODE_AUTHORIZER;
  return undefined;
}

/** What the node authorizer allows (shared and frozen: deciders only read it). */
const NODE_AUTHORIZER: Decision = Object.freeze({
  allowed: true,
  reason: '',
  via: 'node authorizer',
});
const EVENT_VERBS: readonly string[] = ['create', 'patch', 'update', 'get'];
const POD_STATUS_VERBS: readonly string[] = ['update', 'patch', 'get'];
const POD_WRITE_VERBS: readonly string[] = ['create', 'delete', 'update', 'patch'];

function nodeName(a: RequestAttributes): string {
  return a.user.name.slice('system:node:'.length);
}

/** `forbiddenMessage` (apiserver responsewriters/errors.go). */
export function forbiddenReason(a: RequestAttributes, reason: string): string {
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace
    ? `in the namespace ${JSON.stringify(a.namespace)}`
    : 'at the cluster scope';
  const base = `User ${JSON.stringify(a.user.name)} cannot ${a.verb} resource ${JSON.stringify(res)} in API group ${JSON.stringify(a.apiGroup)} ${scope}`;
  return reason ? `${base}: ${reason}` : base;
}

/** Rules that apply to the user in a namespace (SelfSubjectRulesReview). */
export function rulesFor(source: RbacSource, user: UserInfo, namespace: string): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const b of source.clusterRoleBindings()) {
    if ((b.subjects ?? []).some((s) => subjectMatches(s, user))) out.push(...rulesOf(source, b));
  }
  for (const b of source.roleBindings(namespace)) {
    if ((b.subjects ?? []).some((s) => subjectMatches(s, user, namespace)))
      out.push(...rulesOf(source, b, namespace));
  }
  return out;
}
