import type { TBlock, TChapter, TRichText } from './chapter.schema';

// Walks a chapter for what a test or a word counter needs: its prose (without code spans, which
// must match real commands and output verbatim) and the command lines it asks the learner to run.

const prose = (text: TRichText): string[] =>
  text.flatMap((run) => (run.kind === 'text' ? [run.text] : []));

function blockProse(block: TBlock): string[] {
  switch (block.kind) {
    case 'paragraph':
      return prose(block.text);
    case 'list':
      return block.items.flatMap(prose);
    case 'callout':
      return [block.title, ...block.body.flatMap(prose)];
    case 'command':
      return prose(block.caption);
    case 'table':
      return [block.caption, ...block.columns, ...block.rows.flat().flatMap(prose)];
    case 'try':
      return [...prose(block.task), ...prose(block.expect)];
    case 'handoff':
      return [...prose(block.receives), ...prose(block.decides), ...prose(block.writes)];
  }
}

/** Every prose fragment of a chapter, in reading order (code spans and commands left out). */
export function listProse(chapter: TChapter): string[] {
  return [
    chapter.lede,
    ...chapter.sections.flatMap((s) => [s.heading, ...s.blocks.flatMap(blockProse)]),
    ...chapter.quiz.flatMap((q) => [
      ...prose(q.prompt),
      ...q.choices.flatMap((c) => prose(c.text)),
      ...prose(q.explanation),
    ]),
  ];
}

/** The command lines of a chapter's command and try blocks, in order. */
export function listCommands(chapter: TChapter): string[] {
  return chapter.sections.flatMap((s) =>
    s.blocks.flatMap((b) => (b.kind === 'command' || b.kind === 'try' ? b.commands : [])),
  );
}

/**
 * Words as ICU segments them (Intl.Segmenter): dictionary-based for Chinese, so a zh-TW chapter
 * is measured in words rather than characters and both locales share one limit.
 */
export function countWords(chapter: TChapter): number {
  const segmenter = new Intl.Segmenter(chapter.locale, { granularity: 'word' });
  let words = 0;
  for (const text of listProse(chapter)) {
    for (const segment of segmenter.segment(text)) if (segment.isWordLike) words += 1;
  }
  return words;
}
