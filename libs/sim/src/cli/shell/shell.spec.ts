import { describe, expect, it } from 'vitest';
import { Shell } from './shell';
import { shellCommands } from './shell-commands';
import { MemoryFs } from './vfs';

function makeShell() {
  let now = Date.parse('2026-08-22T09:00:00Z');
  const fs = new MemoryFs({ '/root/app.yaml': 'kind: Deployment\nname: my-app\n' });
  const shell = new Shell({
    commands: shellCommands({ nowWallMs: () => now, sleep: (ms) => (now += ms) }),
    session: { host: 'control-plane', user: 'root', cwd: '/root', home: '/root', fs },
  });
  return { shell, fs };
}

describe('Shell', () => {
  it.each<[string, string, string, number]>([
    ['echo hello world', 'hello world\n', '', 0],
    ['echo \'a  b\' "c  d"', 'a  b c  d\n', '', 0],
    ['echo a && echo b', 'a\nb\n', '', 0],
    ['false && echo b', '', '', 1],
    ['false || echo b', 'b\n', '', 0],
    ['echo a; echo b', 'a\nb\n', '', 0],
    ['foo', '', 'bash: foo: command not found\n', 127],
    ['printf x | grep x', '', 'bash: printf: command not found\n', 1],
    ['echo -e "a\\nb\\nc" | grep -v b', 'a\nc\n', '', 0],
    ['echo -e "Aa\\nb" | grep -i a', 'Aa\n', '', 0],
    ['echo -e "a\\nb\\nab" | grep -c a', '2\n', '', 0],
    ['echo -e "x1\\nx22" | grep -E "x[0-9]{2}"', 'x22\n', '', 0],
    ['echo -e "1\\n2\\n3\\n4" | head -n 2', '1\n2\n', '', 0],
    ['echo -e "1\\n2\\n3\\n4" | tail -n 1', '4\n', '', 0],
    ['echo -e "1\\n2\\n3" | wc -l', '3\n', '', 0],
    ['echo -n czNjcjN0 | base64 -d', 's3cr3t', '', 0],
    ['echo -n s3cr3t | base64', 'czNjcjN0\n', '', 0],
    ['echo -e "b\\na\\nc" | sort', 'a\nb\nc\n', '', 0],
    ['echo a:b:c | cut -d: -f2', 'b\n', '', 0],
    ['echo a:b:c | cut -d : -f 1,3', 'a:c\n', '', 0],
    ['cat app.yaml | grep name', 'name: my-app\n', '', 0],
    ['cat nope.yaml', '', 'cat: nope.yaml: No such file or directory\n', 1],
    ['X=1; echo $X ${X}', '1 1\n', '', 0],
    ['echo "$(date +%F)"', '2026-08-22\n', '', 0],
    ['echo /backup/etcd-snapshot-$(date +%F).db', '/backup/etcd-snapshot-2026-08-22.db\n', '', 0],
    ['false; echo $?', '1\n', '', 0],
    ['echo "unterminated', '', 'bash: unexpected EOF while looking for matching `"\'\n', 2],
    ['| grep x', '', "bash: syntax error near unexpected token `|'\n", 2],
    ['echo a \\\n  b', 'a b\n', '', 0],
    ['# just a comment', '', '', 0],
    ['pwd', '/root\n', '', 0],
    ['cd /nope', '', 'bash: cd: /nope: No such file or directory\n', 1],
  ])('should run %j', (line, stdout, stderr, code) => {
    const { shell } = makeShell();
    const r = shell.exec(line);
    expect([r.stdout, r.stderr, r.exitCode]).toEqual([stdout, stderr, code]);
  });

  it('should write files with > and >> and read them back', () => {
    const { shell, fs } = makeShell();
    shell.exec('echo one > out.txt');
    shell.exec('echo two >> out.txt');
    expect(fs.read('/root/out.txt')).toBe('one\ntwo\n');
    expect(shell.exec('cat out.txt | wc -l').stdout).toBe('2\n');
  });

  it('should feed a heredoc body to stdin when the line has <<EOF', () => {
    const { shell } = makeShell();
    const r = shell.exec('cat <<EOF | grep kind\napiVersion: v1\nkind: Pod\nEOF');
    expect(r.stdout).toBe('kind: Pod\n');
  });

  it('should not expand variables in a quoted heredoc', () => {
    const { shell } = makeShell();
    expect(shell.exec("X=1; cat <<'EOF'\n$X\nEOF").stdout).toBe('$X\n');
    expect(shell.exec('X=1; cat <<EOF\n$X\nEOF').stdout).toBe('1\n');
  });

  it('should pass env assignments to one command only', () => {
    const { shell } = makeShell();
    shell.exec('A=3 true');
    expect(shell.exec('echo "[$A]"').stdout).toBe('[]\n');
  });

  it('should ask the UI to open the editor when vi FILE runs', () => {
    const { shell } = makeShell();
    expect(shell.exec('vi app.yaml').openEditor).toEqual({
      path: '/root/app.yaml',
      host: 'control-plane',
    });
  });

  it('should keep a numbered history and advance time with sleep', () => {
    const { shell } = makeShell();
    shell.exec('date +%T');
    shell.exec('sleep 2');
    expect(shell.exec('date +%T').stdout).toBe('09:00:02\n');
    expect(shell.exec('history').stdout).toBe(
      '    1  date +%T\n    2  sleep 2\n    3  date +%T\n    4  history\n',
    );
  });

  it('should show the prompt of the current directory', () => {
    const { shell } = makeShell();
    shell.exec('mkdir /backup && cd /backup');
    expect(shell.exec('pwd').prompt).toBe('root@control-plane:/backup# ');
  });
});
