// What kubectl prints for pods with init containers and sidecars: the STATUS / READY / RESTARTS
// cells of `get pods` (printPod), the "Init Containers:" section of `describe pod` (printed before
// "Containers:", as describeContainers does) and `logs -c <init container>`.

import { describe, expect, it } from 'vitest';
import { createTerminal } from '..';
import type { SimLab } from '../../lab/lab';
import { createLab } from '../../lab/lab';
import type { Container, ContainerStatus, Pod } from '../../model';
import { rfc1123z } from './describe-text';

const LAB_TEST_TIMEOUT_MS = 60_000;

function setup(initContainers: Container[]) {
  const lab = createLab({ seed: 5 });
  const t = createTerminal(lab, { letTimePass: false });
  lab.advance(1_000);
  const res = lab.request('kubernetes-admin', {
    verb: 'create',
    resource: 'pods',
    namespace: 'default',
    body: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        nodeName: 'node-1',
        initContainers,
        containers: [{ name: 'app', image: 'nginx:1.27' }],
      },
    },
  });
  expect(res.code).toBe(201);
  const run = (c: string) => {
    const r = t.exec(c);
    expect(r.exitCode, r.stderr).toBe(0);
    return r;
  };
  const pod = () => lab.peek('pods', 'default', 'web') as Pod;
  const initStatus = (i: number) => pod().status?.initContainerStatuses?.[i] as ContainerStatus;
  return { lab, t, run, pod, initStatus };
}

function waitFor(lab: SimLab, cond: () => boolean, limitMs: number, step = 50): void {
  const start = lab.now;
  while (!cond()) {
    if (lab.now - start > limitMs) throw new Error(`condition not met within ${limitMs} ms`);
    lab.advance(step);
  }
}

/** The text between two section titles of `kubectl describe`. */
function section(text: string, from: string, to: string): string {
  return text.slice(text.indexOf(from), text.indexOf(to));
}

const sh = (name: string, script: string): Container => ({
  name,
  image: 'busybox:1.36',
  command: ['sh', '-c', script],
});

describe('kubectl and init containers', { timeout: LAB_TEST_TIMEOUT_MS }, () => {
  it('should print Init:0/2, Init:1/2, PodInitializing and Running in the STATUS column as the pod initializes', () => {
    const { lab, run, pod, initStatus } = setup([
      sh('init-1', 'echo first done; sleep 2'),
      sh('init-2', 'sleep 2'),
    ]);
    const row = () => run('kubectl get pods --no-headers').stdout.replace(/ +\d+s\n$/, '');
    waitFor(lab, () => initStatus(0)?.state.running !== undefined, 10_000, 20);
    expect(run('kubectl get pods').stdout).toMatch(
      /^NAME {3}READY {3}STATUS {5}RESTARTS {3}AGE\nweb {4}0\/1 {5}Init:0\/2 {3}0 {10}\d+s\n$/,
    );
    waitFor(lab, () => initStatus(1)?.state.running !== undefined, 10_000, 20);
    expect(row()).toBe('web   0/1   Init:1/2   0');
    waitFor(lab, () => initStatus(1)?.state.terminated !== undefined, 10_000, 20);
    expect(row()).toBe('web   0/1   PodInitializing   0');
    waitFor(lab, () => pod().status?.containerStatuses?.[0]?.ready === true, 10_000, 20);
    expect(row()).toBe('web   1/1   Running   0');
  });

  it('should describe the init containers in an "Init Containers:" section before "Containers:"', () => {
    const { lab, run, pod, initStatus } = setup([
      sh('init-1', 'echo first done; sleep 2'),
      { name: 'proxy', image: 'nginx:1.27', restartPolicy: 'Always' },
    ]);
    waitFor(lab, () => pod().status?.containerStatuses?.[0]?.ready === true, 20_000);
    const text = run('kubectl describe pod web').stdout;
    expect(text.indexOf('Init Containers:\n')).toBeGreaterThan(text.indexOf('IPs:'));
    expect(text.indexOf('Init Containers:\n')).toBeLessThan(text.indexOf('\nContainers:\n'));
    const first = initStatus(0);
    const proxy = initStatus(1);
    // the ServiceAccount admission plugin mounts the token into init containers as well
    const token = pod().spec.volumes?.find((v) => v.name.startsWith('kube-api-access-'))?.name;
    expect(section(text, 'Init Containers:', '\nContainers:')).toBe(
      'Init Containers:\n' +
        '  init-1:\n' +
        `    Container ID:  ${first.containerID}\n` +
        '    Image:         busybox:1.36\n' +
        `    Image ID:      ${first.imageID}\n` +
        '    Port:          <none>\n' +
        '    Host Port:     <none>\n' +
        '    Command:\n' +
        '      sh\n' +
        '      -c\n' +
        '      echo first done; sleep 2\n' +
        '    State:          Terminated\n' +
        '      Reason:       Completed\n' +
        '      Exit Code:    0\n' +
        `      Started:      ${rfc1123z(first.state.terminated?.startedAt)}\n` +
        `      Finished:     ${rfc1123z(first.state.terminated?.finishedAt)}\n` +
        '    Ready:          True\n' +
        '    Restart Count:  0\n' +
        '    Environment:    <none>\n' +
        '    Mounts:\n' +
        `      /var/run/secrets/kubernetes.io/serviceaccount from ${token} (ro)\n` +
        '  proxy:\n' +
        `    Container ID:   ${proxy.containerID}\n` +
        '    Image:          nginx:1.27\n' +
        `    Image ID:       ${proxy.imageID}\n` +
        '    Port:           <none>\n' +
        '    Host Port:      <none>\n' +
        '    State:          Running\n' +
        `      Started:      ${rfc1123z(proxy.state.running?.startedAt)}\n` +
        '    Ready:          True\n' +
        '    Restart Count:  0\n' +
        '    Environment:    <none>\n' +
        '    Mounts:\n' +
        `      /var/run/secrets/kubernetes.io/serviceaccount from ${token} (ro)`,
    );
    expect(text).toMatch(/\nStatus: +Running\n/);
    expect(text).toMatch(/\n {2}Initialized +True \n/);
    expect(run('kubectl get pods --no-headers').stdout).toMatch(/^web {3}2\/2 {3}Running {3}0 /);
  });

  it('should describe a crash-looping init container as Waiting with its Last State', () => {
    const { lab, run, initStatus } = setup([sh('migrate', 'echo cannot migrate; exit 2')]);
    waitFor(lab, () => initStatus(0)?.state.waiting?.reason === 'CrashLoopBackOff', 20_000);
    const last = initStatus(0).lastState.terminated;
    const text = run('kubectl describe pod web').stdout;
    expect(section(text, '    State:', '    Environment:')).toBe(
      '    State:          Waiting\n' +
        '      Reason:       CrashLoopBackOff\n' +
        '    Last State:     Terminated\n' +
        '      Reason:       Error\n' +
        '      Exit Code:    2\n' +
        `      Started:      ${rfc1123z(last?.startedAt)}\n` +
        `      Finished:     ${rfc1123z(last?.finishedAt)}\n` +
        '    Ready:          False\n' +
        '    Restart Count:  1\n',
    );
    expect(section(text, 'Containers:\n  app:', 'Conditions:')).toContain(
      '    State:          Waiting\n      Reason:       PodInitializing\n',
    );
    expect(text).toMatch(/\n {2}Initialized +False \n/);
    expect(text).toMatch(
      /\n {2}Warning +BackOff +\d+s +kubelet +Back-off restarting failed container migrate in pod web_default\(/,
    );
    expect(run('kubectl get pods --no-headers').stdout).toMatch(
      /^web {3}0\/1 {3}Init:CrashLoopBackOff {3}1 \(\d+s ago\) {3}\d+s\n$/,
    );
  });

  it('should print the logs of an init container with -c and name the init containers when defaulting', () => {
    const { lab, t, run, initStatus } = setup([sh('init-1', 'echo first done; sleep 1')]);
    waitFor(lab, () => initStatus(0)?.state.terminated !== undefined, 10_000);
    expect(run('kubectl logs web -c init-1').stdout).toBe('first done\n');
    lab.advance(5_000);
    const defaulted = t.exec('kubectl logs web');
    expect(defaulted.stderr).toBe('Defaulted container "app" out of: app, init-1 (init)\n');
  });
});
