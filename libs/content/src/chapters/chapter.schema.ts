import { LOCALES, type TLocale } from '@kubejourney/contracts';
import { z } from 'zod';

// A chapter is data, not Markdown: the lab's left pane renders these blocks directly, so nothing
// in the browser has to parse text. Each locale is written on its own (so both read naturally),
// and a test holds the two to the same skeleton: same section, block and quiz ids, same commands.

const ZId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'id must be kebab-case');

/** The stops of the metro line that have a chapter (the METRO_LINE stop ids). */
export const CHAPTER_SLUGS = [
  'prologue',
  'kubectl',
  'kube-apiserver',
  'etcd',
  'controller-manager',
  'kube-scheduler',
  'kubelet',
  'kube-proxy',
  'recap',
] as const;
export const ZChapterSlug = z.enum(CHAPTER_SLUGS);
export type TChapterSlug = z.infer<typeof ZChapterSlug>;

/** A run of text: plain words, or `code` (commands, field names, output) in monospace. */
export const ZInline = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('text'), text: z.string().min(1) }),
  z.strictObject({ kind: z.literal('code'), text: z.string().min(1) }),
]);
export type TInline = z.infer<typeof ZInline>;

/** One line of rich text; never empty. */
export const ZRichText = z.array(ZInline).min(1);
export type TRichText = z.infer<typeof ZRichText>;

export const CALLOUT_TONES = ['note', 'tip', 'warning'] as const;

/** One command line the learner can click to send to the terminal (never a multi-line script). */
export const ZCommandLine = z
  .string()
  .min(1)
  .refine((line) => !line.includes('\n'), 'a command is a single line');

const ZParagraph = z.strictObject({ id: ZId, kind: z.literal('paragraph'), text: ZRichText });

const ZList = z.strictObject({
  id: ZId,
  kind: z.literal('list'),
  ordered: z.boolean(),
  items: z.array(ZRichText).min(2),
});

const ZCallout = z.strictObject({
  id: ZId,
  kind: z.literal('callout'),
  tone: z.enum(CALLOUT_TONES),
  title: z.string().min(1),
  body: z.array(ZRichText).min(1),
});

const ZCommand = z.strictObject({
  id: ZId,
  kind: z.literal('command'),
  /** what the commands are for, shown above them */
  caption: ZRichText,
  /** the machine the commands run on; `ssh` lines move the shell there first */
  host: z.enum(['control-plane', 'node-1']),
  commands: z.array(ZCommandLine).min(1),
});

const ZTable = z
  .strictObject({
    id: ZId,
    kind: z.literal('table'),
    caption: z.string().min(1),
    columns: z.array(z.string().min(1)).min(2),
    rows: z.array(z.array(ZRichText)).min(2),
  })
  .refine((t) => t.rows.every((row) => row.length === t.columns.length), {
    message: 'every row has one cell per column',
    path: ['rows'],
  });

const ZTry = z.strictObject({
  id: ZId,
  kind: z.literal('try'),
  /** what to do */
  task: ZRichText,
  host: z.enum(['control-plane', 'node-1']),
  commands: z.array(ZCommandLine).min(1),
  /** what the learner should see if the cluster behaves as the chapter says */
  expect: ZRichText,
});

/** The three questions every station answers: what comes in, what it decides, what it writes. */
const ZHandoff = z.strictObject({
  id: ZId,
  kind: z.literal('handoff'),
  receives: ZRichText,
  decides: ZRichText,
  writes: ZRichText,
});

export const ZBlock = z.discriminatedUnion('kind', [
  ZParagraph,
  ZList,
  ZCallout,
  ZCommand,
  ZTable,
  ZTry,
  ZHandoff,
]);
export type TBlock = z.infer<typeof ZBlock>;
export type TBlockKind = TBlock['kind'];
export type TCommandBlock = Extract<TBlock, { kind: 'command' }>;
export type TTryBlock = Extract<TBlock, { kind: 'try' }>;

export const ZSection = z.strictObject({
  id: ZId,
  heading: z.string().min(1),
  blocks: z.array(ZBlock).min(1),
});
export type TSection = z.infer<typeof ZSection>;

export const ZQuizQuestion = z
  .strictObject({
    id: ZId,
    prompt: ZRichText,
    choices: z
      .array(z.strictObject({ id: ZId, text: ZRichText }))
      .min(3)
      .max(4),
    answer: ZId,
    /** one line: why the answer is right */
    explanation: ZRichText,
  })
  .refine((q) => q.choices.some((c) => c.id === q.answer), {
    message: 'the answer must be one of the choices',
    path: ['answer'],
  })
  .refine((q) => new Set(q.choices.map((c) => c.id)).size === q.choices.length, {
    message: 'choice ids must be distinct',
    path: ['choices'],
  });
export type TQuizQuestion = z.infer<typeof ZQuizQuestion>;

export const ZChapter = z
  .strictObject({
    slug: ZChapterSlug,
    locale: z.enum(LOCALES as unknown as [TLocale, ...TLocale[]]),
    /** one or two sentences under the title; the title itself is the METRO_LINE stop title */
    lede: z.string().min(1),
    sections: z.array(ZSection).min(2),
    quiz: z.array(ZQuizQuestion).min(2).max(4),
  })
  .superRefine((chapter, ctx) => {
    const seen = new Set<string>();
    const check = (id: string, path: (string | number)[]) => {
      if (seen.has(id)) ctx.addIssue({ code: 'custom', message: `duplicate id "${id}"`, path });
      seen.add(id);
    };
    chapter.sections.forEach((section, s) => {
      check(section.id, ['sections', s, 'id']);
      section.blocks.forEach((block, b) => check(block.id, ['sections', s, 'blocks', b, 'id']));
    });
    chapter.quiz.forEach((q, i) => check(q.id, ['quiz', i, 'id']));
    const blocks = chapter.sections.flatMap((section) => section.blocks);
    if (!blocks.some((block) => block.kind === 'command' || block.kind === 'try')) {
      ctx.addIssue({
        code: 'custom',
        message: 'a chapter needs a command block',
        path: ['sections'],
      });
    }
  });
export type TChapter = z.infer<typeof ZChapter>;
