import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, signUpViaApi } from '../support/accounts';
import { launchBrowser, newVisitor } from '../support/browser';
import { BASE_URL } from '../support/env';
import { visibleText } from '../support/page-checks';
import { createScreenshotRecorder } from '../support/screenshots';
import { typeLine, waitForOutput } from '../support/terminal';

// The lab, front to back: a learner opens a new sandbox, asks for the nodes, applies a Deployment
// through a heredoc typed into the terminal, and watches three Pods come up on the cluster map
// while the journey timeline fills with the components' moves. Then pause and step the clock.

const MANIFEST = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: web',
  'spec:',
  '  replicas: 3',
  '  selector:',
  '    matchLabels:',
  '      app: web',
  '  template:',
  '    metadata:',
  '      labels:',
  '        app: web',
  '    spec:',
  '      containers:',
  '        - name: app',
  '          image: nginx:1.27',
];

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('a learner in a sandbox lab', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('should run kubectl, apply a Deployment by heredoc, see 3 Running Pods and the journey, and step the clock', async () => {
    const shot = createScreenshotRecorder('lab');
    context = await newVisitor(browser, { locale: 'en' });
    await signUpViaApi(context.request, newAccount({ displayName: 'Grace Hopper' }));
    const page = await context.newPage();

    // From the route map to the labs list, then a new sandbox.
    await page.goto('/learn');
    await page.getByRole('main').getByRole('link', { name: 'Open your lab' }).click();
    await page.waitForURL(`${BASE_URL}/labs`);
    expect(await visibleText(page.getByText('No labs yet.'))).toContain('Create a sandbox');
    await shot(page, 'labs-empty');
    await page.getByRole('button', { name: 'New sandbox lab' }).click();
    await page.waitForURL(/\/labs\/[\w-]+$/, { timeout: 30_000 });
    await page.getByTestId('stream-status').and(page.locator('[data-status="live"]')).waitFor({
      timeout: 20_000,
    });
    await page.locator('[data-testid="map-node"]').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid="map-node"]').count()).toBe(3);

    // kubectl get nodes: the control plane and three workers.
    await page.locator('.xterm-helper-textarea').focus();
    await typeLine(page, 'kubectl get nodes');
    const nodes = await waitForOutput(page, /node-3\s+Ready/);
    for (const node of ['control-plane', 'node-1', 'node-2', 'node-3']) {
      expect(nodes).toMatch(new RegExp(`${node}\\s+Ready`));
    }
    expect(await page.locator('.xterm-rows').innerText()).toContain('root@control-plane:~#');
    await shot(page, 'get-nodes');

    // The shell lives on between commands: after ssh the prompt and the commands are node-1's.
    await typeLine(page, 'ssh node-1');
    await page.waitForFunction(
      () => document.querySelector('.xterm-rows')?.textContent?.includes('root@node-1:~#'),
      undefined,
      { timeout: 30_000 },
    );
    await typeLine(page, 'exit');
    await waitForOutput(page, 'Connection to node-1 closed.');

    // Tab completion: `kubectl desc<Tab>` becomes `kubectl describe `.
    await page.keyboard.type('kubectl desc');
    await page.keyboard.press('Tab');
    await page.waitForFunction(() =>
      (document.querySelector('.xterm-rows')?.textContent ?? '').includes('kubectl describe'),
    );
    await page.keyboard.press('Control+C');

    // The apply, through a heredoc typed line by line (the terminal shows `> ` continuations).
    await typeLine(page, "cat <<'EOF' | kubectl apply -f -");
    for (const line of MANIFEST) await typeLine(page, line);
    await typeLine(page, 'EOF');
    await waitForOutput(page, 'deployment.apps/web created');

    // Three Pods Running and Ready on the map, arriving live.
    await page.waitForFunction(
      () =>
        document.querySelectorAll(
          '[data-testid="map-pod"][data-status="Running"][data-ready="true"]',
        ).length === 3,
      undefined,
      { timeout: 60_000 },
    );
    const lanes = await page
      .locator('[data-testid="journey-mark"]')
      .evaluateAll((marks) => marks.map((m) => m.getAttribute('data-lane')));
    // The request pipeline is grouped on the apiserver lane; the controllers, the scheduler and
    // the kubelets follow on their own lanes.
    for (const lane of ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet']) {
      expect(lanes).toContain(lane);
    }
    await shot(page, 'three-pods-running');

    // A mark's details: click the scheduler's first mark.
    await page.locator('[data-testid="journey-mark"][data-lane="kube-scheduler"]').first().click();
    expect(await visibleText(page.getByTestId('journey-details'))).toContain('kube-scheduler');

    // History: arrow up recalls the last one-line command.
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Control+C');

    // Pause, then step 1 s: the clock moves by exactly 1 s while paused.
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.getByRole('button', { name: /Resume/ }).waitFor();
    expect(await visibleText(page.getByTestId('clock-state'))).toBe('paused');
    const before = await visibleText(page.getByTestId('sim-clock'));
    await page.getByRole('button', { name: 'Step +1 s' }).click();
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid="sim-clock"]')?.textContent !== previous,
      before,
      { timeout: 15_000 },
    );
    const toMs = (text: string) => {
      const [minutes, seconds] = text.split(':');
      return Math.round((Number(minutes) * 60 + Number(seconds)) * 1000);
    };
    expect(toMs(await visibleText(page.getByTestId('sim-clock'))) - toMs(before)).toBe(1000);
    await shot(page, 'paused-and-stepped');
    await page.getByRole('button', { name: /Resume/ }).click();

    // The phone layout: tabs instead of panes.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const tab of ['Cluster', 'Journey', 'Lesson', 'Terminal']) {
      await page
        .getByRole('tablist', { name: 'Lab panels' })
        .getByRole('tab', { name: tab })
        .click();
      await shot(page, `narrow-${tab.toLowerCase()}`);
    }
  });
});

describe('a learner with a chapter beside the terminal', () => {
  let context: BrowserContext;
  afterAll(async () => context?.close());

  it('should open the lab from a chapter, type a clicked command, run it on Enter, and carry Run in lab over', async () => {
    const shot = createScreenshotRecorder('chapter-lab');
    context = await newVisitor(browser, { locale: 'en' });
    await signUpViaApi(context.request, newAccount({ displayName: 'Barbara Liskov' }));
    const page = await context.newPage();
    const terminalRows = () => page.locator('.xterm-rows').innerText();

    // The chapter's Open your lab: no lab yet, so a sandbox is created and opened on that chapter.
    await page.goto('/learn/prologue');
    await page.getByTestId('open-lab').click();
    await page.waitForURL(/\/labs\/[\w-]+\?chapter=prologue$/, { timeout: 60_000 });
    await page.getByTestId('stream-status').and(page.locator('[data-status="live"]')).waitFor({
      timeout: 20_000,
    });
    const lesson = page.getByTestId('lab-lesson');
    expect(await lesson.locator('[data-chapter]').getAttribute('data-chapter')).toBe('prologue');
    expect(
      await page
        .getByTestId('chapter-picker')
        .locator('[aria-current="page"]')
        .getAttribute('data-stop'),
    ).toBe('prologue');
    await shot(page, 'prologue-in-lab');

    // One click types the command (nothing runs); Enter runs it. The sandbox came with the file.
    await lesson
      .locator('[data-testid="type-command"][data-command="kubectl apply -f deployment.yaml"]')
      .first()
      .click();
    await page.waitForFunction(() =>
      (document.querySelector('.xterm-rows')?.textContent ?? '').includes(
        'kubectl apply -f deployment.yaml',
      ),
    );
    expect(await page.getByTestId('terminal-log').textContent()).not.toContain('created');
    await page.keyboard.press('Enter');
    await waitForOutput(page, 'deployment.apps/my-app created');
    await shot(page, 'applied-from-chapter');

    // The picker moves to another stop in the same lab: the address names it, the shell stays.
    await page.getByTestId('chapter-picker').locator('[data-stop="kube-scheduler"]').click();
    await page.waitForURL(/\?chapter=kube-scheduler$/);
    await lesson.locator('[data-chapter="kube-scheduler"]').waitFor();
    expect(await visibleText(lesson.getByRole('heading', { level: 2 }).first())).toContain(
      'kube-scheduler',
    );
    expect(await terminalRows()).toContain('deployment.apps/my-app created');

    // By keyboard too: a command line is a button, and Enter on it types the command.
    const firstLine = lesson.getByTestId('type-command').first();
    const firstCommand = (await firstLine.getAttribute('data-command')) ?? '';
    await firstLine.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (command) => (document.querySelector('.xterm-rows')?.textContent ?? '').includes(command),
      firstCommand,
    );
    await page.keyboard.press('Control+C');

    // Run in lab on the chapter page: the same lab opens with the command typed, not run.
    const labUrl = new URL(page.url());
    await page.goto('/learn/kube-scheduler');
    await page.getByRole('link', { name: 'Run in lab: kubectl get pods -o wide' }).first().click();
    await page.waitForURL((url) => url.pathname === labUrl.pathname, { timeout: 30_000 });
    // The command left the address once typed, so a reload does not type it again.
    await page.waitForFunction(() => location.search === '?chapter=kube-scheduler');
    await page.waitForFunction(() =>
      (document.querySelector('.xterm-rows')?.textContent ?? '').includes(
        'kubectl get pods -o wide',
      ),
    );
    await page.locator('.xterm-helper-textarea').focus();
    await page.keyboard.press('Enter');
    const wide = await waitForOutput(page, /my-app-\S+[^\n]*node-\d/);
    expect(wide).toMatch(/NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE/);
    await shot(page, 'run-in-lab');

    // The phone layout opens a chapter link on the Lesson tab.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${labUrl.pathname}?chapter=etcd`);
    expect(
      await page
        .getByRole('tablist', { name: 'Lab panels' })
        .getByRole('tab', { name: 'Lesson' })
        .getAttribute('aria-selected'),
    ).toBe('true');
    await shot(page, 'narrow-etcd-lesson');
  });
});
