// The article's command examples (shared/seed), run in order against a real lab: each gives the
// output the article describes.

import { describe, expect, it } from 'vitest';
import { createLab } from '../lab';
import { createTerminal } from './terminal';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-app
spec:
  replicas: 3
  selector:
    matchLabels:
      app: my-app
  template:
    metadata:
      labels:
        app: my-app
    spec:
      containers:
      - name: app
        image: nginx:1.27
        ports:
        - containerPort: 80
        readinessProbe:
          httpGet:
            path: /
            port: 80
---
apiVersion: v1
kind: Service
metadata:
  name: my-app-svc
spec:
  selector:
    app: my-app
  ports:
  - port: 80
    targetPort: 80
`;

const ETCD_TLS =
  '--endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

describe('the article, command by command', () => {
  const lab = createLab({
    seed: 7,
    startTime: '2026-08-22T09:00:00Z',
    users: [{ name: 'jane', token: 'jane-token', clusterRole: 'view' }],
  });
  const t = createTerminal(lab, { files: { 'deployment.yaml': DEPLOYMENT } });
  const run = (line: string) => t.exec(line);

  it('should answer apply with "deployment.apps/my-app created" when the Deployment is new', () => {
    const r = run('kubectl apply -f deployment.yaml');
    expect(r.stdout).toBe('deployment.apps/my-app created\nservice/my-app-svc created\n');
    expect(r.exitCode).toBe(0);
  });

  it(
    'should show three Pending pods right after the apply, then three Running within two seconds',
    { timeout: 30_000 },
    () => {
      lab.advance(60);
      const pending = run('kubectl get pods');
      const rows = pending.stdout.trim().split('\n');
      expect(rows[0]).toMatch(/^NAME {22}READY {3}STATUS {4,}RESTARTS {3}AGE$/);
      expect(rows.slice(1)).toHaveLength(3);
      for (const row of rows.slice(1))
        expect(row).toMatch(
          /^my-app-[bcdfghjklmnpqrstvwxz2456789]{8,10}-[bcdfghjklmnpqrstvwxz2456789]{5}\s+0\/1\s+(Pending|ContainerCreating)\s+0\s+0s$/,
        );
      expect(rows.slice(1).some((r) => /Pending/.test(r))).toBe(true);
      lab.advance(1940);
      const running = run('kubectl get pods');
      const after = running.stdout.trim().split('\n').slice(1);
      expect(after).toHaveLength(3);
      for (const row of after) expect(row).toMatch(/\s1\/1\s+Running\s+0\s+2s$/);
    },
  );

  it('should print the POST and its JSON body when apply runs with -v=8', () => {
    run('kubectl delete deployment my-app --wait=false');
    const r = run('kubectl apply -f deployment.yaml -v=8');
    expect(r.stderr).toMatch(
      /round_trippers\.go:\d+\] POST https:\/\/172\.18\.0\.2:6443\/apis\/apps\/v1\/namespaces\/default\/deployments\?fieldManager=kubectl-client-side-apply&fieldValidation=Strict\n/,
    );
    expect(r.stderr).toContain(
      '"Request Body" body="{\\"apiVersion\\":\\"apps/v1\\",\\"kind\\":\\"Deployment\\"',
    );
    expect(r.stdout).toContain('deployment.apps/my-app created');
  });

  it('should start the journey on the learner machine: kubectl sends the POST the apiserver then authenticates', () => {
    run('kubectl delete deployment my-app --wait=false');
    const since = lab.trace().at(-1)?.seq ?? 0;
    run('kubectl apply -f deployment.yaml');
    const events = lab.trace(since);
    const post = events.find(
      (e) =>
        e.component === 'kubectl' && e.message.startsWith('POST ') && e.object?.name === 'my-app',
    );
    expect(post?.message).toBe(
      'POST https://172.18.0.2:6443/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-client-side-apply&fieldValidation=Strict as kubernetes-admin, the manifest sent as JSON',
    );
    expect(post?.causedBy).toBeUndefined();
    const next = events.find((e) => e.causedBy === post?.seq);
    expect(next).toMatchObject({ component: 'kube-apiserver', verb: 'authenticate' });
    // kubectl runs outside the cluster: it is never a watcher and never writes to etcd itself
    expect(
      events.filter((e) => e.component === 'kubectl').every((e) => e.verb === 'http-request'),
    ).toBe(true);
  });

  it('should list the ReplicaSet and the rollout history', () => {
    lab.advance(2000);
    expect(run('kubectl get rs').stdout).toMatch(
      /^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\nmy-app-\S+\s+3\s+3\s+3\s+2s\n$/,
    );
    expect(run('kubectl rollout history deployment/my-app').stdout).toBe(
      'deployment.apps/my-app \nREVISION  CHANGE-CAUSE\n1         <none>\n\n',
    );
  });

  it('should answer "yes" to auth can-i for the admin and "no" (exit 1) for a user without rights', () => {
    const yes = run('kubectl auth can-i create deployments --namespace default');
    expect([yes.stdout, yes.exitCode]).toEqual(['yes\n', 0]);
    expect(run('kubectl auth can-i delete nodes').stdout).toBe('yes\n');
    const no = run('kubectl auth can-i create deployments --as=jane');
    expect([no.stdout, no.exitCode]).toEqual(['no\n', 1]);
    const denied = run('kubectl --context=jane@kubernetes delete deployment my-app');
    expect(denied.stderr).toBe(
      'Error from server (Forbidden): deployments.apps "my-app" is forbidden: User "jane" cannot delete resource "deployments" in API group "apps" in the namespace "default"\n',
    );
    expect(denied.exitCode).toBe(1);
  });

  it('should show the Service endpoints once pods are ready, and an empty ENDPOINTS cell when none is', () => {
    const ready = run('kubectl get endpoints my-app-svc');
    expect(ready.stdout).toMatch(
      /^NAME\s+ENDPOINTS\s+AGE\nmy-app-svc\s+10\.244\.\d+\.\d+:80,10\.244\.\d+\.\d+:80,10\.244\.\d+\.\d+:80\s+\d+s\n$/,
    );
    run('kubectl scale deployment my-app --replicas=0');
    lab.advance(3000);
    const empty = run('kubectl get endpoints my-app-svc');
    expect(empty.stdout).toMatch(/^NAME\s+ENDPOINTS\s+AGE\nmy-app-svc\s+(<none>)?\s*\d+s\n$/);
    run('kubectl scale deployment my-app --replicas=3');
    lab.advance(2500);
  });

  it('should serve the same pods through kubectl proxy and curl as kubectl get -o json', () => {
    expect(run('kubectl proxy --port=8080 &').stdout).toBe(
      '[1] 4201\nStarting to serve on 127.0.0.1:8080\n',
    );
    const viaCurl = JSON.parse(
      run('curl http://localhost:8080/api/v1/namespaces/default/pods').stdout,
    );
    const viaGet = JSON.parse(run('kubectl get pods -o json').stdout);
    expect(viaCurl.kind).toBe('PodList');
    expect(viaCurl.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(
      viaGet.items.map((p: { metadata: { name: string } }) => p.metadata.name),
    );
  });

  it('should save, inspect and restore an etcd snapshot with the article commands', () => {
    run('mkdir -p /backup');
    const save = run(
      `ETCDCTL_API=3 etcdctl snapshot save /backup/etcd-snapshot-$(date +%F).db \\\n  ${ETCD_TLS.split(' ').join(' \\\n  ')}`,
    );
    expect(save.stdout).toBe('Snapshot saved at /backup/etcd-snapshot-2026-08-22.db\n');
    expect(save.exitCode).toBe(0);
    const status = run(
      'ETCDCTL_API=3 etcdctl snapshot status /backup/etcd-snapshot-2026-08-22.db --write-out=table',
    );
    expect(status.stderr).toBe('Deprecated: Use `etcdutl snapshot status` instead.\n\n');
    expect(status.stdout).toMatch(
      /^\+----------\+----------\+------------\+------------\+\n\| {3}HASH {3}\| REVISION \| TOTAL KEYS \| TOTAL SIZE \|\n\+----------\+----------\+------------\+------------\+\n\| [0-9a-f]{8} \|\s+\d+ \|\s+\d+ \|\s+[\d.]+ [kM]B \|\n\+-+\+-+\+-+\+-+\+\n$/,
    );
    const restore = run(
      'ETCDCTL_API=3 etcdctl snapshot restore /backup/etcd-snapshot-2026-08-22.db \\\n  --data-dir=/var/lib/etcd-restored',
    );
    expect(restore.exitCode).toBe(0);
    expect(restore.stderr).toContain('restored snapshot');
    expect(run('ls /var/lib/etcd-restored/member').stdout).toBe('snap  wal\n');
  });

  it('should show a Secret value readable in etcd when encryption at rest is off', () => {
    run('kubectl create secret generic my-secret --from-literal=password=s3cr3t');
    const r = run(`ETCDCTL_API=3 etcdctl get /registry/secrets/default/my-secret ${ETCD_TLS}`);
    expect(r.stdout.split('\n')[0]).toBe('/registry/secrets/default/my-secret');
    expect(r.stdout).toContain('s3cr3t');
    expect(
      run('kubectl get secret my-secret -o jsonpath={.data.password} | base64 -d').stdout,
    ).toBe('s3cr3t');
  });

  it('should point describe at the scheduler when a pod cannot be placed', () => {
    run('kubectl create deployment big --image=nginx:1.27');
    run(
      `kubectl patch deployment big -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","resources":{"requests":{"cpu":"64"}}}]}}}}'`,
    );
    lab.advance(2000);
    const pod = run(
      'kubectl get pods -l app=big -o jsonpath=\'{.items[?(@.status.phase=="Pending")].metadata.name}\'',
    ).stdout.split(' ')[0];
    const d = run(`kubectl describe pod ${pod}`);
    expect(d.stdout).toMatch(
      /Warning\s+FailedScheduling\s+.*0\/4 nodes are available: .*Insufficient cpu/,
    );
  });
});
