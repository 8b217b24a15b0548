import type { TBlock, TQuizQuestion, TRichText, TSection } from './chapter.schema';

// Authoring helpers. Chapters are written with backticks for code spans because that is how
// people type; these helpers turn them into structured inline runs at module load, so the data
// the UI receives never contains Markdown.

type THost = 'control-plane' | 'node-1';

/** `a \`b\` c` -> [text a, code b, text c]. An unmatched backtick is a data error. */
export function rich(source: string): TRichText {
  const parts = source.split('`');
  if (parts.length % 2 === 0) throw new Error(`unbalanced backtick in: ${source}`);
  const runs = parts.flatMap((text, index) => {
    if (text === '') return [];
    return [{ kind: index % 2 === 1 ? ('code' as const) : ('text' as const), text }];
  });
  if (runs.length === 0) throw new Error('empty rich text');
  return runs;
}

export const section = (id: string, heading: string, ...blocks: TBlock[]): TSection => ({
  id,
  heading,
  blocks,
});

export const p = (id: string, text: string): TBlock => ({
  id,
  kind: 'paragraph',
  text: rich(text),
});

export const list = (id: string, ordered: boolean, ...items: string[]): TBlock => ({
  id,
  kind: 'list',
  ordered,
  items: items.map(rich),
});

const callout =
  (tone: 'note' | 'tip' | 'warning') =>
  (id: string, title: string, ...body: string[]): TBlock => ({
    id,
    kind: 'callout',
    tone,
    title,
    body: body.map(rich),
  });
export const note = callout('note');
export const tip = callout('tip');
export const warning = callout('warning');

export const cmd = (id: string, caption: string, host: THost, ...commands: string[]): TBlock => ({
  id,
  kind: 'command',
  caption: rich(caption),
  host,
  commands,
});

export const table = (
  id: string,
  caption: string,
  columns: string[],
  ...rows: string[][]
): TBlock => ({ id, kind: 'table', caption, columns, rows: rows.map((row) => row.map(rich)) });

export const tryIt = (
  id: string,
  task: string,
  host: THost,
  commands: string[],
  expect: string,
): TBlock => ({ id, kind: 'try', task: rich(task), host, commands, expect: rich(expect) });

export const handoff = (id: string, receives: string, decides: string, writes: string): TBlock => ({
  id,
  kind: 'handoff',
  receives: rich(receives),
  decides: rich(decides),
  writes: rich(writes),
});

export const quiz = (
  id: string,
  prompt: string,
  choices: [string, string][],
  answer: string,
  explanation: string,
): TQuizQuestion => ({
  id,
  prompt: rich(prompt),
  choices: choices.map(([choiceId, text]) => ({ id: choiceId, text: rich(text) })),
  answer,
  explanation: rich(explanation),
});
