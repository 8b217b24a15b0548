import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { BASE_URL } from './env';

// Debian's chromium, never a downloaded browser build (`npx playwright install` is not an option).
const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

/** A first-time visitor: no cookies, the browser's languages set to `locale`. */
export function newVisitor(
  browser: Browser,
  options: { locale?: string; viewport?: { width: number; height: number } } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: BASE_URL,
    locale: options.locale ?? 'zh-TW',
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
}
