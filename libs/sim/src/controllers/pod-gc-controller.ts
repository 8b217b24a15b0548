// The pod garbage collector (k/k pkg/controller/podgc): pods bound to a node that no longer
// exists (after a 40 s quarantine) are marked Failed and force-deleted — nobody else could ever
// finish them — and so are terminating pods that were never scheduled.

import type { WatchEvent } from '../client/api-client';
import type { KubeObject, Node, Pod } from '../model';
import type { ObservedChange } from '../runtime/component';
import {
  BaseController,
  deepClone,
  isOk,
  keyOf,
  type Pass,
  refOf,
  type SyncResult,
} from './base-controller';

export const ORPHAN_QUARANTINE_MS = 40_000;

/** A node gone, or a pod terminating that was never scheduled (nobody else will finish it). */
function callsForSweep(resource: string, type: string, object: KubeObject): boolean {
  if (resource === 'nodes') return type === 'DELETED';
  const pod = object as Pod;
  return type !== 'DELETED' && !!pod.metadata.deletionTimestamp && !pod.spec.nodeName;
}

export class PodGcController extends BaseController {
  readonly controllerName = 'podgc';
  readonly eventSource = 'pod-garbage-collector';
  readonly periodMs = 20_000;
  /** node name → sim time it was first seen missing */
  private missingSince = new Map<string, number>();

  constructor() {
    super(['pods', 'nodes']);
  }

  /** Upstream PodGC is a periodic sweep: only the changes that call for one wake it early. */
  override wakeOn({ resource, type, object }: ObservedChange): boolean {
    return callsForSweep(resource, type, object);
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    return callsForSweep(resource, ev.type, ev.object) ? ['*'] : [];
  }

  protected allKeys(): string[] {
    return ['*'];
  }

  protected syncKey(_key: string, pass: Pass, cause: number | undefined): SyncResult {
    const nodes = new Set(
      this.informer<Node>('nodes')
        .list()
        .map((n) => n.metadata.name as string),
    );
    const pods = this.informer<Pod>('pods')
      .list()
      .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
    let ok = true;
    const missingNow = new Set<string>();
    for (const pod of pods) {
      const node = pod.spec.nodeName;
      if (!node) {
        if (pod.metadata.deletionTimestamp)
          ok = this.forceDelete(pod, pass, cause, 'it was never scheduled') && ok;
        continue;
      }
      if (nodes.has(node)) continue;
      missingNow.add(node);
      const since = this.missingSince.get(node) ?? pass.now;
      this.missingSince.set(node, since);
      if (pass.now - since < ORPHAN_QUARANTINE_MS) {
        pass.requeueAt('*', since + ORPHAN_QUARANTINE_MS);
        continue;
      }
      // Quarantine over: make sure the node is really gone before deleting its pods.
      const live = pass.ctx.client.request({ verb: 'get', resource: 'nodes', name: node });
      if (live.code !== 404) {
        if (live.code === 200) this.missingSince.delete(node);
        else ok = false;
        continue;
      }
      ok = this.markFailedAndDelete(pod, pass, cause) && ok;
    }
    for (const node of [...this.missingSince.keys()])
      if (!missingNow.has(node)) this.missingSince.delete(node);
    return ok ? 'done' : 'retry';
  }

  private markFailedAndDelete(pod: Pod, pass: Pass, cause?: number): boolean {
    if (pod.status?.phase !== 'Failed' && pod.status?.phase !== 'Succeeded') {
      const updated = deepClone(pod);
      updated.status = {
        ...(updated.status ?? {}),
        phase: 'Failed',
        conditions: [
          ...(updated.status?.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget'),
          {
            type: 'DisruptionTarget',
            status: 'True',
            lastTransitionTime: pass.ctx.nowIso,
            reason: 'DeletionByPodGC',
            message: 'PodGC: node no longer exists',
          },
        ],
      };
      const res = pass.write(
        {
          verb: 'update',
          resource: 'pods',
          subresource: 'status',
          namespace: pod.metadata.namespace,
          name: pod.metadata.name,
          body: updated,
        },
        refOf(pod),
        `Marking Pod ${keyOf(pod)} Failed: its node ${pod.spec.nodeName} no longer exists`,
        cause,
      );
      if (res.code === 404) return true;
      if (!isOk(res)) return false;
    }
    return this.forceDelete(pod, pass, cause, `its node ${pod.spec.nodeName} no longer exists`);
  }

  private forceDelete(pod: Pod, pass: Pass, cause: number | undefined, why: string): boolean {
    const res = pass.write(
      {
        verb: 'delete',
        resource: 'pods',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
        query: { gracePeriodSeconds: 0 },
      },
      refOf(pod),
      `Force-deleting Pod ${keyOf(pod)}: ${why}`,
      cause,
    );
    return isOk(res) || res.code === 404;
  }

  protected override saveExtra(): unknown {
    return [...this.missingSince].sort(([a], [b]) => (a < b ? -1 : 1));
  }

  protected override loadExtra(extra: unknown): void {
    this.missingSince = new Map((extra as [string, number][] | undefined) ?? []);
  }
}
