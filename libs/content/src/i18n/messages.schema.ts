import { z } from 'zod';
import { MESSAGES_EN } from './messages.en';

// English is the reference shape: every locale must have exactly the same keys, each a non-empty
// string. The compiler checks the keys (TMessages); the schema below checks the same at run time,
// so a dictionary loaded from anywhere else (a file, a translator's tool) gets the same guarantee.

type TWiden<T> = { readonly [K in keyof T]: T[K] extends string ? string : TWiden<T[K]> };
export type TMessages = TWiden<typeof MESSAGES_EN>;

type TMessageTree = { readonly [key: string]: string | TMessageTree };

function buildSchema(reference: TMessageTree): z.ZodType {
  return z.strictObject(
    Object.fromEntries(
      Object.entries(reference).map(([key, value]) => [
        key,
        typeof value === 'string' ? z.string().trim().min(1) : buildSchema(value),
      ]),
    ),
  );
}

export const ZMessages = buildSchema(MESSAGES_EN) as z.ZodType<TMessages>;

/** Every `{placeholder}` of a template, sorted, so two translations can be compared. */
export function listPlaceholders(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
}

/** Flattens a dictionary to `section.key -> text`, for comparisons and look-ups by path. */
export function flattenMessages(tree: TMessageTree, prefix = ''): Record<string, string> {
  return Object.entries(tree).reduce<Record<string, string>>((flat, [key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string'
      ? { ...flat, [path]: value }
      : { ...flat, ...flattenMessages(value, path) };
  }, {});
}
