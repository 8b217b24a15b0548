// kubectl port-forward keeps serving after the command returns: curl localhost:PORT reaches the
// pod, also from a terminal rebuilt from saved state (the API builds one per command).

import { describe, expect, it } from 'vitest';
import { createLab } from '../lab';
import { createTerminal } from './terminal';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
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
`;

describe('port-forward', () => {
  it('should reach the pod from curl localhost when a forward runs, also after saveState', () => {
    const lab = createLab({ seed: 5 });
    lab.advance(1000);
    const t = createTerminal(lab, { files: { 'web.yaml': DEPLOY } });
    t.exec('kubectl apply -f web.yaml');
    lab.advance(5000);
    expect(t.exec('curl -s localhost:8080').exitCode).toBe(7);
    const fwd = t.exec('kubectl port-forward deploy/web 8080:80');
    expect(fwd.stdout).toBe(
      'Forwarding from 127.0.0.1:8080 -> 80\nForwarding from [::1]:8080 -> 80\n',
    );
    expect(t.exec('curl -s localhost:8080').stdout).toContain('<title>Welcome to nginx!</title>');
    const again = createTerminal(lab, { state: JSON.parse(JSON.stringify(t.saveState())) });
    expect(again.exec('curl -s 127.0.0.1:8080').stdout).toContain('Welcome to nginx!');
  });

  it('should print Handling connection on the terminal when the forward runs in the background', () => {
    const lab = createLab({ seed: 5 });
    lab.advance(1000);
    const t = createTerminal(lab, { files: { 'web.yaml': DEPLOY } });
    t.exec('kubectl apply -f web.yaml');
    lab.advance(5000);
    t.exec('kubectl port-forward deploy/web 8080:80 &');
    const r = t.exec('curl -s localhost:8080 | grep title');
    expect(r.stdout).toBe('<title>Welcome to nginx!</title>\n');
    expect(r.stderr).toBe('Handling connection for 8080\n');
  });

  it('should refuse to forward when the pod is not running', () => {
    const lab = createLab({ seed: 5 });
    lab.advance(1000);
    const t = createTerminal(lab);
    t.exec('kubectl run p --image=nginx:1.27');
    const r = t.exec('kubectl port-forward p 8080:80');
    expect(r.stderr).toBe(
      'error: unable to forward port because pod is not running. Current status=Pending\n',
    );
    expect(r.exitCode).toBe(1);
  });

  it('should drop malformed forwards when restoring a saved state', () => {
    const lab = createLab({ seed: 5 });
    const t = createTerminal(lab, {
      state: {
        sessions: [],
        env: {},
        history: [],
        lastExit: 0,
        proxyPort: null,
        portForwards: [{ localPort: 99999, namespace: 'default', pod: 'x', podPort: 80 }],
      },
    });
    expect(t.saveState().portForwards).toBeUndefined();
  });
});
