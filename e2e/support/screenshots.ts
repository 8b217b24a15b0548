import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const ARTIFACTS = path.join(__dirname, '..', 'artifacts');

/**
 * Saves full-page screenshots of a journey, numbered in the order they were taken, under
 * e2e/artifacts/<journey>/ (gitignored), so a failed run can be looked at page by page.
 */
export function createScreenshotRecorder(journey: string) {
  const dir = path.join(ARTIFACTS, journey);
  mkdirSync(dir, { recursive: true });
  let count = 0;
  return async (page: Page, name: string): Promise<string> => {
    count += 1;
    const file = path.join(dir, `${String(count).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  };
}
