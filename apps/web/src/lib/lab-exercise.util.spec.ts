import type { TLabCheckResponse } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import {
  isTypeableCommand,
  mergeObjectiveResults,
  readLimitReached,
  splitInlineCode,
  type TScenarioSummary,
} from './lab-exercise.util';

const text = (en: string) => ({ en, 'zh-TW': `中文 ${en}` });

const OBJECTIVES: TScenarioSummary['objectives'] = [
  { id: 'service-endpoints', text: text('Service web has endpoints'), points: 7 },
  { id: 'web-ready', text: text('The web pods stay ready'), points: 3 },
];

function checkOf(
  objectives: TLabCheckResponse['objectives'],
  overrides: Partial<TLabCheckResponse> = {},
): TLabCheckResponse {
  const score = objectives.filter((o) => o.passed).reduce((sum, o) => sum + o.points, 0);
  const maxScore = objectives.reduce((sum, o) => sum + o.points, 0);
  return {
    attempt: 1,
    passed: score === maxScore,
    score,
    maxScore,
    simTimeMs: 42_000,
    objectives,
    ...overrides,
  };
}

describe('mergeObjectiveResults', () => {
  it('should mark every objective unchecked when there is no check yet', () => {
    expect(mergeObjectiveResults(OBJECTIVES, null)).toEqual([
      { ...OBJECTIVES[0], status: 'unchecked', hint: null },
      { ...OBJECTIVES[1], status: 'unchecked', hint: null },
    ]);
  });

  it('should keep the hint of an objective not met and drop it for one met when checked', () => {
    const hint = text('Compare the selector with the labels.');
    const merged = mergeObjectiveResults(
      OBJECTIVES,
      checkOf([
        { ...OBJECTIVES[0], passed: false, hint },
        { ...OBJECTIVES[1], passed: true, hint: null },
      ]),
    );
    expect(merged.map((o) => [o.id, o.status, o.hint])).toEqual([
      ['service-endpoints', 'failed', hint],
      ['web-ready', 'passed', null],
    ]);
  });

  it('should keep the scenario order when the check lists objectives in another order', () => {
    const merged = mergeObjectiveResults(
      OBJECTIVES,
      checkOf([
        { ...OBJECTIVES[1], passed: true, hint: null },
        { ...OBJECTIVES[0], passed: true, hint: null },
      ]),
    );
    expect(merged.map((o) => o.id)).toEqual(['service-endpoints', 'web-ready']);
  });

  it('should show an objective only the check knows when the scenario list is older', () => {
    const extra = { id: 'new-one', text: text('Something new'), points: 2 };
    const merged = mergeObjectiveResults(
      OBJECTIVES.slice(0, 1),
      checkOf([
        { ...OBJECTIVES[0], passed: true, hint: null },
        { ...extra, passed: false, hint: text('Look closer.') },
      ]),
    );
    expect(merged.map((o) => [o.id, o.status])).toEqual([
      ['service-endpoints', 'passed'],
      ['new-one', 'failed'],
    ]);
  });

  it('should leave an objective unchecked when the check did not grade it', () => {
    const merged = mergeObjectiveResults(
      OBJECTIVES,
      checkOf([{ ...OBJECTIVES[0], passed: true, hint: null }]),
    );
    expect(merged.map((o) => o.status)).toEqual(['passed', 'unchecked']);
  });
});

describe('splitInlineCode', () => {
  it.each([
    ['plain text', [{ kind: 'text', value: 'plain text' }]],
    [
      'Run `kubectl get pods` now.',
      [
        { kind: 'text', value: 'Run ' },
        { kind: 'code', value: 'kubectl get pods' },
        { kind: 'text', value: ' now.' },
      ],
    ],
    [
      '`ssh node-2` then `systemctl status kubelet`',
      [
        { kind: 'code', value: 'ssh node-2' },
        { kind: 'text', value: ' then ' },
        { kind: 'code', value: 'systemctl status kubelet' },
      ],
    ],
    ['an unpaired ` backtick', [{ kind: 'text', value: 'an unpaired ` backtick' }]],
    ['', []],
  ])('should split "%s" into its segments', (input, expected) => {
    expect(splitInlineCode(input)).toEqual(expected);
  });
});

describe('readLimitReached', () => {
  it('should return the API message when the lab limit is reached', () => {
    expect(
      readLimitReached({
        kind: 'api',
        status: 429,
        code: 'LIMIT_REACHED',
        message: 'You already have 3 labs.',
      }),
    ).toBe('You already have 3 labs.');
  });

  it.each([
    [{ kind: 'api', status: 429, code: 'RATE_LIMITED', message: 'slow down' }],
    [{ kind: 'network' }],
    [{ kind: 'unexpected', status: 502 }],
  ] as const)('should return null when the failure is %o', (error) => {
    expect(readLimitReached(error)).toBeNull();
  });
});

describe('isTypeableCommand', () => {
  it.each([
    ['kubectl describe pod', true],
    ['kubectl set image deployment/web nginx=nginx:1.27', true],
    ['ssh node-2', true],
    ['systemctl status kubelet', true],
    ['kubectl', false],
    ['Pending', false],
    ['dedicated=gpu:NoSchedule', false],
    ["cat <<'EOF' | kubectl apply -f -", false],
    ['kubectl get pods | grep web', false],
  ])('should say %s is typeable: %s', (code, expected) => {
    expect(isTypeableCommand(code)).toBe(expected);
  });
});
