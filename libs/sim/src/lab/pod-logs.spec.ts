// `kubectl logs` for containers that have not started: the kubelet answers with the waiting
// reason from the pod status (validateContainerLogStatus), not a fixed ContainerCreating.

import { describe, expect, it } from 'vitest';
import { createTerminal } from '../cli/terminal';
import type { Pod } from '../model';
import { createLab } from './lab';

function createPod(lab: ReturnType<typeof createLab>, spec: Partial<Pod['spec']>): void {
  const res = lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'pods',
    namespace: 'default',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default' },
      spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
    },
  });
  expect(res.code, JSON.stringify(res.body)).toBe(201);
}

describe('kubectl logs before a container starts', { timeout: 60_000 }, () => {
  it('should say PodInitializing for an app container behind a running init container', () => {
    const lab = createLab({ seed: 4 });
    lab.advance(1_000);
    createPod(lab, {
      initContainers: [
        { name: 'wait', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'] },
      ],
    });
    lab.advance(10_000);
    const pod = lab.peek('pods', 'default', 'p') as Pod;
    expect(pod.status?.initContainerStatuses?.[0]?.state.running).toBeDefined();
    const out = createTerminal(lab).exec('kubectl logs p -c app');
    expect(out.stderr).toBe(
      'Error from server (BadRequest): container "app" in pod "p" is waiting to start: PodInitializing\n',
    );
    expect(out.stdout).toBe('');
  });

  it('should say the image cannot be pulled while the pull back-off runs', () => {
    const lab = createLab({ seed: 4 });
    lab.advance(1_000);
    createPod(lab, { containers: [{ name: 'app', image: 'nginx:does-not-exist' }] });
    lab.advance(60_000);
    const reason = (lab.peek('pods', 'default', 'p') as Pod).status?.containerStatuses?.[0]?.state
      .waiting?.reason;
    expect(reason).toBe('ImagePullBackOff');
    const out = createTerminal(lab).exec('kubectl logs p');
    expect(out.stderr).toBe(
      'Error from server (BadRequest): container "app" in pod "p" is waiting to start: trying and failing to pull image\n',
    );
  });
});
