// The scheduler's event sink with client-go's correlator kept in memory: the first occurrence of
// an (object, reason, message) creates the Event, repeats PATCH its count and lastTimestamp. The
// kube-scheduler ClusterRole may create/patch/update events but not get them, so the count has to
// be remembered here (and saved with the lab) instead of read back from the apiserver.

import type { ApiClient } from '../client/api-client';
import type { KubeEvent, KubeObject } from '../model';
import { hex16 } from '../shared/hash';

export const SCHEDULER_EVENT_SOURCE = 'default-scheduler';

export interface SchedulerEventInput {
  involved: KubeObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

export class SchedulerEventSink {
  /** event name -> count already written */
  private readonly counts = new Map<string, number>();

  record(client: ApiClient, nowIso: string, input: SchedulerEventInput): void {
    const { involved } = input;
    const namespace = involved.metadata.namespace ?? 'default';
    // Same naming as shared/event-recorder, so every component's events look alike.
    const key = [
      involved.metadata.uid,
      input.reason,
      input.message,
      SCHEDULER_EVENT_SOURCE,
      undefined,
      undefined,
    ].join('|');
    const name = `${involved.metadata.name}.${hex16(key)}`;
    const known = this.counts.get(name);
    if (known !== undefined) {
      const res = this.patch(client, namespace, name, known + 1, nowIso);
      if (res === 200) {
        this.counts.set(name, known + 1);
        return;
      }
      if (res !== 404) return;
    }
    const event: KubeEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        kind: involved.kind,
        namespace: involved.metadata.namespace,
        name: involved.metadata.name,
        uid: involved.metadata.uid,
        apiVersion: involved.apiVersion,
        resourceVersion: involved.metadata.resourceVersion,
      },
      reason: input.reason,
      message: input.message,
      source: { component: SCHEDULER_EVENT_SOURCE },
      firstTimestamp: nowIso,
      lastTimestamp: nowIso,
      count: 1,
      type: input.type,
      reportingComponent: SCHEDULER_EVENT_SOURCE,
      reportingInstance: '',
    };
    const res = client.request({ verb: 'create', resource: 'events', namespace, body: event });
    if (res.code === 201 || res.code === 200) {
      this.counts.set(name, 1);
    } else if (res.code === 409) {
      // written before this scheduler's memory (e.g. after a restart): count on from there
      if (this.patch(client, namespace, name, 2, nowIso) === 200) this.counts.set(name, 2);
    }
  }

  private patch(
    client: ApiClient,
    namespace: string,
    name: string,
    count: number,
    nowIso: string,
  ): number {
    return client.request({
      verb: 'patch',
      resource: 'events',
      namespace,
      name,
      patchType: 'merge',
      body: { count, lastTimestamp: nowIso },
    }).code;
  }

  toJSON(): [string, number][] {
    return [...this.counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  static fromJSON(entries: [string, number][] | undefined): SchedulerEventSink {
    const sink = new SchedulerEventSink();
    for (const [k, v] of entries ?? []) sink.counts.set(k, v);
    return sink;
  }
}
