import type { TTraceEventPayload } from '@kubejourney/contracts';

// The journey timeline's model: trace events turned into marks on seven lanes. One API request
// leaves a chain of steps inside the apiserver (authenticate -> authorize -> admission -> validate
// -> etcd write -> respond); drawn one by one they drown the story, so by default each chain is one
// expandable group. Writes of Event objects (the `kubectl describe` Events) and of the kubelets'
// Lease heartbeats, and the control plane's own kube-system objects, are hidden unless asked.

export const JOURNEY_LANES = [
  'kubectl',
  'kube-apiserver',
  'etcd',
  'kube-controller-manager',
  'kube-scheduler',
  'kubelet',
  'kube-proxy',
] as const;
export type TJourneyLane = (typeof JOURNEY_LANES)[number];

/** The apiserver's request pipeline, as libs/sim/src/apiserver traces it. */
const PIPELINE_VERBS = new Set([
  'authenticate',
  'authorize',
  'admission.mutating',
  'admission.validating',
  'validate',
  'etcd.put',
  'etcd.delete',
  'etcd.error',
  'respond',
]);

/** Event objects and the kubelets' Lease heartbeats: written all the time, rarely the story. */
const NOISE_KINDS = new Set(['Event', 'Lease']);

/** Background writes: Events, Lease heartbeats and the control plane's own kube-system objects. */
export function isBackground(event: TTraceEventPayload): boolean {
  return NOISE_KINDS.has(event.object?.kind ?? '') || event.object?.namespace === 'kube-system';
}

export function isPipelineEvent(event: TTraceEventPayload): boolean {
  return (
    (event.component === 'kube-apiserver' || event.component === 'etcd') &&
    PIPELINE_VERBS.has(event.verb)
  );
}

export type TJourneyItem = {
  /** the seq of the first event: stable key and anchor for causes */
  id: number;
  lane: TJourneyLane;
  /** a group also reaches the etcd lane when it wrote there */
  touchesEtcd: boolean;
  events: TTraceEventPayload[];
  /** the item holding the event that caused this one, when it is shown */
  causeId: number | null;
  isGroup: boolean;
  /** the text to show: the respond line for a request, the event's message otherwise */
  summary: string;
  t: number;
  object: TTraceEventPayload['object'];
};

export type TJourneyOptions = { groupRequests: boolean; showEventWrites: boolean };

function laneOf(component: string): TJourneyLane {
  return (JOURNEY_LANES as readonly string[]).includes(component)
    ? (component as TJourneyLane)
    : 'kube-apiserver';
}

export function buildJourney(
  events: readonly TTraceEventPayload[],
  options: TJourneyOptions,
): TJourneyItem[] {
  const items: TJourneyItem[] = [];
  /** seq -> the item that shows it */
  const owner = new Map<number, TJourneyItem>();
  /** request groups still waiting for their `respond` */
  const open = new Map<number, TJourneyItem>();

  for (const event of events) {
    // Every step of a write carries its object, so a hidden write hides with all its steps.
    if (!options.showEventWrites && isBackground(event)) continue;
    const cause = event.causedBy === undefined ? undefined : owner.get(event.causedBy);
    if (options.groupRequests && isPipelineEvent(event)) {
      const group = event.causedBy === undefined ? undefined : open.get(event.causedBy);
      if (group) {
        group.events.push(event);
        if (event.component === 'etcd') group.touchesEtcd = true;
        open.delete(event.causedBy as number);
        if (event.verb === 'respond') group.summary = event.message;
        else open.set(event.seq, group);
        owner.set(event.seq, group);
        continue;
      }
    }
    const item: TJourneyItem = {
      id: event.seq,
      lane: laneOf(event.component),
      touchesEtcd: event.component === 'etcd',
      events: [event],
      causeId: cause ? cause.id : null,
      isGroup: options.groupRequests && isPipelineEvent(event),
      summary: event.message,
      t: event.t,
      object: event.object,
    };
    items.push(item);
    owner.set(event.seq, item);
    if (item.isGroup && event.verb !== 'respond') open.set(event.seq, item);
  }
  return items;
}

/** The ids of an item's causes and of everything it caused, for highlighting on hover/focus. */
export function relatedItems(items: readonly TJourneyItem[], id: number): Set<number> {
  const byId = new Map(items.map((item) => [item.id, item]));
  const related = new Set<number>([id]);
  for (let cur = byId.get(id); cur && cur.causeId !== null; cur = byId.get(cur.causeId)) {
    if (related.has(cur.causeId)) break;
    related.add(cur.causeId);
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const item of items) {
      if (item.causeId !== null && related.has(item.causeId) && !related.has(item.id)) {
        // Only descendants of the selected item, not siblings through its causes.
        if (isDescendant(byId, item, id)) {
          related.add(item.id);
          grew = true;
        }
      }
    }
  }
  return related;
}

function isDescendant(byId: Map<number, TJourneyItem>, item: TJourneyItem, root: number): boolean {
  for (let cur: TJourneyItem | undefined = item; cur;) {
    if (cur.id === root) return true;
    if (cur.causeId === null) return false;
    cur = byId.get(cur.causeId);
  }
  return false;
}

/** Simulated milliseconds as the clock shows them: `m:ss.mmm` (hours when needed). */
export function formatSimTime(ms: number): string {
  const total = Math.max(0, Math.floor(ms));
  const millis = String(total % 1000).padStart(3, '0');
  const seconds = Math.floor(total / 1000) % 60;
  const minutes = Math.floor(total / 60_000) % 60;
  const hours = Math.floor(total / 3_600_000);
  const mmss = `${minutes}:${String(seconds).padStart(2, '0')}.${millis}`;
  return hours > 0 ? `${hours}:${mmss.padStart(9, '0')}` : mmss;
}

/** `Deployment default/web` for an object reference. */
export function formatObject(object: TTraceEventPayload['object']): string {
  if (!object) return '';
  return `${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`;
}
