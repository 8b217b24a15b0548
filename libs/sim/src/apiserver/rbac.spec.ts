import { describe, expect, it } from 'vitest';
import { createLab } from '../lab/lab';
import type { LabRequest } from '../lab/lab-types';

const ADMIN = 'kubernetes-admin';

const configMap = (name: string): LabRequest => ({
  verb: 'create',
  resource: 'configmaps',
  namespace: 'default',
  body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: {} },
});

const deleteConfigMap = (name: string): LabRequest => ({
  verb: 'delete',
  resource: 'configmaps',
  namespace: 'default',
  name,
});

/** A Role that lets dev delete the named configmaps of the default namespace, bound to dev. */
function grantDelete(l: ReturnType<typeof createLab>, resourceNames: string[]): void {
  l.request(ADMIN, {
    verb: 'create',
    resource: 'roles',
    namespace: 'default',
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'delete-some' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'], resourceNames }],
    },
  });
  l.request(ADMIN, {
    verb: 'create',
    resource: 'rolebindings',
    namespace: 'default',
    body: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'dev-deletes-some' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'delete-some' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dev' }],
    },
  });
}

describe('RBAC decisions by object name', () => {
  it('should still decide by name when a resourceNames rule covers the request, asked again and again', () => {
    const l = createLab({ seed: 7, users: [{ name: 'dev', token: 't-dev', clusterRole: 'view' }] });
    for (const name of ['scratch', 'keep', 'other']) l.request(ADMIN, configMap(name));
    grantDelete(l, ['scratch', 'other']);
    expect(l.request('dev', deleteConfigMap('keep')).code).toBe(403);
    expect(l.request('dev', deleteConfigMap('scratch')).code).toBe(200);
    expect(l.request('dev', deleteConfigMap('keep')).code).toBe(403);
    expect(l.request('dev', deleteConfigMap('other')).code).toBe(200);
    expect(l.request('dev', deleteConfigMap('keep')).code).toBe(403);
  });

  it('should answer again by name once a resourceNames rule appears after name-free answers', () => {
    const l = createLab({ seed: 7, users: [{ name: 'dev', token: 't-dev', clusterRole: 'view' }] });
    for (const name of ['scratch', 'keep']) l.request(ADMIN, configMap(name));
    expect(l.request('dev', deleteConfigMap('scratch')).code).toBe(403);
    expect(l.request('dev', deleteConfigMap('keep')).code).toBe(403);
    grantDelete(l, ['scratch']);
    expect(l.request('dev', deleteConfigMap('keep')).code).toBe(403);
    expect(l.request('dev', deleteConfigMap('scratch')).code).toBe(200);
  });

  it('should give every name the same answer when no resourceNames rule covers the request', () => {
    const l = createLab({ seed: 7, users: [{ name: 'dev', token: 't-dev', clusterRole: 'view' }] });
    for (const name of ['a', 'b']) l.request(ADMIN, configMap(name));
    grantDelete(l, []);
    expect(l.request('dev', deleteConfigMap('a')).code).toBe(200);
    expect(l.request('dev', deleteConfigMap('b')).code).toBe(200);
  });
});
