import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createTerminal, type SimLab } from '@kubejourney/sim';
import { describe, expect, it } from 'vitest';
import { findCopiedFragments, indexArticle } from '../chapters/originality.util';
import { createScenarioLab } from './scenario-lab';
import { gradeScenario } from './scenario-grader';
import { findScenario, SCENARIOS } from './scenarios.data';

// Each scenario is played for real: built broken, graded (it must fail, showing the symptom the
// brief describes), fixed the way a learner would at the terminal, graded again (it must pass).

function run(lab: SimLab, ms: number): void {
  for (let left = ms; left > 0; left -= 2_000) lab.advance(Math.min(2_000, left));
}

function exec(lab: SimLab, lines: string[]): void {
  const terminal = createTerminal(lab);
  for (const line of lines) {
    const result = terminal.exec(line);
    expect([line, result.exitCode, result.stderr]).toEqual([line, 0, '']);
  }
}

type TPod = {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { nodeName?: string };
  status: {
    phase?: string;
    containerStatuses?: { state?: { waiting?: { reason?: string } } }[];
  };
};

const webPods = (lab: SimLab) =>
  (lab.peekAll('pods', 'default') as TPod[]).filter((p) => p.metadata.labels?.['app'] === 'web');

function scenario(id: string) {
  const found = findScenario(id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found;
}

describe('scenarios', { timeout: 120_000 }, () => {
  it('should have unique ids and the same objectives in both locales when loaded', () => {
    expect(new Set(SCENARIOS.map((s) => s.id)).size).toBe(SCENARIOS.length);
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(3);
    for (const s of SCENARIOS) {
      expect(new Set(s.objectives.map((o) => o.id)).size).toBe(s.objectives.length);
      for (const text of [s.title, s.brief, ...s.objectives.flatMap((o) => [o.text, o.hint])]) {
        expect(text['zh-TW']).toMatch(/\p{Script=Han}/u);
        expect(text.en).not.toMatch(/\p{Script=Han}/u);
      }
    }
  });

  it('should fail with ImagePullBackOff and pass after set image when the image is mistyped', () => {
    const s = scenario('image-pull-backoff');
    const lab = createScenarioLab(s, 1);
    const reasons = webPods(lab).map(
      (p) => p.status.containerStatuses?.[0]?.state?.waiting?.reason,
    );
    expect(reasons).toHaveLength(3);
    for (const reason of reasons) expect(['ErrImagePull', 'ImagePullBackOff']).toContain(reason);
    expect(gradeScenario(s, lab)).toMatchObject({ passed: false, score: 0, maxScore: 10 });
    exec(lab, ['kubectl set image deployment/web nginx=nginx:1.27']);
    run(lab, 60_000);
    expect(gradeScenario(s, lab)).toMatchObject({ passed: true, score: 10 });
  });

  it('should fail with empty endpoints and pass after the selector is fixed', () => {
    const s = scenario('service-without-endpoints');
    const lab = createScenarioLab(s, 2);
    const endpoints = lab.peek('endpoints', 'default', 'web') as { subsets?: unknown[] };
    expect(endpoints.subsets ?? []).toEqual([]);
    expect(gradeScenario(s, lab).objectives).toEqual([
      { id: 'service-endpoints', passed: false, points: 7 },
      { id: 'web-ready', passed: true, points: 3 },
    ]);
    exec(lab, [`kubectl patch service web -p '{"spec":{"selector":{"app":"web"}}}'`]);
    run(lab, 10_000);
    expect(gradeScenario(s, lab)).toMatchObject({ passed: true, score: 10 });
  });

  it('should fail with node-2 NotReady and pass after the kubelet is started again', () => {
    const s = scenario('kubelet-stopped');
    const lab = createScenarioLab(s, 3);
    const node = lab.peek('nodes', undefined, 'node-2') as {
      status: { conditions: { type: string; status: string }[] };
    };
    expect(node.status.conditions.find((c) => c.type === 'Ready')?.status).toBe('Unknown');
    expect(gradeScenario(s, lab).passed).toBe(false);
    exec(lab, ['ssh node-2', 'systemctl start kubelet', 'exit']);
    run(lab, 30_000);
    expect(gradeScenario(s, lab)).toMatchObject({ passed: true, score: 10 });
  });

  it('should fail with Pending pods and pass only when the pods tolerate the kept taint', () => {
    const s = scenario('untolerated-taint');
    const lab = createScenarioLab(s, 4);
    const pods = webPods(lab);
    expect(pods.map((p) => [p.status.phase, p.spec.nodeName])).toEqual([
      ['Pending', undefined],
      ['Pending', undefined],
      ['Pending', undefined],
    ]);
    const events = lab.peekAll('events', 'default') as { reason?: string }[];
    expect(events.some((e) => e.reason === 'FailedScheduling')).toBe(true);
    expect(gradeScenario(s, lab)).toMatchObject({ passed: false, score: 3, maxScore: 10 });
    // removing the taint gets the pods running but loses the taint objectives
    const shortcut = createScenarioLab(s, 4);
    exec(
      shortcut,
      ['node-1', 'node-2', 'node-3'].map(
        (n) => `kubectl taint nodes ${n} dedicated=gpu:NoSchedule-`,
      ),
    );
    run(shortcut, 30_000);
    expect(gradeScenario(s, shortcut)).toMatchObject({
      passed: false,
      score: 7,
    });
    const toleration = { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' };
    const patch = JSON.stringify({ spec: { template: { spec: { tolerations: [toleration] } } } });
    exec(lab, [`kubectl patch deployment web -p '${patch}'`]);
    run(lab, 60_000);
    expect(gradeScenario(s, lab)).toMatchObject({ passed: true, score: 10 });
  });
});

const ARTICLE = resolve(__dirname, '../../../../../shared/seed/000_a272a37a5ba42d8c.txt');
describe.skipIf(!existsSync(ARTICLE))('scenario texts against the source article', () => {
  it('should copy no sentence from the article when written', () => {
    const index = indexArticle(readFileSync(ARTICLE, 'utf8'));
    const texts = SCENARIOS.flatMap((s) => [
      s.title,
      s.brief,
      ...s.objectives.flatMap((o) => [o.text, o.hint]),
    ]).flatMap((t) => [t.en, t['zh-TW']]);
    expect(texts.flatMap((text) => findCopiedFragments(text, index))).toEqual([]);
  });
});
