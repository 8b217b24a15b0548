import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LOCALES } from '@kubejourney/contracts';
import { faultTolerance, quorumSize } from '@kubejourney/sim';
import { describe, expect, it } from 'vitest';
import { METRO_LINE } from '../course/metro-line.data';
import { CHAPTER_SLUGS, ZChapter, type TBlock, type TChapter } from './chapter.schema';
import { CHAPTERS, findChapter, getChapter } from './chapters.data';
import { checkCommand } from './command-allow-list.util';
import { countWords, listCommands, listProse } from './chapter-text.util';
import { findCopiedFragments, indexArticle } from './originality.util';

const all = LOCALES.flatMap((locale) =>
  CHAPTERS[locale].map((c) => [`${c.slug} (${locale})`, c] as const),
);

/** The skeleton both locales must share: ids, block kinds, hosts, commands, quiz answers. */
function skeleton(chapter: TChapter) {
  const blockShape = (b: TBlock) => {
    const base = `${b.id}:${b.kind}`;
    if (b.kind === 'command' || b.kind === 'try')
      return `${base}@${b.host}[${b.commands.join(' ⏎ ')}]`;
    if (b.kind === 'table') return `${base}:${b.columns.length}x${b.rows.length}`;
    if (b.kind === 'list') return `${base}:${b.items.length}`;
    if (b.kind === 'callout') return `${base}:${b.tone}:${b.body.length}`;
    return base;
  };
  return {
    sections: chapter.sections.map((s) => ({ id: s.id, blocks: s.blocks.map(blockShape) })),
    quiz: chapter.quiz.map((q) => `${q.id}:${q.choices.map((c) => c.id).join('')}=${q.answer}`),
  };
}

describe('CHAPTERS', () => {
  it.each(all)('should pass the chapter schema when %s is parsed', (_name, chapter) => {
    const result = ZChapter.safeParse(chapter);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it.each(LOCALES)(
    'should have one chapter per metro stop, in line order, when the locale is %s',
    (locale) => {
      expect(CHAPTERS[locale].map((c) => c.slug)).toEqual(METRO_LINE.stops.map((s) => s.id));
      expect(CHAPTERS[locale].map((c) => c.slug)).toEqual([...CHAPTER_SLUGS]);
      for (const chapter of CHAPTERS[locale]) expect(chapter.locale).toBe(locale);
    },
  );

  it.each(CHAPTER_SLUGS)(
    'should give zh-TW and en the same skeleton when the chapter is %s',
    (slug) => {
      expect(skeleton(getChapter(slug, 'zh-TW'))).toEqual(skeleton(getChapter(slug, 'en')));
    },
  );

  it.each(all)(
    'should have a command block and a quiz when the chapter is %s',
    (_name, chapter) => {
      const kinds = chapter.sections.flatMap((s) => s.blocks.map((b) => b.kind));
      expect(kinds).toContain('command');
      expect(chapter.quiz.length).toBeGreaterThanOrEqual(2);
      expect(chapter.quiz.length).toBeLessThanOrEqual(4);
    },
  );

  it.each(all)(
    'should describe the handoff exactly once when %s is a station',
    (_name, chapter) => {
      const handoffs = chapter.sections.flatMap((s) =>
        s.blocks.filter((b) => b.kind === 'handoff'),
      );
      const isStation = chapter.slug !== 'prologue' && chapter.slug !== 'recap';
      expect(handoffs.length).toBe(isStation ? 1 : 0);
    },
  );

  it.each(all)('should keep %s between 400 and 900 words', (_name, chapter) => {
    const words = countWords(chapter);
    expect(words).toBeGreaterThanOrEqual(400);
    expect(words).toBeLessThanOrEqual(900);
  });

  it.each(all)(
    'should only ask for commands the lab supports when %s is read',
    (_name, chapter) => {
      const problems = listCommands(chapter).flatMap((line) => {
        const problem = checkCommand(line);
        return problem ? [`${line}: ${problem}`] : [];
      });
      expect(problems).toEqual([]);
    },
  );

  it.each(all)(
    'should return from every ssh before the block ends when %s is read',
    (_name, chapter) => {
      // A clicked block must leave the shell where the next block expects it (the block's host).
      for (const block of chapter.sections.flatMap((s) => s.blocks)) {
        if (block.kind !== 'command' && block.kind !== 'try') continue;
        const sshIn = block.commands.filter((c) => c.startsWith('ssh ')).length;
        const sshOut = block.commands.filter((c) => c === 'exit').length;
        expect([block.id, sshIn - sshOut]).toEqual([block.id, 0]);
      }
    },
  );

  it.each(all)('should not use Markdown syntax inside prose when %s is read', (_name, chapter) => {
    for (const text of listProse(chapter)) expect(text).not.toMatch(/\*\*|__|\]\(|^#+ /);
  });

  it('should find chapters by slug and locale when asked', () => {
    expect(findChapter('etcd', 'en')?.slug).toBe('etcd');
    expect(findChapter('nowhere', 'en')).toBeUndefined();
    expect(() => getChapter('etcd' as never, 'zh-TW')).not.toThrow();
  });
});

// In CI the shared folder sits beside the clone (../shared); locally it may be elsewhere or absent.
const ARTICLE = resolve(__dirname, '../../../../../shared/seed/000_a272a37a5ba42d8c.txt');
const hasArticle = existsSync(ARTICLE);

describe.skipIf(!hasArticle)('originality against the source article', () => {
  const index = hasArticle ? indexArticle(readFileSync(ARTICLE, 'utf8')) : indexArticle('');

  it.each(all)(
    'should copy no 12-character Chinese or 8-word English run when %s is read',
    (_name, chapter) => {
      const copied = listProse(chapter).flatMap((text) => findCopiedFragments(text, index));
      expect(copied).toEqual([]);
    },
  );

  it('should flag a sentence lifted from the article when one is planted', () => {
    const article = readFileSync(ARTICLE, 'utf8');
    const sentence =
      article.split('\n').find((line) => line.includes('宣告式（declarative）')) ?? '';
    expect(sentence.length).toBeGreaterThan(12);
    expect(findCopiedFragments(`我們說：${sentence}`, index).length).toBeGreaterThan(0);
  });
});

describe('the etcd quorum table', () => {
  it.each(LOCALES)(
    'should match the simulator’s quorum arithmetic when the locale is %s',
    (locale) => {
      const block = getChapter('etcd', locale)
        .sections.flatMap((s) => s.blocks)
        .find((b) => b.id === 'quorum-table');
      if (block?.kind !== 'table') throw new Error('etcd chapter lost its quorum table');
      const numbers = block.rows.map((row) => row.slice(0, 3).map((cell) => Number(cell[0]?.text)));
      expect(numbers).toEqual(
        [1, 2, 3, 4, 5, 6, 7].map((n) => [n, quorumSize(n), faultTolerance(n)]),
      );
    },
  );
});
