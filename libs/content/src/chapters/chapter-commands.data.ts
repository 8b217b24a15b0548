// Command lines shared by both locales, so the zh-TW and English chapters send the learner's
// terminal exactly the same text. They assume the files in CHAPTER_LAB_FILES sit in /root.

/** etcdctl in the lab checks TLS like a kubeadm control plane does: these flags are required. */
const ETCD = [
  'etcdctl',
  '--endpoints=https://127.0.0.1:2379',
  '--cacert=/etc/kubernetes/pki/etcd/ca.crt',
  '--cert=/etc/kubernetes/pki/etcd/server.crt',
  '--key=/etc/kubernetes/pki/etcd/server.key',
].join(' ');

export const CMD = {
  apply: 'kubectl apply -f deployment.yaml',
  applyVerbose: 'kubectl apply -f deployment.yaml -v=8',
  applyService: 'kubectl apply -f service.yaml',
  getPods: 'kubectl get pods',
  getPodsWide: 'kubectl get pods -o wide',
  getPodsJson: 'kubectl get pods -o json',
  getDeployments: 'kubectl get deployments',
  getRs: 'kubectl get rs',
  getNodes: 'kubectl get nodes',
  getEndpoints: 'kubectl get endpoints my-app-svc',
  getService: 'kubectl get service my-app-svc',
  describePods: 'kubectl describe pod -l app=my-app',
  describeNode1: 'kubectl describe node node-1',
  deletePods: 'kubectl delete pod -l app=my-app',
  proxy: 'kubectl proxy --port=8080 &',
  curlPods: 'curl http://localhost:8080/api/v1/namespaces/default/pods',
  canCreateDeployments: 'kubectl auth can-i create deployments --namespace default',
  canDeleteNodes: 'kubectl auth can-i delete nodes',
  scale2: 'kubectl scale deployment/my-app --replicas=2',
  scale0: 'kubectl scale deployment/my-app --replicas=0',
  scale3: 'kubectl scale deployment/my-app --replicas=3',
  setImage: 'kubectl set image deployment/my-app app=nginx:1.28',
  rolloutHistory: 'kubectl rollout history deployment/my-app',
  rolloutUndo: 'kubectl rollout undo deployment/my-app',
  requireSsd:
    'kubectl patch deployment my-app -p \'{"spec":{"template":{"spec":{"nodeSelector":{"disktype":"ssd"}}}}}\'',
  // a null in a merge patch deletes the field
  dropSsd:
    'kubectl patch deployment my-app -p \'{"spec":{"template":{"spec":{"nodeSelector":null}}}}\'',
  labelSsd: 'kubectl label node node-2 disktype=ssd',
  createSecret: 'kubectl create secret generic my-secret --from-literal=password=s3cr3t',
  stopApiserver: 'mv /etc/kubernetes/manifests/kube-apiserver.yaml /root/',
  startApiserver: 'mv /root/kube-apiserver.yaml /etc/kubernetes/manifests/',
  sshNode1: 'ssh node-1',
  exit: 'exit',
  crictlPs: 'crictl ps',
  stopKubelet: 'systemctl stop kubelet',
  startKubelet: 'systemctl start kubelet',
  kubeletLog: 'journalctl -u kubelet',
  stopKubeProxy: 'systemctl stop kube-proxy',
  startKubeProxy: 'systemctl start kube-proxy',
  iptablesSave: 'iptables-save',
  catDeployment: 'cat deployment.yaml',
  etcdMembers: `${ETCD} member list -w table`,
  etcdHealth: `${ETCD} endpoint health -w table`,
  etcdKeys: `${ETCD} get /registry/ --prefix --keys-only`,
  etcdDeployment: `${ETCD} get /registry/deployments/default/my-app --keys-only`,
  etcdSecret: `${ETCD} get /registry/secrets/default/my-secret`,
  etcdSnapshotSave: `${ETCD} snapshot save /root/etcd-backup.db`,
  etcdSnapshotStatus: 'etcdctl snapshot status /root/etcd-backup.db -w table',
  etcdSnapshotRestore:
    'etcdctl snapshot restore /root/etcd-backup.db --data-dir=/var/lib/etcd-restored',
} as const;

/**
 * The files the chapters' commands expect in /root on the control-plane node. The lab view should
 * write them (Terminal.writeFile) when it opens a chapter lab.
 */
export const CHAPTER_LAB_FILES: Readonly<Record<string, string>> = {
  'deployment.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-app
  labels:
    app: my-app
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
          resources:
            requests:
              cpu: 100m
              memory: 64Mi
          readinessProbe:
            httpGet:
              path: /
              port: 80
            periodSeconds: 5
          livenessProbe:
            httpGet:
              path: /
              port: 80
            periodSeconds: 10
`,
  'service.yaml': `apiVersion: v1
kind: Service
metadata:
  name: my-app-svc
spec:
  selector:
    app: my-app
  ports:
    - port: 80
      targetPort: 80
`,
};
