import type { TTraceEventPayload } from '@kubejourney/contracts';
import { describe, expect, it } from 'vitest';
import { buildJourney, formatSimTime, relatedItems } from './lab-journey.util';

let nextSeq = 1;
function ev(partial: Partial<TTraceEventPayload> & Pick<TTraceEventPayload, 'component' | 'verb'>) {
  const seq = nextSeq++;
  return { seq, t: seq * 10, message: `${partial.component} ${partial.verb}`, ...partial };
}

/** kubectl create -> the apiserver pipeline -> etcd -> respond, then the controller reacting. */
function applyJourney(): TTraceEventPayload[] {
  nextSeq = 1;
  const deploy = { kind: 'Deployment', namespace: 'default', name: 'web' };
  const request = ev({ component: 'kubectl', verb: 'create', object: deploy });
  const authn = ev({ component: 'kube-apiserver', verb: 'authenticate', causedBy: request.seq });
  const authz = ev({ component: 'kube-apiserver', verb: 'authorize', causedBy: authn.seq });
  const put = ev({ component: 'etcd', verb: 'etcd.put', causedBy: authz.seq });
  const respond = ev({
    component: 'kube-apiserver',
    verb: 'respond',
    causedBy: put.seq,
    message: 'CREATE deployments/web -> 201 Created',
  });
  const reconcile = ev({ component: 'kube-controller-manager', verb: 'create', causedBy: put.seq });
  const event = ev({
    component: 'kube-controller-manager',
    verb: 'create',
    causedBy: reconcile.seq,
    object: { kind: 'Event', namespace: 'default', name: 'web.1' },
  });
  const eventPut = ev({
    component: 'etcd',
    verb: 'etcd.put',
    causedBy: event.seq,
    object: event.object,
  });
  return [request, authn, authz, put, respond, reconcile, event, eventPut];
}

describe('buildJourney', () => {
  it('should collapse a request pipeline into one group when grouping is on', () => {
    const items = buildJourney(applyJourney(), { groupRequests: true, showEventWrites: false });
    expect(items.map((i) => [i.lane, i.events.length, i.isGroup])).toEqual([
      ['kubectl', 1, false],
      ['kube-apiserver', 4, true],
      ['kube-controller-manager', 1, false],
    ]);
    expect(items[1]?.touchesEtcd).toBe(true);
    expect(items[1]?.summary).toBe('CREATE deployments/web -> 201 Created');
    // the controller's event was caused by the etcd put, which lives in the group
    expect(items[2]?.causeId).toBe(items[1]?.id);
    expect(items[1]?.causeId).toBe(items[0]?.id);
  });

  it('should show every step and the Event writes when both toggles ask for it', () => {
    const events = applyJourney();
    const items = buildJourney(events, { groupRequests: false, showEventWrites: true });
    expect(items).toHaveLength(events.length);
    expect(items.map((i) => i.lane)).toContain('etcd');
  });

  it('should hide Event object writes and their steps when showEventWrites is off', () => {
    const items = buildJourney(applyJourney(), { groupRequests: false, showEventWrites: false });
    expect(items.some((i) => i.object?.kind === 'Event')).toBe(false);
    expect(items).toHaveLength(6);
  });
});

describe('background writes', () => {
  it.each([
    ['a Lease heartbeat', { kind: 'Lease', namespace: 'kube-node-lease', name: 'node-1' }, 0],
    ['a kube-system mirror Pod', { kind: 'Pod', namespace: 'kube-system', name: 'etcd-cp' }, 0],
    ['a Pod of the learner', { kind: 'Pod', namespace: 'default', name: 'web-1' }, 1],
  ])('should hide %s unless background writes are shown', (_case, object, shown) => {
    nextSeq = 1;
    const events = [ev({ component: 'kubelet', verb: 'update', object })];
    expect(buildJourney(events, { groupRequests: true, showEventWrites: false })).toHaveLength(
      shown,
    );
    expect(buildJourney(events, { groupRequests: true, showEventWrites: true })).toHaveLength(1);
  });
});

describe('relatedItems', () => {
  it('should include causes and descendants but not siblings when an item is selected', () => {
    const items = buildJourney(applyJourney(), { groupRequests: false, showEventWrites: true });
    // select the etcd put (seq 4): causes 3,2,1; descendants 5 (respond), 6, 7, 8
    expect([...relatedItems(items, 4)].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // select respond (seq 5): causes only, the controller is not its descendant
    expect([...relatedItems(items, 5)].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('formatSimTime', () => {
  it.each([
    [0, '0:00.000'],
    [1_234, '0:01.234'],
    [61_005, '1:01.005'],
    [3_600_000 + 5_000, '1:00:05.000'],
  ])('should print %i ms as %s', (ms, text) => {
    expect(formatSimTime(ms)).toBe(text);
  });
});
