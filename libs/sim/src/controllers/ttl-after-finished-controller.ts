// The TTL-after-finished controller (k/k pkg/controller/ttlafterfinished): a Job with
// ttlSecondsAfterFinished is deleted that many seconds after it completed or failed; the
// garbage collector then removes its pods.

import type { WatchEvent } from '../client/api-client';
import type { Job } from '../model';
import { parseIso } from '../shared/time';
import {
  BaseController,
  isOk,
  keyOf,
  type Pass,
  refOf,
  splitKey,
  type SyncResult,
} from './base-controller';

/** When a finished Job expires (epoch ms), or undefined when it never does (yet). */
export function jobExpiresAt(job: Job): number | undefined {
  const ttl = job.spec.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null) return undefined;
  const finished = job.status?.conditions?.find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  );
  if (!finished) return undefined;
  const at = parseIso(job.status?.completionTime ?? finished.lastTransitionTime);
  return Number.isNaN(at) ? undefined : at + ttl * 1000;
}

export class TtlAfterFinishedController extends BaseController {
  readonly controllerName = 'ttlafterfinished';
  readonly eventSource = 'ttl-after-finished-controller';
  readonly periodMs = 10_000;

  constructor() {
    super(['jobs']);
  }

  protected keysFor(_resource: string, ev: WatchEvent): string[] {
    return ev.type === 'DELETED' || jobExpiresAt(ev.object as Job) === undefined
      ? []
      : [keyOf(ev.object)];
  }

  protected allKeys(): string[] {
    return this.informer<Job>('jobs')
      .list((j) => jobExpiresAt(j) !== undefined)
      .map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const { namespace, name } = splitKey(key);
    const job = this.informer<Job>('jobs').get(namespace, name);
    if (!job || job.metadata.deletionTimestamp) return 'done';
    const expires = jobExpiresAt(job);
    if (expires === undefined) return 'done';
    const nowEpoch = pass.nowEpoch;
    if (nowEpoch < expires) {
      pass.requeueAt(key, pass.now + (expires - nowEpoch));
      return 'done';
    }
    const res = pass.write(
      {
        verb: 'delete',
        resource: 'jobs',
        namespace,
        name,
        query: { propagationPolicy: 'Background' },
      },
      refOf(job),
      `Deleting Job ${name}: finished more than ttlSecondsAfterFinished=${job.spec.ttlSecondsAfterFinished}s ago`,
      cause,
    );
    return isOk(res) || res.code === 404 ? 'done' : 'retry';
  }
}
