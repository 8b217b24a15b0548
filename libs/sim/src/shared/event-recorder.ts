// client-go's EventRecorder, simplified: components report what they did as v1 Events, which
// `kubectl describe` prints. Repeats of the same (object, reason, message, source) are folded into
// one Event with a growing count, like the real event correlator.

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

export function recordEvent(
  client: ApiClient,
  nowIso: string,
  source: EventSource,
  input: RecordEventInput,
): void {
  const { involved } = input;
  const namespace = involved.metadata.namespace ?? 'default';
  const key = [
    involved.metadata.uid,
    input.reason,
    input.message,
    source.component,
    source.host,
    input.fieldPath,
  ].join('|');
  const name = `${involved.metadata.name}.${hex16(key)}`;
  const existing = client.request({ verb: 'get', resource: 'events', namespace, name });
  if (existing.code === 200) {
    const ev = existing.body as KubeEvent;
    client.request({
      verb: 'patch',
      resource: 'events',
      namespace,
      name,
      patchType: 'merge',
      body: { count: (ev.count ?? 1) + 1, lastTimestamp: nowIso },
    });
    return;
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
  client.request({ verb: 'create', resource: 'events', namespace, body: event });
}
