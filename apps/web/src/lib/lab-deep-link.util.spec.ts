import type { TLabSummary } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import {
  buildLabHref,
  buildOpenLabHref,
  parseLabDeepLink,
  parseTypedCommand,
  pickLabForChapter,
} from './lab-deep-link.util';

const lab = (overrides: Partial<TLabSummary>): TLabSummary => ({
  id: 'lab-1',
  kind: 'sandbox',
  scenarioId: null,
  status: 'active',
  revision: 1,
  simTimeMs: 0,
  createdAt: '2026-12-01T10:00:00.000Z',
  lastActiveAt: '2026-12-01T10:00:00.000Z',
  ...overrides,
});

describe('parseTypedCommand', () => {
  it.each([
    ['kubectl get pods', 'kubectl get pods'],
    [['kubectl get nodes', 'ls'], 'kubectl get nodes'],
    [
      'kubectl patch deployment my-app -p \'{"spec":{}}\'',
      'kubectl patch deployment my-app -p \'{"spec":{}}\'',
    ],
    [undefined, undefined],
    ['', undefined],
    ['   ', undefined],
    ['kubectl get pods\r', undefined],
    ['kubectl get pods\nrm -rf /', undefined],
    ['\x1b[2Jkubectl', undefined],
    ['ls\u0085', undefined],
    ['x'.repeat(501), undefined],
  ])('should read %o as %o', (value, expected) => {
    expect(parseTypedCommand(value)).toBe(expected);
  });
});

describe('parseLabDeepLink', () => {
  it('should keep a known chapter and a command when both are well formed', () => {
    expect(
      parseLabDeepLink({ chapter: 'kube-scheduler', type: 'kubectl get pods -o wide' }),
    ).toEqual({ chapter: 'kube-scheduler', type: 'kubectl get pods -o wide' });
  });

  it('should drop a chapter that is not on the line when the slug is unknown', () => {
    expect(parseLabDeepLink({ chapter: 'kube-dns' })).toEqual({});
  });

  it('should drop a command that would press Enter when it ends in a newline', () => {
    expect(parseLabDeepLink({ chapter: 'etcd', type: 'kubectl delete pods --all\n' })).toEqual({
      chapter: 'etcd',
    });
  });
});

describe('lab links', () => {
  it('should put chapter and command in the query when both are given', () => {
    expect(buildLabHref('abc', { chapter: 'etcd', type: 'kubectl get pods -o wide' })).toBe(
      '/labs/abc?chapter=etcd&type=kubectl+get+pods+-o+wide',
    );
  });

  it('should round-trip a command with quotes and braces when parsed back', () => {
    const type = `kubectl patch deployment my-app -p '{"spec":{"template":null}}'`;
    const href = buildOpenLabHref({ chapter: 'kube-scheduler', type });
    const params = Object.fromEntries(new URL(href, 'http://x').searchParams);
    expect(href.startsWith('/labs/open?')).toBe(true);
    expect(parseLabDeepLink(params)).toEqual({ chapter: 'kube-scheduler', type });
  });

  it('should have no query when nothing is given', () => {
    expect(buildLabHref('a b')).toBe('/labs/a%20b');
    expect(buildOpenLabHref()).toBe('/labs/open');
  });
});

describe('pickLabForChapter', () => {
  it('should pick the most recently used active sandbox when there are several labs', () => {
    const picked = pickLabForChapter([
      lab({ id: 'old', lastActiveAt: '2026-12-01T08:00:00.000Z' }),
      lab({ id: 'sleeping', status: 'hibernated', lastActiveAt: '2026-12-02T08:00:00.000Z' }),
      lab({ id: 'recent', lastActiveAt: '2026-12-01T09:00:00.000Z' }),
      lab({
        id: 'exercise',
        kind: 'scenario',
        scenarioId: 's',
        lastActiveAt: '2026-12-03T08:00:00.000Z',
      }),
    ]);
    expect(picked?.id).toBe('recent');
  });

  it('should fall back to a sleeping sandbox when none is active', () => {
    const picked = pickLabForChapter([
      lab({ id: 'a', status: 'hibernated', lastActiveAt: '2026-12-01T08:00:00.000Z' }),
      lab({ id: 'b', status: 'hibernated', lastActiveAt: '2026-12-01T09:00:00.000Z' }),
    ]);
    expect(picked?.id).toBe('b');
  });

  it('should pick nothing when the learner has only exercise labs', () => {
    expect(pickLabForChapter([lab({ kind: 'scenario', scenarioId: 's' })])).toBeUndefined();
    expect(pickLabForChapter([])).toBeUndefined();
  });
});
