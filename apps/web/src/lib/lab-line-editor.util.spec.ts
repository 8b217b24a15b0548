import { describe, expect, it } from 'vitest';
import { completeLine } from './lab-completion.util';
import {
  browseHistory,
  deleteBackward,
  EMPTY_HISTORY,
  editorTarget,
  insertText,
  killWordBackward,
  moveCursor,
  needsMoreInput,
  pushHistory,
  writeFileCommand,
} from './lab-line-editor.util';

describe('line editing', () => {
  it('should insert and delete at the cursor when it is moved left', () => {
    let line = insertText({ buffer: '', cursor: 0 }, 'kubectl get pod');
    line = moveCursor(line, 'left');
    line = moveCursor(line, 'left');
    line = moveCursor(line, 'left');
    line = insertText(line, 'x');
    expect(line).toEqual({ buffer: 'kubectl get xpod', cursor: 13 });
    expect(deleteBackward(line)).toEqual({ buffer: 'kubectl get pod', cursor: 12 });
  });

  it('should kill the previous word when Ctrl-W is pressed', () => {
    expect(killWordBackward({ buffer: 'kubectl get pods', cursor: 16 })).toEqual({
      buffer: 'kubectl get ',
      cursor: 12,
    });
  });
});

describe('history', () => {
  it('should walk back and forward and restore the draft when browsing', () => {
    let history = pushHistory(EMPTY_HISTORY, 'kubectl get nodes');
    history = pushHistory(history, 'kubectl get pods');
    history = pushHistory(history, 'kubectl get pods'); // ignoredups
    expect(history.entries).toEqual(['kubectl get nodes', 'kubectl get pods']);
    const up1 = browseHistory(history, 'up', 'draft');
    expect(up1?.line).toBe('kubectl get pods');
    const up2 = browseHistory(up1!.history, 'up', up1!.line);
    expect(up2?.line).toBe('kubectl get nodes');
    expect(browseHistory(up2!.history, 'up', '')).toBeNull();
    const down1 = browseHistory(up2!.history, 'down', '');
    const down2 = browseHistory(down1!.history, 'down', '');
    expect(down2?.line).toBe('draft');
  });
});

describe('needsMoreInput', () => {
  it.each([
    [['kubectl get pods'], false],
    [["cat <<'EOF' | kubectl apply -f -"], true],
    [["cat <<'EOF' | kubectl apply -f -", 'kind: Pod'], true],
    [["cat <<'EOF' | kubectl apply -f -", 'kind: Pod', 'EOF'], false],
    [['cat <<-END > a.yaml', '\tx', '\tEND'], false],
    [['kubectl get \\'], true],
    [['kubectl get \\', 'pods'], false],
    [['cat <<< "here-string"'], false],
  ])('should say %j needs more input: %s', (lines, expected) => {
    expect(needsMoreInput(lines)).toBe(expected);
  });
});

describe('writeFileCommand', () => {
  it('should pick a delimiter that is not a line of the file when writing through a heredoc', () => {
    const command = writeFileCommand('deployment.yaml', 'a: 1\nKJ_EOF\n');
    expect(command).toBe("cat <<'KJ_EOF_1' > deployment.yaml\na: 1\nKJ_EOF\nKJ_EOF_1");
    expect(needsMoreInput(command.split('\n'))).toBe(false);
  });
});

describe('editorTarget', () => {
  it.each([
    ['vi deployment.yaml', 'deployment.yaml'],
    [
      'nano /etc/kubernetes/manifests/kube-scheduler.yaml',
      '/etc/kubernetes/manifests/kube-scheduler.yaml',
    ],
    ['vi', null],
    ['cat a | vi b', null],
  ])('should find the file of %s', (command, file) => {
    expect(editorTarget(command)).toBe(file);
  });
});

describe('completeLine', () => {
  const names = { pods: ['web-7f9c-abcde', 'web-7f9c-fghij'], nodes: ['node-1', 'node-2'] };
  it.each([
    ['kub', 'kubectl '],
    ['kubectl desc', 'kubectl describe '],
    ['kubectl get po', 'kubectl get pods '],
    ['kubectl describe pod web-7f9c-a', 'kubectl describe pod web-7f9c-abcde '],
    ['kubectl describe pod w', 'kubectl describe pod web-7f9c-'],
    ['ssh node-', 'ssh node-'],
  ])('should complete %j to %j', (line, completed) => {
    expect(completeLine(line, line.length, names).line).toBe(completed);
  });

  it('should list the candidates when the word is ambiguous and cannot grow', () => {
    expect(completeLine('ssh node-', 9, names).candidates).toEqual(['node-1', 'node-2']);
  });
});
