// The taint eviction controller (k/k pkg/controller/tainteviction, the former "taint manager"):
// pods on a node with NoExecute taints are deleted — at once when some taint is not tolerated,
// or after the shortest tolerationSeconds of the tolerations used. Every pod gets
// `node.kubernetes.io/unreachable:NoExecute for 300s` from admission, which is why pods of a dead
// node are evicted about five minutes after it went NotReady; their ReplicaSet then recreates them
// on healthy nodes. Timers are kept in memory, as upstream: a restart starts them again.

import type { WatchEvent } from '../client/api-client';
import type { Node, Pod, Taint, Toleration } from '../model';
import type { CurrentObjects, ObservedChange } from '../runtime/component';
import type { Pass } from './base-controller';
import { BaseController, deepClone, isOk, keyOf, refOf, type SyncResult } from './base-controller';
import { byNodeName, Index } from './indexer';

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

export type EvictionDecision =
  | { kind: 'none' } // no NoExecute taint: nothing to do (cancel any timer)
  | { kind: 'now' } // some taint is not tolerated
  | { kind: 'after'; ms: number } // tolerated for the shortest tolerationSeconds
  | { kind: 'never' }; // tolerated forever

/** processPodOnNode: GetMatchingTolerations + getMinTolerationTime. */
export function evictionDecision(
  tolerations: Toleration[],
  noExecuteTaints: Taint[],
): EvictionDecision {
  if (noExecuteTaints.length === 0) return { kind: 'none' };
  const used: Toleration[] = [];
  for (const taint of noExecuteTaints) {
    const match = tolerations.find((t) => toleratesTaint(t, taint));
    if (!match) return { kind: 'now' };
    used.push(match);
  }
  let min = Infinity;
  for (const t of used) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
    if (t.tolerationSeconds <= 0) return { kind: 'after', ms: 0 };
    min = Math.min(min, t.tolerationSeconds);
  }
  return min === Infinity ? { kind: 'never' } : { kind: 'after', ms: min * 1000 };
}

function hasNoExecuteTaint(current: CurrentObjects, nodeName: string | undefined): boolean {
  if (!nodeName) return false;
  const taints = (current.get('nodes', undefined, nodeName) as Node | undefined)?.spec?.taints;
  if (taints == null) return false;
  // an index loop over the node's frozen taints, not some with a closure: asked of every pod change
  for (let i = 0; i < taints.length; i++)
    if ((taints[i] as Taint).effect === 'NoExecute') return true;
  return false;
}

interface Scheduled {
  createdAt: number;
  fireAt: number;
  cause?: number;
}

export class TaintEvictionController extends BaseController {
  readonly controllerName = 'tainteviction';
  readonly eventSource = 'taint-eviction-controller';
  readonly periodMs = 10_000;
  private readonly podsByNode = new Index(byNodeName);
  private scheduled = new Map<string, Scheduled>();

  constructor() {
    super(['nodes', 'pods']);
  }

  protected override observe(resource: string, events: WatchEvent[]): void {
    if (resource === 'pods') this.podsByNode.apply(events);
  }

  /**
   * A pod change concerns it only on a node with NoExecute taints, or while its eviction is
   * timed (upstream's handlers, too, drop pods of untainted nodes).
   */
  override wakeOn({ resource, object, prev }: ObservedChange, current: CurrentObjects): boolean {
    if (resource !== 'pods') return true;
    return (
      this.scheduled.has(keyOf(object)) ||
      hasNoExecuteTaint(current, (object as Pod).spec?.nodeName) ||
      (prev !== undefined && hasNoExecuteTaint(current, (prev as Pod).spec?.nodeName))
    );
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    if (resource === 'pods') return [`pod/${keyOf(ev.object)}`];
    return this.podsByNode.sortedKeys(ev.object.metadata.name as string).map((k) => `pod/${k}`);
  }

  protected allKeys(): string[] {
    return this.informer<Node>('nodes')
      .list((n) => (n.spec?.taints ?? []).some((t) => t.effect === 'NoExecute'))
      .flatMap((n) => this.podsByNode.sortedKeys(n.metadata.name as string).map((k) => `pod/${k}`));
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const podKey = key.slice(4);
    const pod = this.informer<Pod>('pods').getByKey(podKey);
    if (!pod || pod.metadata.deletionTimestamp || !pod.spec.nodeName) {
      this.scheduled.delete(podKey);
      return 'done';
    }
    const node = this.informer<Node>('nodes').get(undefined, pod.spec.nodeName);
    const taints = (node?.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
    const decision = evictionDecision(pod.spec.tolerations ?? [], taints);
    const existing = this.scheduled.get(podKey);
    switch (decision.kind) {
      case 'none':
      case 'never':
        if (existing) this.cancel(pod, pass, cause);
        return 'done';
      case 'now':
        this.scheduled.set(podKey, {
          createdAt: existing?.createdAt ?? pass.now,
          fireAt: pass.now,
          cause,
        });
        return 'done';
      case 'after': {
        // An existing timer keeps its start: new taints never postpone an eviction.
        if (existing) return 'done';
        this.scheduled.set(podKey, { createdAt: pass.now, fireAt: pass.now + decision.ms, cause });
        pass.emit(
          'schedule-eviction',
          refOf(pod),
          `Pod ${podKey} tolerates the NoExecute taints of node ${pod.spec.nodeName} for ${decision.ms / 1000}s: eviction scheduled`,
          cause,
        );
        pass.ctx.wakeAt(pass.now + decision.ms);
        return 'done';
      }
    }
  }

  private cancel(pod: Pod, pass: Pass, cause?: number): void {
    this.scheduled.delete(keyOf(pod));
    pass.emit(
      'cancel-eviction',
      refOf(pod),
      `Cancelling the eviction of Pod ${keyOf(pod)}: the taint is gone or tolerated`,
      cause,
    );
    pass.event(pod, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${keyOf(pod)}`);
  }

  protected override afterSync(pass: Pass): void {
    for (const [podKey, s] of [...this.scheduled].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (s.fireAt > pass.now) {
        pass.ctx.wakeAt(s.fireAt);
        continue;
      }
      const pod = this.informer<Pod>('pods').getByKey(podKey);
      if (!pod) {
        this.scheduled.delete(podKey);
        continue;
      }
      if (this.evict(pod, pass, s.cause)) this.scheduled.delete(podKey);
    }
  }

  /** addConditionAndDeletePod: DisruptionTarget condition, then delete. */
  private evict(pod: Pod, pass: Pass, cause?: number): boolean {
    pass.event(pod, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${keyOf(pod)}`);
    const conditions = pod.status?.conditions ?? [];
    if (!conditions.some((c) => c.type === 'DisruptionTarget' && c.status === 'True')) {
      const updated = deepClone(pod);
      updated.status = {
        ...(updated.status ?? {}),
        conditions: [
          ...conditions.filter((c) => c.type !== 'DisruptionTarget'),
          {
            type: 'DisruptionTarget',
            status: 'True',
            lastTransitionTime: pass.ctx.nowIso,
            reason: 'DeletionByTaintManager',
            message: 'Taint manager: deleting due to NoExecute taint',
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
        `Adding condition DisruptionTarget to Pod ${keyOf(pod)} before evicting it`,
        cause,
      );
      if (res.code === 404) return true;
      if (!isOk(res)) return false;
    }
    const res = pass.write(
      {
        verb: 'delete',
        resource: 'pods',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name,
      },
      refOf(pod),
      `Evicting Pod ${keyOf(pod)} from node ${pod.spec.nodeName}: NoExecute taint no longer tolerated`,
      cause,
    );
    return isOk(res) || res.code === 404;
  }

  protected override saveExtra(): unknown {
    return [...this.scheduled].sort(([a], [b]) => (a < b ? -1 : 1));
  }

  protected override loadExtra(extra: unknown): void {
    this.scheduled = new Map((extra as [string, Scheduled][] | undefined) ?? []);
  }
}
