// The article's final sequence diagram, end to end: `kubectl apply` of a 3-replica Deployment by
// kubernetes-admin, through every station, to 3/3 Running pods behind a Service.

import { describe, expect, it } from 'vitest';
import { createLab } from '../src/lab/lab';
import type { SimLab } from '../src/lab/lab';
import type { Endpoints, KubeObject, Pod } from '../src/model';
import {
  ADMIN,
  advanceUntil,
  causeChain,
  deployment,
  goldenLines,
  isReadyRunning,
  matchGolden,
  pods,
  service,
} from './journey-helpers';

interface Journey {
  lab: SimLab;
  rootSeq: number;
  respondSeq: number;
  etcdSeq: number;
  startT: number;
  revisionBefore: number;
  runningAfter: number | null;
}

function runJourney(seed = 7): Journey {
  const lab = createLab({ seed });
  lab.advance(5_000); // nodes register and become Ready
  lab.request(ADMIN, {
    verb: 'create',
    resource: 'services',
    namespace: 'default',
    body: service('my-app', 'my-app'),
  });
  lab.advance(1_000);
  const before = lab.trace().at(-1)?.seq ?? 0;
  const startT = lab.now;
  const revisionBefore = lab.apiserver.revision;
  const res = lab.request(ADMIN, {
    verb: 'create',
    resource: 'deployments',
    namespace: 'default',
    body: deployment('my-app', 3),
  });
  expect(res.code).toBe(201);
  const own = lab.trace(before);
  const rootSeq = own[0]!.seq;
  const runningAfter = advanceUntil(
    lab,
    () => pods(lab).filter(isReadyRunning).length === 3,
    10_000,
    50,
  );
  lab.advance(2_000); // endpoints and kube-proxy catch up
  return {
    lab,
    rootSeq,
    respondSeq: own.find((e) => e.verb === 'respond')!.seq,
    etcdSeq: own.find((e) => e.verb === 'etcd.put')!.seq,
    startT,
    revisionBefore,
    runningAfter,
  };
}

describe('the journey of kubectl apply (全程回顧)', () => {
  const j = runJourney();
  const events = j.lab.trace();

  it('should trace authenticate -> authorize -> mutating -> validating -> etcd write with quorum -> response for the request', () => {
    const own = events.filter((e) => e.seq >= j.rootSeq && e.seq <= j.respondSeq);
    expect(own.map((e) => e.verb)).toEqual([
      'authenticate',
      'authorize',
      'admission.mutating',
      'admission.validating',
      'etcd.put',
      'respond',
    ]);
    expect(own[0]!.data).toMatchObject({ user: ADMIN });
    expect(own[4]!.data).toMatchObject({
      key: '/registry/deployments/default/my-app',
      quorum: 1,
      members: ['control-plane'],
    });
    expect(own[5]!.data).toMatchObject({ code: 201 });
  });

  it('should answer 201 before any Pod exists (apply returns when the wish is recorded)', () => {
    const firstPodPut = events.find(
      (e) =>
        e.verb === 'etcd.put' &&
        String(e.data?.['key']).startsWith('/registry/pods/default/my-app-'),
    );
    expect(firstPodPut!.seq).toBeGreaterThan(j.respondSeq);
    expect(firstPodPut!.t).toBeGreaterThan(j.startT);
  });

  it('should create ReplicaSet <name>-<pod-template-hash> and 3 pods <rs>-<5 chars>', () => {
    const rs = j.lab.peekAll('replicasets', 'default');
    expect(rs).toHaveLength(1);
    const hash = rs[0]!.metadata.labels?.['pod-template-hash'];
    expect(rs[0]!.metadata.name).toBe(`my-app-${hash}`);
    const names = pods(j.lab).map((p) => p.metadata.name);
    expect(names).toHaveLength(3);
    for (const n of names)
      expect(n).toMatch(new RegExp(`^my-app-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
  });

  it('should store each pod first without a nodeName (Pending) and have the scheduler bind it', () => {
    const history = j.lab.apiserver
      .client({ kind: 'cert', certId: 'kubernetes-admin' }, ADMIN)
      .watch('pods', j.revisionBefore, { namespace: 'default' });
    if (!Array.isArray(history)) throw new Error('watch failed');
    for (const p of pods(j.lab)) {
      const first = history.find((ev) => ev.object.metadata.name === p.metadata.name)!;
      expect(first.type).toBe('ADDED');
      expect((first.object as Pod).spec.nodeName).toBeUndefined();
      expect((first.object as Pod).status?.phase).toBe('Pending');
      const puts = events.filter(
        (e) =>
          e.verb === 'etcd.put' && e.data?.['key'] === `/registry/pods/default/${p.metadata.name}`,
      );
      const creator = causeChain(events, puts[0]!.seq)
        .map((seq) => events.find((e) => e.seq === seq)!)
        .find((e) => e.component !== 'kube-apiserver' && e.component !== 'etcd');
      expect(creator).toMatchObject({ component: 'kube-controller-manager', verb: 'create' });
      const bind = events.find(
        (e) =>
          e.component === 'kube-scheduler' &&
          e.verb === 'bind' &&
          e.object?.name === p.metadata.name,
      );
      expect(bind).toBeDefined();
      const decision = j.lab.scheduler!.decisionFor('default', p.metadata.name!);
      expect(decision?.node).toBe(p.spec.nodeName);
      expect(decision?.nodes.length).toBe(4);
    }
  });

  it('should give each pod an IP from its node pod CIDR through CNI', () => {
    for (const p of pods(j.lab)) {
      const host = j.lab.node(p.spec.nodeName!)!;
      const prefix = host.podCIDR.replace(/0\/24$/, '');
      expect(p.status?.podIP?.startsWith(prefix)).toBe(true);
    }
  });

  it('should reach 3/3 Running in about 2 simulated seconds with cached images', () => {
    expect(j.runningAfter).not.toBeNull();
    expect(j.runningAfter!).toBeLessThanOrEqual(3_000);
    expect(j.runningAfter!).toBeGreaterThanOrEqual(500);
  });

  it('should chain every container start back to the learner request through causedBy', () => {
    const starts = events.filter(
      (e) =>
        e.component === 'kubelet' &&
        e.verb === 'start-container' &&
        e.object?.name?.startsWith('my-app-'),
    );
    expect(starts).toHaveLength(3);
    for (const s of starts) expect(causeChain(events, s.seq)).toContain(j.etcdSeq);
  });

  it('should put the ready pods in the Service endpoints and have kube-proxy on every node write the rules', () => {
    const ep = j.lab.peek('endpoints', 'default', 'my-app') as Endpoints;
    const ips = (ep.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip)).sort();
    expect(ips).toEqual(
      pods(j.lab)
        .map((p) => p.status!.podIP!)
        .sort(),
    );
    const svcIP = (
      (j.lab.peek('services', 'default', 'my-app') as KubeObject)['spec'] as { clusterIP: string }
    ).clusterIP;
    for (const host of j.lab.nodes()) {
      const rules = host.iptables.save({ table: 'nat' });
      expect(rules).toContain(
        `-A KUBE-SERVICES -d ${svcIP}/32 -p tcp -m comment --comment "default/my-app cluster IP" -m tcp --dport 80 -j KUBE-SVC-`,
      );
      expect(rules).toContain('-m statistic --mode random --probability 0.33333333349');
      expect(
        rules.match(
          /^-A KUBE-SEP-[A-Z0-9]+ -p tcp -m comment --comment default\/my-app -m tcp -j DNAT/gm,
        )?.length,
      ).toBe(3);
    }
  });

  it('should produce the same journey as the golden trace (UPDATE_GOLDEN=1 to refresh)', () => {
    const text = `${goldenLines(
      events.filter((e) => e.seq >= j.rootSeq),
      j.rootSeq,
      j.respondSeq,
    ).join('\n')}\n`;
    const { expected, actual } = matchGolden('journey.golden.txt', text);
    expect(actual).toBe(expected);
  });

  it('should replay byte for byte with the same seed', () => {
    expect(runJourney().lab.serialize()).toBe(j.lab.serialize());
  }, 60_000);
});
