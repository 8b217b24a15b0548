import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchMe, newAccount, signUpViaApi, TEST_PASSWORD } from '../support/accounts';
import { launchBrowser, newVisitor } from '../support/browser';
import { BASE_URL } from '../support/env';
import { getCookie, visibleText, waitForLang } from '../support/page-checks';
import { createScreenshotRecorder } from '../support/screenshots';

// The walking skeleton, front to back: a new visitor signs up, logs out, logs in, switches the
// language both ways and finds the seven stations on the route map. Every page is screenshotted.

const STATIONS = [
  'kubectl',
  'kube-apiserver',
  'etcd',
  'kube-controller-manager',
  'kube-scheduler',
  'kubelet',
  'kube-proxy',
];

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function stationComponents(page: Page): Promise<string[]> {
  return page.locator('li[data-stop] article span.font-mono').allInnerTexts();
}

describe('a new visitor', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('should sign up, log out, log in, switch languages and see the seven stations', async () => {
    const shot = createScreenshotRecorder('account-and-route-map');
    const account = newAccount({ displayName: '林小安' });
    context = await newVisitor(browser, { locale: 'zh-TW' });
    const page = await context.newPage();

    // Landing: what KubeJourney is, in the browser's language.
    await page.goto('/');
    await waitForLang(page, 'zh-TW');
    expect(await visibleText(page.getByRole('heading', { level: 1 }))).toContain('kubectl apply');
    expect(await page.getByRole('link', { name: '登入' }).count()).toBeGreaterThan(0);
    await shot(page, 'landing');

    // Sign up: an empty form first, to see the API's rules come back next to each field.
    await page
      .getByRole('main')
      .getByRole('link', { name: /建立帳號/ })
      .click();
    await page.waitForURL(`${BASE_URL}/signup`);
    await page.getByRole('button', { name: '建立帳號' }).click();
    const summary = page.getByRole('alert', { name: '有些地方需要修正' });
    expect(await visibleText(summary)).toContain('有幾個欄位需要再確認。');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('alert');
    expect(await visibleText(page.locator('#displayName-error'))).toBe('請輸入顯示名稱。');
    expect(await visibleText(page.locator('#email-error'))).toBe('請輸入 Email。');
    expect(await page.getByLabel('顯示名稱').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Email').getAttribute('aria-describedby')).toContain(
      'email-error',
    );
    await shot(page, 'signup-errors');

    await page.getByLabel('顯示名稱').fill(account.displayName);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('密碼').fill(account.password);
    await page.getByRole('button', { name: '建立帳號' }).click();
    await page.waitForURL(`${BASE_URL}/learn`);
    expect(await visibleText(page.getByTestId('account-name'))).toBe('林小安');
    expect(await visibleText(page.getByTestId('account-role'))).toBe('學員');
    const session = await getCookie(context, 'kj_session');
    expect(session?.httpOnly).toBe(true);
    expect((await getCookie(context, 'kj_locale'))?.value).toBe('zh-TW');
    expect((await fetchMe(context.request))?.locale).toBe('zh-TW');
    await shot(page, 'learn-after-signup');

    // Log out from the header: the session is gone and the route map asks to log in again.
    await page.getByRole('button', { name: '登出' }).click();
    await page.waitForURL(`${BASE_URL}/`);
    expect(await visibleText(page.getByRole('banner').getByRole('link', { name: '登入' }))).toBe(
      '登入',
    );
    expect(await fetchMe(context.request)).toBeNull();
    await shot(page, 'landing-after-logout');
    await page.goto('/learn');
    await page.waitForURL(`${BASE_URL}/login?next=%2Flearn`);

    // Log in: a wrong password is refused with a message, the right one opens the map.
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('密碼').fill('not-the-password-1');
    await page.getByRole('button', { name: '登入' }).click();
    expect(await visibleText(page.getByRole('alert', { name: '有些地方需要修正' }))).toContain(
      'Email 或密碼不正確',
    );
    await shot(page, 'login-wrong-password');
    await page.getByLabel('密碼').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: '登入' }).click();
    await page.waitForURL(`${BASE_URL}/learn`);
    expect(await visibleText(page.getByTestId('account-name'))).toBe('林小安');
    await shot(page, 'learn-after-login');

    // Switch to English: the page, <html lang>, the cookie and the account all follow.
    await page
      .getByRole('group', { name: '語言' })
      .getByRole('button', { name: 'English' })
      .click();
    await waitForLang(page, 'en');
    expect(await visibleText(page.getByRole('heading', { level: 1 }))).toBe(
      'The kubectl apply line',
    );
    expect(await visibleText(page.getByTestId('account-role'))).toBe('Learner');
    expect((await getCookie(context, 'kj_locale'))?.value).toBe('en');
    expect((await fetchMe(context.request))?.locale).toBe('en');
    await page.reload();
    await waitForLang(page, 'en');
    await shot(page, 'learn-english');

    // And back to Traditional Chinese.
    await page
      .getByRole('group', { name: 'Language' })
      .getByRole('button', { name: '中文' })
      .click();
    await waitForLang(page, 'zh-TW');
    expect(await visibleText(page.getByRole('heading', { level: 1 }))).toBe('kubectl apply 線');
    expect((await getCookie(context, 'kj_locale'))?.value).toBe('zh-TW');
    expect((await fetchMe(context.request))?.locale).toBe('zh-TW');

    // The route map: hall, seven stations in journey order, terminus; nothing visited yet.
    const stops = page.locator('li[data-stop]');
    expect(await stops.count()).toBe(9);
    expect(await stationComponents(page)).toEqual(STATIONS);
    expect(await page.locator('[data-progress="not-visited"]').count()).toBe(9);
    expect(await visibleText(page.locator('#stop-kube-scheduler-title'))).toContain(
      'kube-scheduler',
    );
    await shot(page, 'learn-chinese');
  });
});

describe('a visitor who picks English before signing up', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('should keep English across pages and give the new account English', async () => {
    const shot = createScreenshotRecorder('english-visitor');
    const account = newAccount({ displayName: 'Grace Hopper' });
    context = await newVisitor(browser, { locale: 'zh-TW', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();

    await page.goto('/');
    await waitForLang(page, 'zh-TW');
    await page
      .getByRole('group', { name: '語言' })
      .getByRole('button', { name: 'English' })
      .click();
    await waitForLang(page, 'en');
    expect((await getCookie(context, 'kj_locale'))?.value).toBe('en');
    await shot(page, 'landing-english');

    await page.goto('/signup');
    await waitForLang(page, 'en');
    expect(await visibleText(page.getByRole('heading', { level: 1 }))).toBe('Create your account');
    await page.getByLabel('Display name').fill(account.displayName);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill('onlyletters');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await visibleText(page.locator('#password-error'))).toBe(
      'Password must contain at least one digit.',
    );
    await shot(page, 'signup-weak-password');

    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${BASE_URL}/learn`);
    await waitForLang(page, 'en');
    expect((await fetchMe(context.request))?.locale).toBe('en');
    expect(await stationComponents(page)).toEqual(STATIONS);
    await shot(page, 'learn-mobile');
  });
});

describe('a visitor whose email is already registered', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('should say the email is taken, next to the email field', async () => {
    const shot = createScreenshotRecorder('email-taken');
    const account = newAccount();
    context = await newVisitor(browser, { locale: 'en-US' });
    await signUpViaApi(context.request, account);
    await context.clearCookies();
    const page = await context.newPage();

    await page.goto('/signup');
    await waitForLang(page, 'en');
    await page.getByLabel('Display name').fill('Someone Else');
    await page.getByLabel('Email').fill(account.email.toUpperCase());
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await visibleText(page.locator('#email-error'))).toBe(
      'This email already has an account.',
    );
    expect(
      await visibleText(page.getByRole('alert', { name: 'Something needs your attention' })),
    ).toContain('An account with this email already exists. Log in instead');
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toBe(`${BASE_URL}/signup`);
    expect(await getCookie(context, 'kj_session')).toBeUndefined();
    await shot(page, 'signup-email-taken');
  });
});

describe('a keyboard user', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('should reach the skip link, the language switch and the sign-up form by keyboard', async () => {
    context = await newVisitor(browser, { locale: 'zh-TW' });
    const page = await context.newPage();
    await page.goto('/');

    await page.keyboard.press('Tab');
    const focused = () =>
      page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText.trim());
    expect(await focused()).toBe('跳到主要內容');
    expect(await page.getByRole('link', { name: '跳到主要內容' }).isVisible()).toBe(true);

    const reached: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      reached.push((await focused()) ?? '');
    }
    expect(reached).toEqual(expect.arrayContaining(['中文', 'English', '登入', '註冊']));

    await page.goto('/signup');
    await page.getByLabel('顯示名稱').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('password');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('建立帳號');
  });
});
