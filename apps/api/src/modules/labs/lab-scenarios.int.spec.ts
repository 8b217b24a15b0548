import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TTestApp } from '../../../test/test-app';

// Scenario labs through the API: created broken from libs/content, graded on the server, every
// attempt recorded. No worker runs here: the clock is stepped through the API instead, so the
// test decides exactly how much cluster time passes.

process.env.LAB_LIMIT_PER_USER = '5';

let t: TTestApp;
let ada = '';
let bob = '';
const http = () => request(t.app.getHttpServer());

async function signup(name: string): Promise<string> {
  const response = await http()
    .post('/api/auth/signup')
    .send({ email: `${name}@example.com`, password: 'Kubernetes-1-32', displayName: name })
    .expect(201);
  return (([] as string[]).concat(response.headers['set-cookie'] ?? [])[0] ?? '').split(';')[0]!;
}

beforeAll(async () => {
  t = await createTestApp();
  await t.reset();
  ada = await signup('ada');
  bob = await signup('bob');
}, 90_000);

afterAll(async () => {
  await t?.close();
}, 60_000);

describe('scenario labs', () => {
  it('should list the scenarios without their hints', async () => {
    const response = await http().get('/api/labs/scenarios').set('Cookie', ada).expect(200);
    const scenarios = response.body.scenarios as { id: string; maxScore: number }[];
    expect(scenarios.map((s) => s.id)).toEqual([
      'image-pull-backoff',
      'service-without-endpoints',
      'kubelet-stopped',
      'untolerated-taint',
    ]);
    expect(scenarios.every((s) => s.maxScore === 10)).toBe(true);
    expect(JSON.stringify(response.body)).not.toContain('hint');
    await http().get('/api/labs/scenarios').expect(401);
  });

  it('should answer 404 when the scenario does not exist', async () => {
    const response = await http()
      .post('/api/labs')
      .set('Cookie', ada)
      .send({ kind: 'scenario', scenarioId: 'no-such-scenario' });
    expect([response.status, response.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it(
    'should grade a broken lab as failed with hints and a fixed one as passed, recording both',
    { timeout: 120_000 },
    async () => {
      const created = await http()
        .post('/api/labs')
        .set('Cookie', ada)
        .send({ kind: 'scenario', scenarioId: 'service-without-endpoints' })
        .expect(201);
      const id = created.body.id as string;
      expect(created.body).toMatchObject({
        kind: 'scenario',
        scenarioId: 'service-without-endpoints',
      });
      await http()
        .post(`/api/labs/${id}/clock`)
        .set('Cookie', ada)
        .send({ action: 'pause' })
        .expect(200);

      // nothing graded yet
      const none = await http().get(`/api/labs/${id}/check`).set('Cookie', ada).expect(200);
      expect(none.body).toEqual({ last: null });
      const first = await http().post(`/api/labs/${id}/check`).set('Cookie', ada).expect(200);
      expect(first.body).toMatchObject({ attempt: 1, passed: false, score: 3, maxScore: 10 });
      // coming back to the exercise shows the attempt exactly as it was answered
      const again = await http().get(`/api/labs/${id}/check`).set('Cookie', ada).expect(200);
      expect(again.body).toEqual({ last: first.body });
      const [endpoints, ready] = first.body.objectives as {
        id: string;
        passed: boolean;
        hint: { en: string; 'zh-TW': string } | null;
      }[];
      expect(endpoints).toMatchObject({ id: 'service-endpoints', passed: false });
      expect(endpoints!.hint!.en).toMatch(/selector/);
      expect(ready).toMatchObject({ id: 'web-ready', passed: true, hint: null });
      // another learner can neither grade nor see it
      await http().post(`/api/labs/${id}/check`).set('Cookie', bob).expect(404);
      await http().get(`/api/labs/${id}/check`).set('Cookie', bob).expect(404);

      await http()
        .post(`/api/labs/${id}/exec`)
        .set('Cookie', ada)
        .send({ command: `kubectl patch service web -p '{"spec":{"selector":{"app":"web"}}}'` })
        .expect(200);
      await http()
        .post(`/api/labs/${id}/clock`)
        .set('Cookie', ada)
        .send({ action: 'step', ms: 10_000 })
        .expect(200);
      const second = await http().post(`/api/labs/${id}/check`).set('Cookie', ada).expect(200);
      expect(second.body).toMatchObject({ attempt: 2, passed: true, score: 10 });
      expect(
        (await http().get(`/api/labs/${id}/check`).set('Cookie', ada).expect(200)).body,
      ).toEqual({ last: second.body });
      expect((second.body.objectives as { hint: unknown }[]).every((o) => o.hint === null)).toBe(
        true,
      );

      const stored = await t.prisma.labCheck.findMany({
        where: { labId: id },
        orderBy: { seq: 'asc' },
      });
      expect(stored.map((c) => [c.seq, c.passed, c.score, c.maxScore])).toEqual([
        [1, false, 3, 10],
        [2, true, 10, 10],
      ]);
    },
  );

  it('should refuse to grade a sandbox with CONFLICT', async () => {
    const sandbox = await http().post('/api/labs').set('Cookie', ada).send({ kind: 'sandbox' });
    const response = await http().post(`/api/labs/${sandbox.body.id}/check`).set('Cookie', ada);
    expect([response.status, response.body.error.code]).toEqual([409, 'CONFLICT']);
    // and a sandbox has no attempts to show
    const last = await http().get(`/api/labs/${sandbox.body.id}/check`).set('Cookie', ada);
    expect([last.status, last.body]).toEqual([200, { last: null }]);
  });
});
