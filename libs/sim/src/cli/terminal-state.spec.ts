// A terminal rebuilt from saveState() carries on where the old one stopped (the API builds one
// terminal per command and keeps this state between them).

import { describe, expect, it } from 'vitest';
import { createLab } from '../lab';
import { createTerminal } from './terminal';
import type { Terminal } from './terminal';
import type { TerminalState } from './terminal-state';

const lab = createLab({ seed: 7, startTime: '2026-08-22T09:00:00Z' });

/** Runs each line in a terminal built from the previous one's saved state. */
function runEach(lines: string[], start?: TerminalState): { t: Terminal; state: TerminalState } {
  let state = start;
  let t = createTerminal(lab, { state });
  for (const line of lines) {
    t = createTerminal(lab, { state });
    t.exec(line);
    state = t.saveState();
  }
  return { t, state: JSON.parse(JSON.stringify(state)) as TerminalState };
}

describe('terminal state', () => {
  it('should stay on node-1 when the terminal is rebuilt after ssh node-1', () => {
    const { state } = runEach(['ssh node-1']);
    const t = createTerminal(lab, { state });
    expect(t.prompt()).toBe('root@node-1:~# ');
    expect(t.exec('hostname').stdout).toBe('node-1\n');
    const exit = t.exec('exit');
    expect(exit.stdout).toBe('logout\nConnection to node-1 closed.\n');
    expect(exit.prompt).toBe('root@control-plane:~# ');
    expect(t.exec('hostname').stdout).toBe('control-plane\n');
  });

  it('should keep the working directory when the terminal is rebuilt after cd', () => {
    const { state } = runEach(['cd /etc/kubernetes']);
    const t = createTerminal(lab, { state });
    expect(t.prompt()).toBe('root@control-plane:/etc/kubernetes# ');
    expect(t.exec('pwd').stdout).toBe('/etc/kubernetes\n');
  });

  it('should keep variables, history and $? when the terminal is rebuilt', () => {
    const { state } = runEach(['export NS=kube-system', 'false']);
    const t = createTerminal(lab, { state });
    expect(t.exec('echo $?').stdout).toBe('1\n');
    expect(t.exec('echo $NS').stdout).toBe('kube-system\n');
    expect(t.exec('history').stdout).toBe(
      '    1  export NS=kube-system\n    2  false\n    3  echo $?\n    4  echo $NS\n    5  history\n',
    );
  });

  it('should serve curl localhost:8001 when kubectl proxy ran in an earlier terminal', () => {
    const { state } = runEach(['kubectl proxy &']);
    expect(state.proxyPort).toBe(8001);
    const t = createTerminal(lab, { state });
    const r = t.exec('curl -s localhost:8001/api/v1/namespaces/kube-system/pods');
    expect(r.exitCode).toBe(0);
    expect((JSON.parse(r.stdout) as { kind: string }).kind).toBe('PodList');
  });

  it('should keep only the last 200 history lines when more were typed', () => {
    const { state } = runEach(['true'], {
      sessions: [],
      env: {},
      history: Array.from({ length: 250 }, (_, i) => `echo ${i}`),
      lastExit: 0,
      proxyPort: null,
    });
    expect(state.history).toHaveLength(200);
    expect(state.history.at(0)).toBe('echo 51');
    expect(state.history.at(-1)).toBe('true');
  });

  it.each([
    [
      'an unknown host',
      [
        { host: 'control-plane', user: 'root', cwd: '/root', home: '/root' },
        { host: 'node-9', user: 'root', cwd: '/root', home: '/root' },
      ],
      'root@control-plane:~# ',
    ],
    [
      'a cwd that does not exist',
      [{ host: 'control-plane', user: 'root', cwd: '/nope', home: '/root' }],
      'root@control-plane:~# ',
    ],
    [
      'a relative cwd',
      [{ host: 'control-plane', user: 'root', cwd: 'etc', home: '/root' }],
      'root@control-plane:~# ',
    ],
    [
      'a first session on another host',
      [{ host: 'node-1', user: 'root', cwd: '/etc', home: '/root' }],
      'root@control-plane:~# ',
    ],
    [
      'a hop after an unknown one',
      [
        { host: 'control-plane', user: 'root', cwd: '/root', home: '/root' },
        { host: 'x', user: 'root', cwd: '/', home: '/root' },
        { host: 'node-1', user: 'root', cwd: '/', home: '/root' },
      ],
      'root@control-plane:~# ',
    ],
    [
      'a valid hop with a missing cwd',
      [
        { host: 'control-plane', user: 'root', cwd: '/root', home: '/root' },
        { host: 'node-1', user: 'root', cwd: '/gone', home: '/root' },
      ],
      'root@node-1:~# ',
    ],
  ])('should repair the state when it has %s', (_, sessions, prompt) => {
    const state = { sessions, env: {}, history: [], lastExit: 0, proxyPort: null };
    expect(createTerminal(lab, { state }).prompt()).toBe(prompt);
  });

  it.each([
    ['null', null],
    ['a string', 'ssh node-1'],
    [
      'wrong field types',
      { sessions: 'x', env: [], history: [1], lastExit: 'a', proxyPort: 99999 },
    ],
  ])('should start on the control plane when the state is %s', (_, state) => {
    const t = createTerminal(lab, { state: state as unknown as TerminalState });
    expect(t.prompt()).toBe('root@control-plane:~# ');
    expect(t.saveState().proxyPort).toBeNull();
    expect(t.exec('echo $?').stdout).toBe('0\n');
  });
});
