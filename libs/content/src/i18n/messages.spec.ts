import { LOCALES } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import { formatMessage } from './format-message.util';
import { getMessages, MESSAGES } from './messages';
import { MESSAGES_EN } from './messages.en';
import { flattenMessages, listPlaceholders, ZMessages } from './messages.schema';

const reference = flattenMessages(MESSAGES_EN);

describe('UI messages', () => {
  it.each(LOCALES)('should pass the messages schema when the locale is %s', (locale) => {
    const result = ZMessages.safeParse(MESSAGES[locale]);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it.each(LOCALES)('should have exactly the reference keys when the locale is %s', (locale) => {
    expect(Object.keys(flattenMessages(MESSAGES[locale])).sort()).toEqual(
      Object.keys(reference).sort(),
    );
  });

  it.each(LOCALES)(
    'should keep the placeholders of every entry when the locale is %s',
    (locale) => {
      const flat = flattenMessages(MESSAGES[locale]);
      for (const [path, text] of Object.entries(reference)) {
        expect({ path, placeholders: listPlaceholders(flat[path]) }).toEqual({
          path,
          placeholders: listPlaceholders(text),
        });
      }
    },
  );

  it('should actually translate the Chinese dictionary when compared with English', () => {
    const zh = flattenMessages(getMessages('zh-TW'));
    const untranslated = Object.entries(reference).filter(
      ([path, text]) => zh[path] === text && !/^(KubeJourney|English|中文|Email)$/.test(text),
    );
    expect(untranslated).toEqual([]);
    // Chinese strings should contain Han characters or full-width punctuation, unless they are
    // product or language names.
    const withoutHan = Object.entries(zh).filter(
      ([, text]) =>
        !/[\p{Script=Han}\u3000-\u303f\uff00-\uffef]/u.test(text) &&
        !/^(KubeJourney|English|Email)$/.test(text),
    );
    expect(withoutHan).toEqual([]);
  });

  it.each([
    ['a missing key', (tree: Record<string, Record<string, string>>) => delete tree.header.logout],
    ['an extra key', (tree: Record<string, Record<string, string>>) => (tree.header.extra = 'x')],
    ['an empty string', (tree: Record<string, Record<string, string>>) => (tree.roles.ADMIN = '')],
  ])('should reject a dictionary with %s', (_case, mutate) => {
    const tree = structuredClone(MESSAGES_EN) as unknown as Record<string, Record<string, string>>;
    mutate(tree);
    expect(ZMessages.safeParse(tree).success).toBe(false);
  });
});

describe('formatMessage', () => {
  it.each([
    ['Stop {number}', { number: 3 }, 'Stop 3'],
    ['{name}（{role}）', { name: 'Ada', role: '學員' }, 'Ada（學員）'],
    ['Wait {seconds} seconds', {}, 'Wait {seconds} seconds'],
    ['No placeholders', { unused: 1 }, 'No placeholders'],
  ])('should render "%s" when given %o', (template, values, expected) => {
    expect(formatMessage(template, values)).toBe(expected);
  });
});

describe('listPlaceholders', () => {
  it('should list placeholders sorted when a template has several', () => {
    expect(listPlaceholders('{b} and {a} and {b}')).toEqual(['a', 'b', 'b']);
  });
});
