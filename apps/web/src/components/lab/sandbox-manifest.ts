// The sandbox's one file: the Deployment (and its Service) the journey follows. nginx:1.27 is in
// the simulated registry and answers the readiness probe, so three Pods become Ready.

export const SANDBOX_MANIFEST_PATH = 'deployment.yaml';

export const SANDBOX_MANIFEST = `apiVersion: apps/v1
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
            periodSeconds: 5
---
apiVersion: v1
kind: Service
metadata:
  name: my-app
spec:
  selector:
    app: my-app
  ports:
    - port: 80
      targetPort: 80
`;

export const SANDBOX_COMMANDS = {
  apply: `kubectl apply -f ${SANDBOX_MANIFEST_PATH}`,
  watch: 'kubectl get pods -w',
  describe: 'kubectl describe pod ',
  endpoints: 'kubectl get endpoints my-app',
} as const;
