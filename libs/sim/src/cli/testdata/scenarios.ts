// The command sequences behind the golden transcripts (one scenario per verb group).

import type { LabOptions } from '../../lab/lab-types';

export interface Scenario {
  name: string;
  lab?: LabOptions;
  files?: Record<string, string>;
  /** a command line, or a number of simulated ms to let pass */
  steps: (string | number)[];
}

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
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
  name: web
spec:
  selector:
    app: web
  ports:
  - port: 80
    targetPort: 80
`;

const BAD = {
  'no-kind.yaml': 'apiVersion: v1\nmetadata:\n  name: x\n',
  'broken.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   bad: indent\n',
  'unknown.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n',
  'invalid.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: neg\nspec:\n  replicas: -1\n  selector:\n    matchLabels:\n      app: neg\n  template:\n    metadata:\n      labels:\n        app: neg\n    spec:\n      containers:\n      - name: app\n        image: nginx:1.27\n',
};

export const SCENARIOS: Scenario[] = [
  {
    name: 'get',
    files: { 'web.yaml': DEPLOY },
    steps: [
      'kubectl get',
      'kubectl get foo',
      'kubectl get nodes',
      1000,
      'kubectl get pods',
      'kubectl get pods -n kube-system',
      'kubectl get nodes',
      'kubectl get no -o wide',
      'kubectl apply -f web.yaml',
      2500,
      'kubectl get pods -o wide',
      'kubectl get po --show-labels',
      'kubectl get deploy,rs,svc',
      'kubectl get all',
      'kubectl get svc -o wide',
      'kubectl get ep',
      'kubectl get endpointslices',
      'kubectl get pods -A',
      'kubectl get ns',
      'kubectl get sa',
      'kubectl get cm -A',
      'kubectl get leases -n kube-node-lease',
      'kubectl get deploy web -o name',
      'kubectl get pods -o jsonpath=\'{range .items[*]}{.metadata.name}{"\\t"}{.status.podIP}{"\\n"}{end}\'',
      'kubectl get deploy web -o jsonpath={.spec.template.spec.containers[0].image}',
      'kubectl get pod nope',
      'kubectl get pods -l app=nope',
      'kubectl get nodes -l nope=1',
      'kubectl get pods -A -l app=nope',
      'kubectl get clusterrolebindings cluster-admin',
      'kubectl get ns default -o yaml',
      'kubectl get svc kubernetes -o json',
      'kubectl get pods -o xml',
      'kubectl scale deployment web --replicas=3',
      'kubectl get pods -w',
    ],
  },
  {
    name: 'apply-create',
    files: { 'web.yaml': DEPLOY, ...BAD },
    steps: [
      'kubectl apply -f web.yaml --dry-run=client',
      'kubectl apply -f web.yaml --dry-run=server',
      'kubectl apply -f web.yaml',
      'kubectl apply -f web.yaml',
      "sed -i 's/replicas: 2/replicas: 4/' web.yaml",
      'grep replicas web.yaml',
      'kubectl apply -f web.yaml',
      'kubectl apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: dev\nEOF',
      'kubectl apply -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: prod\nEOF',
      'kubectl apply --server-side -f - <<EOF\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "1"\nEOF',
      'kubectl create -f web.yaml',
      'kubectl apply -f no-kind.yaml',
      'kubectl apply -f broken.yaml',
      'kubectl apply -f unknown.yaml',
      'kubectl apply -f invalid.yaml',
      'kubectl apply -f missing.yaml',
      'kubectl apply',
      'kubectl create deployment api --image=nginx:1.27 --replicas=2 --port=80',
      'kubectl create deployment api2',
      'kubectl create deployment dry --image=busybox:1.36 --dry-run=client -o yaml',
      'kubectl create namespace team-a',
      'kubectl create ns team-a',
      'kubectl create secret generic db --from-literal=user=admin --from-literal=password=s3cr3t',
      'kubectl get secret db -o jsonpath={.data.password} | base64 -d',
      'kubectl create configmap app-config --from-literal=LOG_LEVEL=debug',
      'kubectl create role pod-reader --verb=get,list,watch --resource=pods',
      'kubectl create rolebinding read-pods --role=pod-reader --user=jane',
      'kubectl create clusterrole node-reader --verb=get,list --resource=nodes',
      'kubectl create clusterrolebinding read-nodes --clusterrole=node-reader --group=ops',
      'kubectl create serviceaccount ci',
      'kubectl create job once --image=busybox:1.36 -- echo hello',
      'kubectl create service clusterip api --tcp=80:8080',
      'kubectl create widget x',
      'kubectl get role,rolebinding',
      'kubectl get rolebinding read-pods -o wide',
    ],
  },
  {
    name: 'describe',
    files: { 'web.yaml': DEPLOY },
    steps: [
      'kubectl apply -f web.yaml',
      2500,
      'kubectl describe deployment web',
      'kubectl describe rs',
      'kubectl describe pods -l app=web | head -60',
      'kubectl describe svc web',
      'kubectl describe endpoints web',
      'kubectl describe node node-1 | head -40',
      'kubectl describe pod nope',
      'kubectl describe',
    ],
  },
  {
    name: 'modify',
    files: { 'web.yaml': DEPLOY },
    steps: [
      'kubectl apply -f web.yaml',
      2500,
      'kubectl scale deployment web --replicas=3',
      'kubectl scale deployment web',
      'kubectl label deployment web tier=frontend',
      'kubectl label deployment web tier=backend',
      'kubectl label deployment web tier=backend --overwrite',
      'kubectl label deployment web tier-',
      'kubectl annotate deployment web owner=team-a',
      `kubectl patch deployment web -p '{"spec":{"revisionHistoryLimit":5}}'`,
      `kubectl patch deployment web --type=merge -p '{"metadata":{"labels":{"patched":"yes"}}}'`,
      `kubectl patch deployment web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":2}]'`,
      `kubectl patch deployment web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":2}]'`,
      'kubectl set image deployment/web app=nginx:1.26',
      'kubectl set image deployment/web nope=nginx:1.26',
      'kubectl rollout status deployment/web',
      'kubectl rollout history deployment/web',
      'kubectl rollout undo deployment/web',
      'kubectl rollout status deployment/web',
      'kubectl rollout undo deployment/web --to-revision=3',
      'kubectl rollout restart deployment/web',
      'kubectl cordon node-1',
      'kubectl cordon node-1',
      'kubectl get nodes',
      'kubectl uncordon node-1',
      'kubectl taint nodes node-2 dedicated=gpu:NoSchedule',
      'kubectl taint nodes node-2 dedicated=gpu:NoSchedule',
      'kubectl taint nodes node-2 dedicated:NoSchedule-',
      'kubectl taint nodes node-2 dedicated:NoSchedule-',
      'kubectl delete pod nope',
      'kubectl delete deployment',
      'kubectl delete deployment web --grace-period=5',
      'kubectl delete svc web',
      'kubectl get deploy,svc',
    ],
  },
  {
    name: 'logs-exec',
    files: { 'web.yaml': DEPLOY },
    steps: [
      'kubectl apply -f web.yaml',
      'kubectl run x --image=nginx',
      3000,
      'kubectl logs deployment/web',
      'kubectl logs deploy/web --tail=2',
      'kubectl logs nope',
      'kubectl logs deploy/web --previous',
      'kubectl exec deploy/web -- cat /etc/hostname',
      'kubectl exec deploy/web -- wget -qO- web',
      'kubectl exec deploy/web -- wget -qO- nope',
      'kubectl exec deploy/web cat /etc/hostname',
      'kubectl exec deploy/web -- env | grep -E "^(WEB|KUBERNETES)_SERVICE"',
    ],
  },
  {
    name: 'auth-config-info',
    lab: { users: [{ name: 'jane', token: 'jane-token', clusterRole: 'view' }] },
    steps: [
      'kubectl auth can-i create deployments --namespace default',
      'kubectl auth can-i create deployments --as=jane',
      'kubectl auth can-i list pods --as=jane',
      'kubectl auth can-i get nodes -n default',
      'kubectl auth can-i',
      'kubectl config current-context',
      'kubectl config get-contexts',
      'kubectl config view',
      'kubectl config use-context jane@kubernetes',
      'kubectl get pods',
      'kubectl create ns nope',
      'kubectl config use-context kubernetes-admin@kubernetes',
      'kubectl config use-context nope',
      'kubectl version',
      'kubectl cluster-info',
      'kubectl api-resources',
      'kubectl explain deployments.spec.replicas',
      'kubectl get ns -v=6',
      'kubectl get ns default -v=8',
      'kubectl foo',
      'kubectl gte pods',
    ],
  },
  {
    name: 'etcd-node',
    files: { 'web.yaml': DEPLOY },
    steps: [
      'kubectl apply -f web.yaml',
      2500,
      'export TLS="--endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key"',
      'etcdctl $TLS member list',
      'etcdctl $TLS member list -w table',
      'etcdctl $TLS endpoint health',
      'etcdctl $TLS endpoint health -w table',
      'etcdctl $TLS endpoint status --cluster -w table',
      'etcdctl $TLS get /registry/deployments --prefix --keys-only',
      'etcdctl $TLS put /demo hello',
      'etcdctl $TLS get /demo',
      'etcdctl $TLS del /demo',
      'etcdctl get /registry/namespaces/default --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt',
      'etcdctl $TLS --cacert=/nope.crt get /x',
      'ls /etc/kubernetes/manifests',
      'mv /etc/kubernetes/manifests/kube-scheduler.yaml /tmp/',
      'kubectl scale deployment web --replicas=3',
      1000,
      'kubectl get pods',
      'mv /tmp/kube-scheduler.yaml /etc/kubernetes/manifests/',
      1000,
      'kubectl get pods',
      'crictl ps | head -3',
      'export IP=$(kubectl get svc web -o jsonpath={.spec.clusterIP} 2>/dev/null)',
      'curl -s $IP | head -4',
      'ssh node-1',
      'kubectl get nodes',
      'crictl pods | head -2',
      'crictl images',
      'systemctl status kubelet',
      'systemctl stop kubelet',
      'systemctl status kubelet',
      'systemctl start kubelet',
      'journalctl -u kubelet -n 3',
      'iptables -t nat -L KUBE-SERVICES -n',
      'iptables-save -t nat | grep -c KUBE-SEP',
      'curl -s $IP | grep title',
      'etcdctl member list',
      'exit',
      'hostname',
      'ssh node-9',
    ],
  },
];
