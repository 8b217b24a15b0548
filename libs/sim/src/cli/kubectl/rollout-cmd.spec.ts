import { describe, expect, it } from 'vitest';
import { createLab } from '../../lab';
import { createTerminal } from '../terminal';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
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
`;

describe('kubectl rollout undo', () => {
  it('should restore the whole previous template when a later revision added a field', () => {
    const lab = createLab({ seed: 7 });
    const term = createTerminal(lab, { files: { 'web.yaml': DEPLOYMENT } });
    expect(term.exec('kubectl apply -f web.yaml').stdout).toBe('deployment.apps/web created\n');
    lab.advance(3000);
    const patched = term.exec(
      `kubectl patch deployment web -p '{"spec":{"template":{"spec":{"nodeSelector":{"disktype":"ssd"}}}}}'`,
    );
    expect(patched.stdout).toBe('deployment.apps/web patched\n');
    lab.advance(3000);

    const undo = term.exec('kubectl rollout undo deployment/web');
    expect(undo.stdout).toBe('deployment.apps/web rolled back\n');
    const selector = term.exec(
      "kubectl get deployment web -o jsonpath='{.spec.template.spec.nodeSelector}'",
    );
    expect(selector.stdout).toBe('');
    // the deployment controller moves the old ReplicaSet to revision 3 before the next undo
    lab.advance(3000);
    expect(term.exec('kubectl rollout undo deployment/web').stdout).toBe(
      'deployment.apps/web rolled back\n',
    );
    expect(
      term.exec("kubectl get deployment web -o jsonpath='{.spec.template.spec.nodeSelector}'")
        .stdout,
    ).toBe('{"disktype":"ssd"}');
  });
});
