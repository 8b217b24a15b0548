import type { TLabCheckResponse, TScenarioListResponse } from '@kubejourney/contracts';
import type { TApiFailure } from './api-client.util';

// The exercise pane's pure parts: which objectives are met after a check, and the inline code
// (`kubectl describe pod`) inside briefs and hints.

export type TScenarioSummary = TScenarioListResponse['scenarios'][number];
export type TLocalizedText = TScenarioSummary['title'];

export type TObjectiveStatus = 'unchecked' | 'passed' | 'failed';

export type TObjectiveState = {
  id: string;
  text: TLocalizedText;
  points: number;
  status: TObjectiveStatus;
  hint: TLocalizedText | null;
};

/**
 * The scenario's objectives in their own order, each with the verdict of the latest check. The
 * check's own objectives win where both know one (the server graded them), and an objective only
 * the check knows is still shown, so nothing the server graded is hidden from the learner.
 */
export function mergeObjectiveResults(
  objectives: TScenarioSummary['objectives'],
  check: TLabCheckResponse | null,
): TObjectiveState[] {
  const graded = new Map((check?.objectives ?? []).map((o) => [o.id, o]));
  const listed = objectives.map((objective): TObjectiveState => {
    const result = graded.get(objective.id);
    if (!result) return { ...objective, status: 'unchecked', hint: null };
    return {
      id: objective.id,
      text: result.text,
      points: result.points,
      status: result.passed ? 'passed' : 'failed',
      hint: result.passed ? null : result.hint,
    };
  });
  const known = new Set(objectives.map((o) => o.id));
  const extra = (check?.objectives ?? [])
    .filter((o) => !known.has(o.id))
    .map((o): TObjectiveState => ({
      id: o.id,
      text: o.text,
      points: o.points,
      status: o.passed ? 'passed' : 'failed',
      hint: o.passed ? null : o.hint,
    }));
  return [...listed, ...extra];
}

export type TInlineSegment = { kind: 'text' | 'code'; value: string };

/** Splits `a `b` c` into text and code segments; an unpaired backtick stays as text. */
export function splitInlineCode(text: string): TInlineSegment[] {
  const segments: TInlineSegment[] = [];
  const pattern = /`([^`]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    if (start > last) segments.push({ kind: 'text', value: text.slice(last, start) });
    segments.push({ kind: 'code', value: match[1] });
    last = start + match[0].length;
  }
  if (last < text.length) segments.push({ kind: 'text', value: text.slice(last) });
  return segments;
}

/** 429 LIMIT_REACHED on create: the API's message says how many labs and what to do. */
export function readLimitReached(error: TApiFailure): string | null {
  return error.kind === 'api' && error.code === 'LIMIT_REACHED' ? error.message : null;
}

/**
 * Inline code a learner can send to the prompt: a command line, not a name such as `Pending`.
 * A heredoc or a pipe is left to be read, not typed in one click.
 */
export function isTypeableCommand(code: string): boolean {
  return /^(kubectl|ssh|systemctl|journalctl|crictl|cat|ls)\s\S/.test(code) && !/[<|]/.test(code);
}
