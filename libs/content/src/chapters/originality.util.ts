// Detects copied text: our chapters take the source article's facts, never its sentences.
// Chinese is compared as a stream of letters (whitespace and punctuation removed); English as a
// sequence of words. Windows that hold almost no Chinese are left to the English check, so an
// identifier such as `deployment.apps` is not mistaken for a copied sentence.

export const ZH_WINDOW = 12;
export const EN_WINDOW = 8;

const strip = (text: string) => text.replace(/[\s\p{P}\p{S}]/gu, '').toLowerCase();
const HAN = /\p{Script=Han}/gu;

/** Runs of Latin words not broken by Chinese text, as lower-case word lists. */
function latinRuns(text: string): string[][] {
  return text
    .split(/\p{Script=Han}+/u)
    .map((run) => run.toLowerCase().match(/[a-z0-9]+(?:['’][a-z]+)?/g) ?? [])
    .filter((words) => words.length > 0);
}

export interface TCopiedFragment {
  kind: 'zh' | 'en';
  fragment: string;
}

export interface TOriginalityIndex {
  zh: string;
  en: Set<string>;
}

export function indexArticle(article: string): TOriginalityIndex {
  const en = new Set<string>();
  for (const words of latinRuns(article)) {
    for (let i = 0; i + EN_WINDOW <= words.length; i += 1) {
      en.add(words.slice(i, i + EN_WINDOW).join(' '));
    }
  }
  return { zh: strip(article), en };
}

/** Fragments of `text` that appear verbatim in the indexed article. */
export function findCopiedFragments(text: string, index: TOriginalityIndex): TCopiedFragment[] {
  const found: TCopiedFragment[] = [];
  const letters = [...strip(text)];
  for (let i = 0; i + ZH_WINDOW <= letters.length; i += 1) {
    const window = letters.slice(i, i + ZH_WINDOW).join('');
    if ((window.match(HAN)?.length ?? 0) < ZH_WINDOW / 2) continue;
    if (index.zh.includes(window)) found.push({ kind: 'zh', fragment: window });
  }
  for (const words of latinRuns(text)) {
    for (let i = 0; i + EN_WINDOW <= words.length; i += 1) {
      const window = words.slice(i, i + EN_WINDOW).join(' ');
      if (index.en.has(window)) found.push({ kind: 'en', fragment: window });
    }
  }
  return found;
}
