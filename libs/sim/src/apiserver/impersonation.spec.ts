import { describe, expect, it } from 'vitest';
import { createLab } from '../lab/lab';
import type { LabRequest } from '../lab/lab-types';
import type { Status } from '../model';
import { createTerminal } from '../cli/terminal';

const ADMIN = 'kubernetes-admin';

function lab() {
  return createLab({
    seed: 7,
    users: [
      { name: 'dev', token: 't-dev', clusterRole: 'view' },
      { name: 'ops', token: 't-ops', clusterRole: 'cluster-admin' },
    ],
  });
}

const listPods = (impersonate?: LabRequest['impersonate']): LabRequest => ({
  verb: 'list',
  resource: 'pods',
  namespace: 'default',
  ...(impersonate ? { impersonate } : {}),
});

describe('impersonation filter', () => {
  it('should run the request as the impersonated user when the requester is in system:masters', () => {
    const l = lab();
    const res = l.request(ADMIN, listPods({ user: 'jane' }));
    expect(res.code).toBe(403);
    expect((res.body as Status).message).toBe(
      'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
    );
  });

  it('should grant the impersonated groups when they are requested', () => {
    const l = lab();
    expect(l.request(ADMIN, listPods({ user: 'jane', groups: ['system:masters'] })).code).toBe(200);
  });

  it('should refuse with the impersonate verb when the requester lacks it', () => {
    const l = lab();
    const res = l.request('dev', listPods({ user: 'jane' }));
    expect(res.code).toBe(403);
    const st = res.body as Status;
    expect(st.reason).toBe('Forbidden');
    expect(st.message).toBe(
      'users "jane" is forbidden: User "dev" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    expect(st.details).toMatchObject({ name: 'jane', kind: 'users' });
  });

  it('should check a service account in its namespace when the user is system:serviceaccount:ns:name', () => {
    const l = lab();
    const res = l.request('dev', listPods({ user: 'system:serviceaccount:team:builder' }));
    expect((res.body as Status).message).toBe(
      'serviceaccounts "builder" is forbidden: User "dev" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "team"',
    );
  });

  it('should check each group when the requester may impersonate users but not groups', () => {
    const l = lab();
    l.request(ADMIN, {
      verb: 'create',
      resource: 'clusterroles',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'impersonate-users' },
        rules: [{ apiGroups: [''], resources: ['users'], verbs: ['impersonate'] }],
      },
    });
    l.request(ADMIN, {
      verb: 'create',
      resource: 'clusterrolebindings',
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'dev-impersonates' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'impersonate-users',
        },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }],
      },
    });
    expect(l.request('dev', listPods({ user: 'ops' })).code).toBe(200);
    const res = l.request('dev', listPods({ user: 'jane', groups: ['system:masters'] }));
    expect((res.body as Status).message).toBe(
      'groups "system:masters" is forbidden: User "dev" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
  });

  it('should give a service account its groups when no group is requested', () => {
    const l = lab();
    const res = l.request(ADMIN, {
      verb: 'create',
      resource: 'selfsubjectaccessreviews',
      impersonate: { user: 'system:serviceaccount:kube-system:default' },
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } },
      },
    });
    expect(res.code).toBe(201);
    const ev = l.trace().filter((e) => e.verb === 'impersonate');
    expect(ev.at(-1)?.data).toMatchObject({
      requester: ADMIN,
      user: 'system:serviceaccount:kube-system:default',
      groups: [
        'system:serviceaccounts',
        'system:serviceaccounts:kube-system',
        'system:authenticated',
      ],
    });
  });
});

describe('kubectl --as', () => {
  it('should print the impersonated user Forbidden when kubectl runs with --as', () => {
    const t = createTerminal(lab());
    const r = t.exec('kubectl get pods --as=jane');
    expect(r.stderr).toBe(
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    expect(r.exitCode).toBe(1);
  });

  it('should answer auth can-i for the impersonated user when --as is given', () => {
    const t = createTerminal(lab());
    expect(t.exec('kubectl auth can-i list pods --as=dev').stdout).toBe('yes\n');
    expect(t.exec('kubectl auth can-i create pods --as=dev').stdout).toBe('no\n');
    expect(
      t.exec('kubectl auth can-i create pods --as=jane --as-group=system:masters').stdout,
    ).toBe('yes\n');
  });

  it('should refuse --as-group without --as when kubectl parses the flags', () => {
    const r = createTerminal(lab()).exec('kubectl get pods --as-group=dev');
    expect(r.stderr).toBe(
      'error: invalid configuration: requesting uid, groups or user-extra for kubernetes-admin without impersonating a user\n',
    );
    expect(r.exitCode).toBe(1);
  });
});
