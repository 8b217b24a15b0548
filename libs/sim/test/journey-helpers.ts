// Shared helpers for the simulator's end-to-end tests (journey, golden traces, properties).

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SimLab } from '../src/lab/lab';
import type { KubeObject, Pod } from '../src/model';
import type { TraceEvent } from '../src/trace/trace-event';

export const ADMIN = 'kubernetes-admin';

export function deployment(
  name: string,
  replicas: number,
  image = 'nginx:1.27',
  requests?: Record<string, string>,
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'web',
              image,
              ports: [{ containerPort: 80 }],
              ...(requests ? { resources: { requests } } : {}),
            },
          ],
        },
      },
    },
  };
}

export function service(name: string, app: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name },
    spec: { selector: { app }, ports: [{ port: 80, targetPort: 80 }] },
  };
}

export function pods(lab: SimLab, namespace = 'default'): Pod[] {
  return lab.peekAll('pods', namespace) as Pod[];
}

export function isReadyRunning(p: Pod): boolean {
  return (
    p.status?.phase === 'Running' &&
    (p.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

/** Advances in small steps until `done` holds; returns the sim ms it took, or null. */
export function advanceUntil(
  lab: SimLab,
  done: () => boolean,
  limitMs: number,
  stepMs = 50,
): number | null {
  const start = lab.now;
  while (lab.now - start <= limitMs) {
    if (done()) return lab.now - start;
    lab.advance(stepMs);
  }
  return done() ? lab.now - start : null;
}

/** Walks causedBy links from an event back to the root. */
export function causeChain(events: TraceEvent[], seq: number): number[] {
  const bySeq = new Map(events.map((e) => [e.seq, e]));
  const chain: number[] = [];
  let cur = bySeq.get(seq);
  while (cur) {
    chain.push(cur.seq);
    cur = cur.causedBy !== undefined ? bySeq.get(cur.causedBy) : undefined;
  }
  return chain;
}

const PIPELINE = new Set([
  'authenticate',
  'authorize',
  'admission.mutating',
  'admission.validating',
  'validate',
  'respond',
]);

/**
 * The journey as golden text: the learner's own request in full, then what each component did
 * (their apiserver round trips and Event bookkeeping are left out to keep the file readable).
 */
export function goldenLines(events: TraceEvent[], rootSeq: number, respondSeq: number): string[] {
  return events
    .filter((e) => {
      if (e.object?.kind === 'Event') return false;
      if (e.seq >= rootSeq && e.seq <= respondSeq) return true;
      if (e.component === 'kube-apiserver' && PIPELINE.has(e.verb)) return false;
      if (e.component === 'etcd') return false;
      return true;
    })
    .map((e) => {
      const obj = e.object
        ? ` ${e.object.kind}/${e.object.namespace ? `${e.object.namespace}/` : ''}${e.object.name}`
        : '';
      const node = e.node ? `@${e.node}` : '';
      return `${String(e.t).padStart(6)}ms ${e.component}${node} ${e.verb}${obj}: ${e.message}`;
    });
}

/** kwok-style golden comparison: UPDATE_GOLDEN=1 rewrites the file. */
export function matchGolden(name: string, actual: string): { expected: string; actual: string } {
  const file = join(__dirname, '..', 'testdata', name);
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(file)) writeFileSync(file, actual);
  return { expected: readFileSync(file, 'utf8'), actual };
}
