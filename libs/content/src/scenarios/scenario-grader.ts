import type { SimLab } from '@kubejourney/sim';
import type { TScenario, TScenarioCheck } from './scenario.schema';

// Grading runs on the server, over the lab's state: each objective's check reads the objects the
// learner could read with kubectl (pods, endpoints, nodes). The browser never posts a score.

export interface TObjectiveGrade {
  id: string;
  passed: boolean;
  points: number;
}

export interface TScenarioGrade {
  passed: boolean;
  score: number;
  maxScore: number;
  objectives: TObjectiveGrade[];
}

type TObj = {
  metadata?: { labels?: Record<string, string>; deletionTimestamp?: string };
  spec?: { taints?: { key: string; effect: string }[] };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string }[];
    containerStatuses?: { ready?: boolean }[];
  };
  subsets?: { addresses?: unknown[] }[];
};

function matches(labels: Record<string, string> | undefined, selector: Record<string, string>) {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

function isPodReady(pod: TObj): boolean {
  const statuses = pod.status?.containerStatuses ?? [];
  return (
    pod.status?.phase === 'Running' &&
    !pod.metadata?.deletionTimestamp &&
    statuses.length > 0 &&
    statuses.every((c) => c.ready === true)
  );
}

export function checkLab(lab: SimLab, check: TScenarioCheck): boolean {
  switch (check.kind) {
    case 'podsReady': {
      const pods = lab.peekAll('pods', check.namespace) as TObj[];
      const ready = pods.filter(
        (p) => matches(p.metadata?.labels, check.selector) && isPodReady(p),
      );
      return ready.length >= check.count;
    }
    case 'serviceHasEndpoints': {
      const endpoints = lab.peek('endpoints', check.namespace, check.name) as TObj | undefined;
      return (endpoints?.subsets ?? []).some((s) => (s.addresses ?? []).length > 0);
    }
    case 'nodeReady': {
      const node = lab.peek('nodes', undefined, check.node) as TObj | undefined;
      const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
      return ready?.status === 'True';
    }
    case 'nodeHasTaint': {
      const node = lab.peek('nodes', undefined, check.node) as TObj | undefined;
      return (node?.spec?.taints ?? []).some(
        (t) => t.key === check.key && t.effect === check.effect,
      );
    }
  }
}

export function gradeScenario(scenario: TScenario, lab: SimLab): TScenarioGrade {
  const objectives = scenario.objectives.map((o) => ({
    id: o.id,
    passed: checkLab(lab, o.check),
    points: o.points,
  }));
  const score = objectives.filter((o) => o.passed).reduce((sum, o) => sum + o.points, 0);
  const maxScore = objectives.reduce((sum, o) => sum + o.points, 0);
  return { passed: score === maxScore, score, maxScore, objectives };
}
