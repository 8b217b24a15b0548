import { describe, expect, it } from 'vitest';
import { parseCommand } from './app-model';
import { Containerd } from './containerd';

const pod = { uid: 'uid-1', name: 'p', namespace: 'default' };

function started(spec: {
  image: string;
  command?: string[];
  args?: string[];
  env?: Record<string, string>;
}): { cd: Containerd; id: string } {
  const cd = new Containerd({
    node: 'node-1',
    podCIDR: '10.244.1.0/24',
    epochMs: Date.parse('2026-01-05T09:00:00Z'),
  });
  cd.storeImage(spec.image, 0);
  const sb = cd.runPodSandbox(pod, 0);
  const c = cd.createContainer(sb.id, { name: 'app', ...spec }, 0, 0);
  cd.startContainer(c.id, 0);
  return { cd, id: c.id };
}

describe('parseCommand', () => {
  it.each([
    [['sleep', '3600'], [{ op: 'sleep', ms: 3_600_000 }]],
    [['sh', '-c', 'exit 3'], [{ op: 'exit', code: 3 }]],
    [
      ['/bin/sh', '-c', 'echo hello; sleep 5'],
      [
        { op: 'log', line: 'hello' },
        { op: 'sleep', ms: 5000 },
      ],
    ],
    [
      ['sh', '-c', 'touch /tmp/healthy && sleep 30 && rm -f /tmp/healthy'],
      [
        { op: 'touch', path: '/tmp/healthy' },
        { op: 'sleep', ms: 30_000 },
        { op: 'rm', path: '/tmp/healthy' },
      ],
    ],
  ])('should turn %j into steps', (argv, steps) => {
    expect(parseCommand(argv).steps).toEqual(steps);
  });

  it('should loop forever on `while true` bodies that sleep', () => {
    const p = parseCommand(['sh', '-c', 'while true; do echo tick; sleep 5; done']);
    expect(p.loopFrom).toBe(0);
    expect(p.steps).toEqual([
      { op: 'log', line: 'tick' },
      { op: 'sleep', ms: 5000 },
    ]);
  });
});

describe('Containerd containers', () => {
  it('should exit with the script status and keep the printed lines when the command ends', () => {
    const { cd, id } = started({
      image: 'busybox:1.36',
      command: ['sh', '-c', 'echo boom; exit 1'],
    });
    cd.advanceTo(10);
    const c = cd.get(id)!;
    expect(c).toMatchObject({ state: 'exited', exitCode: 1, reason: 'Error' });
    expect(c.logs.map((l) => l.line)).toEqual(['boom']);
  });

  it('should stay running until `sleep N` is over, then exit 0 (Completed)', () => {
    const { cd, id } = started({ image: 'busybox:1.36', command: ['sleep', '30'] });
    cd.advanceTo(29_999);
    expect(cd.get(id)!.state).toBe('running');
    expect(cd.nextEventAt()).toBe(30_000);
    cd.advanceTo(30_000);
    expect(cd.get(id)).toMatchObject({
      state: 'exited',
      exitCode: 0,
      reason: 'Completed',
      finishedAt: 30_000,
    });
  });

  it('should print a line every period when the loop echoes and sleeps', () => {
    const { cd, id } = started({
      image: 'busybox:1.36',
      command: ['sh', '-c', 'while true; do echo tick; sleep 5; done'],
    });
    cd.advanceTo(12_000);
    expect(cd.get(id)!.logs.map((l) => l.t)).toEqual([0, 5000, 10_000]);
  });

  it('should log nginx startup lines and serve / but 404 on /healthz', () => {
    const { cd, id } = started({ image: 'nginx:1.27' });
    const ip = cd.sandboxFor('uid-1')!.ip;
    expect(ip).toBe('10.244.1.2');
    expect(cd.get(id)!.logs[0]!.line).toBe(
      '/docker-entrypoint.sh: /docker-entrypoint.d/ is not empty, will attempt to perform configuration',
    );
    expect(
      cd
        .get(id)!
        .logs.some((l) => l.line === '2026/01/05 09:00:00 [notice] 1#1: start worker processes'),
    ).toBe(true);
    expect(
      cd.http(ip, 80, '/', 1000, { clientIp: '10.244.1.1', userAgent: 'kube-probe/1.32' }),
    ).toMatchObject({ ok: true, status: 200 });
    expect(
      cd.http(ip, 80, '/healthz', 1000, { clientIp: '10.244.1.1', userAgent: 'kube-probe/1.32' }),
    ).toMatchObject({ ok: true, status: 404 });
    expect(cd.http(ip, 8080, '/', 1000, { clientIp: '10.244.1.1', userAgent: 'curl' })).toEqual({
      ok: false,
      error: 'dial tcp 10.244.1.2:8080: connect: connection refused',
    });
    expect(cd.get(id)!.logs.at(-1)!.line).toBe(
      '10.244.1.1 - - [05/Jan/2026:09:00:01 +0000] "GET /healthz HTTP/1.1" 404 153 "-" "kube-probe/1.32" "-"',
    );
  });

  it.each([
    [{ FAIL_READINESS: 'true' }, 'readiness', 0, 503],
    [{ FAIL_LIVENESS_AFTER: '30' }, 'liveness', 29_000, 200],
    [{ FAIL_LIVENESS_AFTER: '30' }, 'liveness', 30_000, 500],
  ] as const)('should answer %j %s probes at %d ms with %d', (env, probe, at, status) => {
    const { cd } = started({ image: 'nginx:1.27', env: { ...env } });
    expect(
      cd.http('10.244.1.2', 80, '/', at, { clientIp: 'x', userAgent: 'kube-probe/1.32', probe }),
    ).toMatchObject({ status });
  });

  it('should refuse connections until STARTUP_DELAY_SECONDS has passed', () => {
    const { cd } = started({ image: 'nginx:1.27', env: { STARTUP_DELAY_SECONDS: '20' } });
    expect(cd.tcp('10.244.1.2', 80, 19_000).ok).toBe(false);
    expect(cd.tcp('10.244.1.2', 80, 20_000).ok).toBe(true);
  });

  it('should answer exec probes from the files the script touched and removed', () => {
    const { cd, id } = started({
      image: 'busybox:1.36',
      command: ['sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
    });
    expect(cd.exec(id, ['cat', '/tmp/healthy'], 10_000).ok).toBe(true);
    expect(cd.exec(id, ['cat', '/tmp/healthy'], 31_000)).toEqual({
      ok: false,
      output: "cat: can't open '/tmp/healthy': No such file or directory",
    });
  });

  it('should exit nginx at once with 0 but SIGKILL a shell after the grace period when stopped', () => {
    const a = started({ image: 'nginx:1.27' });
    expect(a.cd.stopContainer(a.id, 5_000, 30_000)).toBe(5_100);
    a.cd.advanceTo(5_100);
    expect(a.cd.get(a.id)).toMatchObject({ state: 'exited', exitCode: 0 });
    const b = started({ image: 'busybox:1.36', command: ['sleep', '3600'] });
    expect(b.cd.stopContainer(b.id, 5_000, 30_000)).toBe(35_000);
    b.cd.advanceTo(35_000);
    expect(b.cd.get(b.id)).toMatchObject({ state: 'exited', exitCode: 137, reason: 'Error' });
  });

  it('should give current and previous logs, and say so when there is no previous container', () => {
    const { cd, id } = started({
      image: 'busybox:1.36',
      command: ['sh', '-c', 'echo first; exit 1'],
    });
    cd.advanceTo(1);
    const c2 = cd.createContainer(
      cd.get(id)!.sandboxId,
      { name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo second; sleep 60'] },
      1,
      10,
    );
    cd.startContainer(c2.id, 10);
    const cur = cd.podContainerLogs('default', 'p', 'app');
    const prev = cd.podContainerLogs('default', 'p', 'app', true);
    expect(cur.ok && cur.lines.map((l) => l.line)).toEqual(['second']);
    expect(prev.ok && prev.lines.map((l) => l.line)).toEqual(['first']);
    expect(cd.podContainerLogs('default', 'p', 'nope', true)).toEqual({
      ok: false,
      message: 'previous terminated container "nope" in pod "p" not found',
    });
  });

  it('should make a crashloop image print and exit 1 after two seconds', () => {
    const { cd, id } = started({ image: 'kubejourney/crashloop:1.0' });
    cd.advanceTo(2_000);
    expect(cd.get(id)).toMatchObject({ state: 'exited', exitCode: 1 });
  });

  it('should hand out sandbox IPs in order and reuse none that is in use', () => {
    const cd = new Containerd({ node: 'n', podCIDR: '10.244.2.0/24', epochMs: 0 });
    const ips = [1, 2, 3].map(
      (i) => cd.runPodSandbox({ uid: `u${i}`, name: `p${i}`, namespace: 'd' }, 0).ip,
    );
    expect(ips).toEqual(['10.244.2.2', '10.244.2.3', '10.244.2.4']);
  });
});

describe('Containerd snapshots', () => {
  /** What toJSON must equal at any moment: the whole store, copied now. */
  function fresh(cd: Containerd): unknown {
    return JSON.parse(
      JSON.stringify({
        images: cd['images'],
        sandboxes: cd['sandboxes'],
        containers: cd['containers'],
        lastIp: cd['lastIp'],
      }),
    );
  }

  it('should hand out the same frozen snapshot until a container, sandbox or image changes', () => {
    const { cd } = started({ image: 'nginx:1.27' });
    cd.advanceTo(1_000);
    const first = cd.toJSON();
    expect(Object.isFrozen(first)).toBe(true);
    cd.advanceTo(60_000); // nginx serves: nothing moves
    expect(cd.toJSON()).toBe(first);
    cd.http('10.244.1.2', 80, '/', 61_000, { clientIp: '10.244.1.1', userAgent: 'curl/8.5.0' });
    expect(cd.toJSON()).not.toBe(first);
    expect(cd.toJSON()).toEqual(fresh(cd));
  });

  it.each([
    [
      'touches, sleeps and removes a file',
      ['sh', '-c', 'touch /tmp/ok; sleep 7; rm -f /tmp/ok; sleep 3600'],
    ],
    ['sleeps and exits', ['sh', '-c', 'sleep 4; exit 2']],
    ['loops without a word', ['sh', '-c', 'while true; do sleep 2; done']],
  ])('should see every step of a lone program that %s', (_what, command) => {
    const { cd } = started({ image: 'busybox:1.36', command });
    for (let t = 0; t <= 12_000; t += 500) {
      cd.advanceTo(t);
      expect(cd.toJSON()).toEqual(fresh(cd));
    }
  });

  it('should never hand out a stale snapshot while containers log, sleep, crash, stop and go', () => {
    const cd = new Containerd({
      node: 'node-1',
      podCIDR: '10.244.1.0/24',
      epochMs: Date.parse('2026-01-05T09:00:00Z'),
    });
    const check = (): void => expect(cd.toJSON()).toEqual(fresh(cd));
    const programs = [
      { image: 'nginx:1.27' },
      { image: 'busybox:1.36', command: ['sh', '-c', 'while true; do echo tick; sleep 3; done'] },
      { image: 'busybox:1.36', command: ['sh', '-c', 'touch /tmp/ok; sleep 7; rm -f /tmp/ok'] },
      { image: 'busybox:1.36', command: ['sh', '-c', 'echo bye; exit 3'] },
      { image: 'registry.k8s.io/kube-proxy:v1.32.5' },
    ];
    const ids: string[] = [];
    programs.forEach((spec, i) => {
      cd.storeImage(spec.image, 0);
      check();
      const sb = cd.runPodSandbox({ uid: `uid-${i}`, name: `p${i}`, namespace: 'default' }, 0);
      check();
      const c = cd.createContainer(sb.id, { name: 'app', ...spec }, 0, 0);
      check();
      cd.startContainer(c.id, 0);
      check();
      ids.push(c.id);
    });
    for (let t = 0; t <= 20_000; t += 250) {
      cd.advanceTo(t);
      check();
      if (t === 5_000) cd.exec(ids[2] as string, ['cat', '/tmp/ok'], t);
      if (t === 9_000) cd.stopContainer(ids[1] as string, t, 30_000);
      if (t === 12_000) cd.removeContainer(ids[3] as string);
      if (t === 15_000) cd.stopPodSandbox(cd.listSandboxes()[0]?.id as string);
      if (t === 16_000) cd.removePodSandbox(cd.listSandboxes()[2]?.id as string);
      if (t === 17_000) cd.removeImage('busybox:1.36');
      check();
    }
  });
});
