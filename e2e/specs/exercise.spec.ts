import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signUpViaApi } from '../support/accounts';
import { launchBrowser, newVisitor } from '../support/browser';
import { visibleText } from '../support/page-checks';
import { createScreenshotRecorder } from '../support/screenshots';
import { typeLine, waitForOutput } from '../support/terminal';

// A graded break-fix exercise, front to back: a learner starts "The image that does not exist"
// from /labs, reads the brief beside the broken cluster, checks (and fails, with a hint), fixes
// the Deployment's image from the terminal and checks again until it passes. Then the same
// exercise in Chinese, and the lab limit explained when one more lab would be too many.

const SCENARIO = 'image-pull-backoff';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Starts the exercise from /labs and waits for its lab page, live. */
async function startExercise(page: Page, buttonName: string): Promise<void> {
  await page.goto('/labs');
  await page
    .getByTestId('exercises-list')
    .locator(`[data-scenario="${SCENARIO}"]`)
    .getByRole('button', { name: buttonName })
    .click();
  await page.waitForURL(/\/labs\/[\w-]+$/, { timeout: 60_000 });
  await page.getByTestId('stream-status').and(page.locator('[data-status="live"]')).waitFor({
    timeout: 20_000,
  });
}

/** Clicks the check and waits for its result (the button is disabled while grading). */
async function checkFix(page: Page, buttonName: string) {
  const button = page.getByTestId('exercise-check');
  expect(await visibleText(button)).toBe(buttonName);
  await button.click();
  const result = page.getByTestId('exercise-result').locator('[data-passed]');
  await result.waitFor({ timeout: 20_000 });
  await page.waitForFunction(
    () => !document.querySelector<HTMLButtonElement>('[data-testid="exercise-check"]')?.disabled,
  );
  return {
    passed: (await result.getAttribute('data-passed')) === 'true',
    text: await visibleText(result),
  };
}

describe('a learner solving an exercise', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('should start an exercise from /labs, fail a check with a hint, fix the image in the terminal and pass', async () => {
    const shot = createScreenshotRecorder('exercise');
    context = await newVisitor(browser, { locale: 'en' });
    await signUpViaApi(context.request, newAccount({ displayName: 'Kelsey Hightower' }));
    const page = await context.newPage();

    // The exercises on /labs: title, brief, max score and objectives.
    await page.goto('/labs');
    expect(await visibleText(page.getByRole('heading', { name: 'Exercises' }))).toBe('Exercises');
    const card = page.getByTestId('exercises-list').locator(`[data-scenario="${SCENARIO}"]`);
    const cardText = await visibleText(card);
    expect(cardText).toContain('The image that does not exist');
    expect(cardText).toContain('mistyped image tag');
    expect(cardText).toContain('10 points');
    expect(cardText).toContain('Objectives: 1');
    await shot(page, 'labs-exercises');

    await startExercise(page, 'Start the exercise: The image that does not exist');

    // The lesson pane is the exercise, not a chapter.
    const lesson = page.getByTestId('lab-lesson');
    expect(await lesson.locator('[data-chapter]').count()).toBe(0);
    expect(await visibleText(lesson.getByRole('heading', { level: 2 }))).toBe(
      'The image that does not exist',
    );
    expect(await visibleText(page.getByTestId('exercise-brief'))).toContain('mistyped image tag');
    const objective = lesson.locator('[data-objective="web-ready"]');
    expect(await visibleText(objective)).toContain('Deployment web has 3 ready pods');
    expect(await objective.getAttribute('data-status')).toBe('unchecked');
    expect(await page.title()).toContain('The image that does not exist');

    // First check: the cluster is still broken.
    const first = await checkFix(page, 'Check my fix');
    expect(first.passed).toBe(false);
    expect(first.text).toContain('Not fixed yet. Score 0/10.');
    expect(first.text).toContain('Attempt 1');
    expect(await objective.getAttribute('data-status')).toBe('failed');
    expect(await visibleText(objective.getByTestId('objective-hint'))).toContain(
      'kubectl set image deployment/web nginx=nginx:1.27',
    );
    await shot(page, 'check-failed-with-hint');

    // A command in the hint types itself at the prompt (not run), as a chapter's commands do.
    await objective
      .getByRole('button', { name: 'Type into the terminal: kubectl describe pod' })
      .click();
    await page.waitForFunction(() =>
      (document.querySelector('.xterm-rows')?.textContent ?? '').includes('kubectl describe pod'),
    );
    await page.keyboard.press('Control+C');

    // The fix, typed in the terminal: a new rollout with an image that exists.
    await page.locator('.xterm-helper-textarea').focus();
    await typeLine(page, 'kubectl set image deployment/web nginx=nginx:1.27');
    await waitForOutput(page, 'deployment.apps/web image updated');
    await page.waitForFunction(
      () =>
        document.querySelectorAll(
          '[data-testid="map-pod"][data-status="Running"][data-ready="true"]',
        ).length >= 3,
      undefined,
      { timeout: 90_000 },
    );

    // Check again; a learner who checks a moment too early just checks once more.
    let second = await checkFix(page, 'Check my fix');
    for (let tries = 0; !second.passed && tries < 5; tries += 1) {
      await page.waitForTimeout(2_000);
      second = await checkFix(page, 'Check my fix');
    }
    expect(second.passed).toBe(true);
    expect(second.text).toContain('Fixed. Score 10/10.');
    expect(second.text).toMatch(/Attempt [2-7]/);
    expect(await objective.getAttribute('data-status')).toBe('passed');
    expect(await objective.getByTestId('objective-hint').count()).toBe(0);
    await shot(page, 'check-passed');

    // Coming back later: the page shows the last attempt without checking again.
    await page.reload();
    const kept = page.getByTestId('exercise-result').locator('[data-passed]');
    await kept.waitFor({ timeout: 20_000 });
    expect(await kept.getAttribute('data-passed')).toBe('true');
    expect(await visibleText(kept)).toBe(second.text);
    expect(await objective.getAttribute('data-status')).toBe('passed');
  });
});

describe('a learner in Chinese', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('should show the exercise and its hint in zh-TW, and explain the lab limit when starting one more', async () => {
    const shot = createScreenshotRecorder('exercise-zh');
    context = await newVisitor(browser, { locale: 'zh-TW' });
    await signUpViaApi(context.request, newAccount({ displayName: '林小明', locale: 'zh-TW' }));
    const page = await context.newPage();

    await startExercise(page, '開始練習：不存在的映像檔');
    const lesson = page.getByTestId('lab-lesson');
    expect(await visibleText(lesson.getByRole('heading', { level: 2 }))).toBe('不存在的映像檔');
    const failed = await checkFix(page, '檢查我的修正');
    expect(failed.passed).toBe(false);
    expect(failed.text).toContain('還沒修好。得分 0/10。');
    expect(failed.text).toContain('第 1 次嘗試');
    expect(await visibleText(lesson.getByTestId('objective-hint'))).toContain('拉不到哪個映像檔');
    await shot(page, 'check-failed-zh');
    // Tall enough for the whole pane (brief, result, objective and hint) without scrolling it.
    await page.setViewportSize({ width: 1280, height: 1100 });
    await shot(page, 'exercise-pane-zh');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Fill up to the lab limit through the API, then try to start one more exercise.
    for (let created = 0; created < 20; created += 1) {
      const response = await context.request.post('/api/labs', { data: { kind: 'sandbox' } });
      if (response.status() === 429) break;
      expect(response.status()).toBe(201);
    }
    await page.goto('/labs');
    await page
      .getByTestId('exercises-list')
      .locator(`[data-scenario="${SCENARIO}"]`)
      .getByRole('button', { name: '開始練習：不存在的映像檔' })
      .click();
    const alert = await visibleText(page.getByTestId('exercise-start-error'));
    expect(alert).toContain('你的實驗室數量已達上限');
    // The API's own sentence says how many labs and what to do.
    expect(alert).toContain('Delete one to create another.');
    expect(page.url()).toMatch(/\/labs$/);
    await shot(page, 'limit-reached-zh');
  });
});
