import type { Page } from 'playwright-core';

/** Types a line into the xterm (its hidden textarea has the keyboard) and presses Enter. */
export async function typeLine(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line, { delay: 2 });
  await page.keyboard.press('Enter');
}

/** Waits for the last command's output in the terminal's screen-reader log; returns the log. */
export async function waitForOutput(
  page: Page,
  text: string | RegExp,
  timeout = 30_000,
): Promise<string> {
  const log = page.getByTestId('terminal-log');
  await page.waitForFunction(
    ({ pattern, isRegex }) => {
      const content = document.querySelector('[data-testid="terminal-log"]')?.textContent ?? '';
      return isRegex ? new RegExp(pattern).test(content) : content.includes(pattern);
    },
    { pattern: typeof text === 'string' ? text : text.source, isRegex: typeof text !== 'string' },
    { timeout },
  );
  return (await log.textContent()) ?? '';
}
