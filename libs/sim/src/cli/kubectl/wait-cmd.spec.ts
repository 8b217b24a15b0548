import { describe, expect, it } from 'vitest';
import { createLab } from '../../lab';
import type { SimLab } from '../../lab';
import { createTerminal } from '../terminal';

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: solo
spec:
  nodeName: node-1
  containers:
  - name: app
    image: nginx:1.27
`;

function kubectlRequests(lab: SimLab, sinceSeq: number): string[] {
  return lab
    .trace(sinceSeq)
    .filter((e) => e.component === 'kubectl' && e.verb === 'http-request')
    .map((e) => e.message.replace(/ as .*$/, ''));
}

describe('kubectl wait', () => {
  it('should send one GET, one LIST and no request per step when it waits for a condition', () => {
    const lab = createLab({ seed: 7 });
    lab.advance(1_000);
    const term = createTerminal(lab, { files: { 'pod.yaml': POD } });
    term.exec('kubectl apply -f pod.yaml');
    const seq = lab.trace().at(-1)?.seq ?? 0;
    const started = lab.now;
    const r = term.exec('kubectl wait --for=condition=Ready pod/solo --timeout=60s -v=6');
    expect(r.stdout).toBe('pod/solo condition met\n');
    expect(r.exitCode).toBe(0);
    // the pod needs a few seconds (sandbox, start): many 500 ms steps, still two requests
    expect(lab.now - started).toBeGreaterThanOrEqual(1_000);
    expect(kubectlRequests(lab, seq)).toEqual([
      'GET https://172.18.0.2:6443/api/v1/namespaces/default/pods/solo',
      'GET https://172.18.0.2:6443/api/v1/namespaces/default/pods?fieldSelector=metadata.name%3Dsolo&limit=500',
    ]);
    const lines = r.stderr.split('\n').filter((l) => l.includes('round_trippers'));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('pods?fieldSelector=metadata.name%3Dsolo&limit=500 200 OK');
  });

  it('should notice the deletion through the watch when the object goes away', () => {
    const lab = createLab({ seed: 7 });
    lab.advance(1_000);
    const term = createTerminal(lab, { files: { 'pod.yaml': POD } });
    term.exec('kubectl apply -f pod.yaml');
    lab.advance(5_000);
    term.exec('kubectl delete pod solo --wait=false');
    const seq = lab.trace().at(-1)?.seq ?? 0;
    const r = term.exec('kubectl wait --for=delete pod/solo --timeout=60s');
    expect(r.stdout).toBe('pod/solo condition met\n');
    expect(lab.peek('pods', 'default', 'solo')).toBeUndefined();
    // builder GET, the deletion waiter's GET, the informer's LIST
    expect(kubectlRequests(lab, seq)).toHaveLength(3);
  });

  it('should poll with a GET every 500 ms when it waits for creation', () => {
    const lab = createLab({ seed: 7 });
    lab.advance(1_000);
    const term = createTerminal(lab);
    const seq = lab.trace().at(-1)?.seq ?? 0;
    const r = term.exec('kubectl wait --for=create pod/later --timeout=2s');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('error: timed out waiting for the condition\n');
    expect(kubectlRequests(lab, seq).length).toBeGreaterThanOrEqual(4);
  });
});
