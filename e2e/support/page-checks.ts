import type { BrowserContext, Locator, Page } from 'playwright-core';

/** Waits until the locator is visible and returns its rendered text. */
export async function visibleText(locator: Locator, timeout = 10_000): Promise<string> {
  await locator.waitFor({ state: 'visible', timeout });
  return (await locator.innerText()).trim();
}

/** Waits for `<html lang>` to become `lang` (the server re-renders after a language switch). */
export async function waitForLang(page: Page, lang: string): Promise<void> {
  await page.waitForFunction((expected) => document.documentElement.lang === expected, lang, {
    timeout: 10_000,
  });
}

export async function getCookie(context: BrowserContext, name: string) {
  return (await context.cookies()).find((cookie) => cookie.name === name);
}
