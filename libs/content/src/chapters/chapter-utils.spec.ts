import { describe, expect, it } from 'vitest';
import { rich } from './chapter-builders.util';
import { checkCommand, splitWords } from './command-allow-list.util';
import { findCopiedFragments, indexArticle } from './originality.util';

describe('rich', () => {
  it.each<[string, string, { kind: string; text: string }[]]>([
    ['plain text', 'just words', [{ kind: 'text', text: 'just words' }]],
    [
      'a code span in the middle',
      'run `kubectl get pods` now',
      [
        { kind: 'text', text: 'run ' },
        { kind: 'code', text: 'kubectl get pods' },
        { kind: 'text', text: ' now' },
      ],
    ],
    ['only code', '`401 Unauthorized`', [{ kind: 'code', text: '401 Unauthorized' }]],
  ])('should split %s into inline runs', (_case, source, expected) => {
    expect(rich(source)).toEqual(expected);
  });

  it('should throw when a backtick is unbalanced', () => {
    expect(() => rich('a `b c')).toThrow('unbalanced backtick');
  });
});

describe('checkCommand', () => {
  it.each([
    'kubectl get pods -o wide',
    'kubectl patch deployment my-app -p \'{"spec":{}}\'',
    'kubectl proxy --port=8080 &',
    'etcdctl --endpoints=https://127.0.0.1:2379 member list -w table',
    'etcdctl snapshot restore /root/x.db --data-dir=/var/lib/etcd-restored',
    'ssh node-1',
    'systemctl stop kubelet',
    'journalctl -u kubelet',
    'curl http://localhost:8080/api/v1/namespaces/default/pods',
    'iptables-save',
  ])('should accept %s', (line) => {
    expect(checkCommand(line)).toBeNull();
  });

  it.each([
    ['an unknown tool', 'helm install x', 'not a command the lab supports'],
    ['an unsupported kubectl verb', 'kubectl expose deployment my-app', 'kubectl verb'],
    ['an etcdctl sub-command that does not exist', 'etcdctl member add x', 'etcdctl member add'],
    ['a unit the lab has no', 'systemctl stop docker', 'unit "docker"'],
    ['an unknown host', 'ssh node-9', 'unknown host'],
    ['a pipe', 'kubectl get pods | grep my-app', 'pipes'],
    ['journalctl without a unit', 'journalctl', 'journalctl needs -u'],
  ])('should reject %s', (_case, line, reason) => {
    expect(checkCommand(line)).toContain(reason);
  });

  it('should keep quoted JSON as one word when splitting', () => {
    expect(splitWords(`kubectl patch d x -p '{"a": 1}'`)).toEqual([
      'kubectl',
      'patch',
      'd',
      'x',
      '-p',
      '{"a": 1}',
    ]);
  });
});

describe('findCopiedFragments', () => {
  const index = indexArticle(
    '第一段：叢集裡的每個元件都只跟 apiserver 說話，從來不直接聯絡彼此。\nThe quick brown fox jumps over the lazy dog every single morning.',
  );

  it('should flag a twelve-character Chinese run when it appears verbatim, punctuation aside', () => {
    expect(findCopiedFragments('我覺得每個元件都只跟 apiserver 說話。', index)).not.toEqual([]);
  });

  it('should flag an eight-word English run when it appears verbatim', () => {
    const found = findCopiedFragments('Yes, the quick brown fox jumps over the lazy dog.', index);
    expect(found.map((f) => f.kind)).toContain('en');
  });

  it('should pass text that only shares short phrases when written afresh', () => {
    expect(
      findCopiedFragments('元件之間不直接聯絡，全靠 apiserver。A quick fox jumps.', index),
    ).toEqual([]);
  });
});
