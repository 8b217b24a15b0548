// The impersonation filter (k8s.io/apiserver pkg/endpoints/filters/impersonation.go). It runs after
// authentication and before authorization: the authenticated requester asks to act as someone
// else (`kubectl --as`, `--as-group`, `--as-uid`), each requested identity is checked with the verb
// `impersonate`, and the rest of the request then runs as the impersonated user. kubeadm's
// kubernetes-admin (system:masters) may impersonate anyone; other users need RBAC rules such as
// `verbs: [impersonate], resources: [users, groups, serviceaccounts]`.

import type { UserInfo } from './authn';
import type { Decision, RequestAttributes } from './rbac';
import { forbiddenReason } from './rbac';

/** The Impersonate-User / Impersonate-Group / Impersonate-Uid headers of one request. */
export interface ImpersonationRequest {
  user: string;
  groups?: string[];
  uid?: string;
}

export type ImpersonationResult =
  | { ok: true; user: UserInfo; checked: RequestAttributes[] }
  | {
      ok: false;
      /** the check that failed: `users "jane"`, `serviceaccounts "default"`, `groups "dev"` */
      denied: RequestAttributes;
      why: string;
    };

const SA_PREFIX = 'system:serviceaccount:';

/** `system:serviceaccount:<ns>:<name>` -> { namespace, name } */
export function parseServiceAccountUser(
  user: string,
): { namespace: string; name: string } | undefined {
  if (!user.startsWith(SA_PREFIX)) return undefined;
  const parts = user.slice(SA_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/**
 * Checks every requested identity in upstream order (user or service account, then groups, then
 * uid) and builds the user the request continues as.
 */
export function impersonate(
  requester: UserInfo,
  req: ImpersonationRequest,
  authorize: (attrs: RequestAttributes) => Decision,
): ImpersonationResult {
  const checks: RequestAttributes[] = [];
  const base = { user: requester, verb: 'impersonate', apiGroup: '' };
  const sa = parseServiceAccountUser(req.user);
  if (sa) {
    checks.push({ ...base, resource: 'serviceaccounts', namespace: sa.namespace, name: sa.name });
  } else {
    checks.push({ ...base, resource: 'users', name: req.user });
  }
  for (const g of req.groups ?? []) checks.push({ ...base, resource: 'groups', name: g });
  if (req.uid)
    checks.push({ ...base, apiGroup: 'authentication.k8s.io', resource: 'uids', name: req.uid });
  for (const attrs of checks) {
    const d = authorize(attrs);
    if (!d.allowed) return { ok: false, denied: attrs, why: forbiddenReason(attrs, d.reason) };
  }
  const groupsSpecified = (req.groups ?? []).length > 0;
  let groups = [...(req.groups ?? [])];
  // A service account without explicit groups gets the groups its token would carry.
  if (sa && !groupsSpecified)
    groups = ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`];
  if (
    req.user !== 'system:anonymous' &&
    !groups.includes('system:authenticated') &&
    !groups.includes('system:unauthenticated')
  )
    groups.push('system:authenticated');
  return { ok: true, user: { name: req.user, groups }, checked: checks };
}
