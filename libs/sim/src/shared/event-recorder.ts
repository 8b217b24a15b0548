// client-go's EventRecorder with its correlator: components report what they did as v1 Events,
// which `kubectl describe` prints. Repeats of the same (object, reason, message, source) fold
// into one Event with a growing count. Upstream roles let components create/patch/update events
// but never get them, so the count is remembered here, in memory (and saved with the
// component's state), instead of being read back from the apiserver.

import type { ApiClient } from '../client/api-client';
import type { KubeEvent, KubeObject } from '../model';
import { hex16 } from './hash';

export interface EventSource {
  component: string;
  host?: string;
}

export interface RecordEventInput {
  involved: KubeObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  fieldPath?: string;
}

/** client-go's correlator keeps an LRU cache of this many events. */
const MAX_REMEMBERED = 4096;

/** The Event name for an occurrence: `<involved name>.<hash of what makes it the same event>`. */
export function eventName(source: EventSource, input: RecordEventInput): string {
  const { involved } = input;
  const key = [
    involved.metadata.uid,
    input.reason,
    input.message,
    source.component,
    source.host,
    input.fieldPath,
  ].join('|');
  return `${involved.metadata.name}.${hex16(key)}`;
}

export class EventRecorder {
  /** `<namespace>/<event name>` -> count already written, oldest first (LRU order) */
  private readonly counts = new Map<string, number>();

  record(client: ApiClient, nowIso: string, source: EventSource, input: RecordEventInput): void {
    const { involved } = input;
    const namespace = involved.metadata.namespace ?? 'default';
    const name = eventName(source, input);
    const key = `${namespace}/${name}`;
    const known = this.counts.get(key);
    if (known !== undefined) {
      const code = patchCount(client, namespace, name, known + 1, nowIso);
      if (code === 200) {
        this.remember(key, known + 1);
        return;
      }
      // gone (deleted, expired): create it afresh; any other failure drops this occurrence
      if (code !== 404) return;
      this.counts.delete(key);
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
        ...(input.fieldPath ? { fieldPath: input.fieldPath } : {}),
      },
      reason: input.reason,
      message: input.message,
      source: source.host
        ? { component: source.component, host: source.host }
        : { component: source.component },
      firstTimestamp: nowIso,
      lastTimestamp: nowIso,
      count: 1,
      type: input.type,
      reportingComponent: source.component,
      reportingInstance: source.host ?? '',
    };
    // only the code is read: no copy of the stored Event is made for the answer
    const res = client.request({
      verb: 'create',
      resource: 'events',
      namespace,
      body: event,
      readOnly: true,
      // the Event was built for this request: kept, not copied
      handOver: true,
    });
    if (res.code === 201 || res.code === 200) {
      this.remember(key, 1);
    } else if (res.code === 409) {
      // written before this process's memory (a restarted component): count on from there
      if (patchCount(client, namespace, name, 2, nowIso) === 200) this.remember(key, 2);
    }
  }

  private remember(key: string, count: number): void {
    this.counts.delete(key);
    this.counts.set(key, count);
    if (this.counts.size > MAX_REMEMBERED) {
      const oldest = this.counts.keys().next().value as string;
      this.counts.delete(oldest);
    }
  }

  /** Saved state: entries in LRU order (deterministic: insertion order is simulation order). */
  toJSON(): [string, number][] {
    return [...this.counts.entries()];
  }

  static fromJSON(entries: [string, number][] | undefined | null): EventRecorder {
    const r = new EventRecorder();
    for (const [k, v] of entries ?? []) r.counts.set(k, v);
    return r;
  }
}

function patchCount(
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
    readOnly: true,
  }).code;
}
