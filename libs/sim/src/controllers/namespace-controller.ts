// The namespace controller (k/k pkg/controller/namespace): `kubectl delete namespace x` only marks
// it Terminating (deletionTimestamp + the `kubernetes` finalizer). This controller deletes every
// object inside, reports what remains in the namespace's conditions, and once it is empty removes
// the finalizer through the `finalize` subresource and deletes the namespace for good.

import type { WatchEvent } from '../client/api-client';
import type { Condition, KubeList, KubeObject, Namespace } from '../model';
import { groupResource, isStatus, RESOURCES } from '../model';
import type { Pass } from './base-controller';
import { BaseController, isOk, keyOf, refOf, type SyncResult } from './base-controller';

const SKIP = new Set(['bindings', 'selfsubjectaccessreviews', 'selfsubjectrulesreviews']);
/** Namespaced resources the deleter walks, events last (they describe the deletion itself). */
export const NAMESPACED_RESOURCES = RESOURCES.filter(
  (r) => r.namespaced && !SKIP.has(r.resource) && r.verbs.includes('list'),
).sort((a, b) =>
  a.resource === 'events' ? 1 : b.resource === 'events' ? -1 : a.resource < b.resource ? -1 : 1,
);

const RETRY_MS = 1_000;

/** The five deletion conditions a Terminating namespace shows in `kubectl describe ns`. */
export function deletionConditions(
  remaining: Map<string, number>,
  failed: string[],
  nowIso: string,
): Condition[] {
  const remainingText = [...remaining]
    .filter(([, n]) => n > 0)
    .map(([gr, n]) => `${gr} has ${n} resource instances`)
    .join(', ');
  return [
    {
      type: 'NamespaceDeletionDiscoveryFailure',
      status: 'False',
      lastTransitionTime: nowIso,
      reason: 'ResourcesDiscovered',
      message: 'All resources successfully discovered',
    },
    {
      type: 'NamespaceDeletionGroupVersionParsingFailure',
      status: 'False',
      lastTransitionTime: nowIso,
      reason: 'ParsedGroupVersions',
      message: 'All legacy kube types successfully parsed',
    },
    failed.length
      ? {
          type: 'NamespaceDeletionContentFailure',
          status: 'True',
          lastTransitionTime: nowIso,
          reason: 'ContentDeletionFailed',
          message: `Failed to delete all resource types, ${failed.length} remaining: ${failed.join(', ')}`,
        }
      : {
          type: 'NamespaceDeletionContentFailure',
          status: 'False',
          lastTransitionTime: nowIso,
          reason: 'ContentDeleted',
          message: 'All content successfully deleted, may be waiting on finalization',
        },
    remainingText
      ? {
          type: 'NamespaceContentRemaining',
          status: 'True',
          lastTransitionTime: nowIso,
          reason: 'SomeResourcesRemain',
          message: `Some resources are remaining: ${remainingText}`,
        }
      : {
          type: 'NamespaceContentRemaining',
          status: 'False',
          lastTransitionTime: nowIso,
          reason: 'ContentRemoved',
          message: 'All content successfully removed',
        },
    {
      type: 'NamespaceFinalizersRemaining',
      status: 'False',
      lastTransitionTime: nowIso,
      reason: 'ContentHasNoFinalizers',
      message: 'All content-preserving finalizers finished',
    },
  ];
}

export class NamespaceController extends BaseController {
  readonly controllerName = 'namespace';
  readonly eventSource = 'namespace-controller';
  readonly periodMs = 5_000;

  constructor() {
    super(['namespaces']);
  }

  protected keysFor(_resource: string, ev: WatchEvent): string[] {
    return ev.type !== 'DELETED' && ev.object.metadata.deletionTimestamp ? [keyOf(ev.object)] : [];
  }

  protected allKeys(): string[] {
    return this.informer<Namespace>('namespaces')
      .list((n) => Boolean(n.metadata.deletionTimestamp))
      .map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const ns = this.informer<Namespace>('namespaces').get(undefined, key);
    if (!ns || !ns.metadata.deletionTimestamp) return 'done';
    const client = pass.ctx.client;
    const remaining = new Map<string, number>();
    const failed: string[] = [];
    for (const info of NAMESPACED_RESOURCES) {
      const res = client.request({ verb: 'list', resource: info.resource, namespace: key });
      if (res.code === 0) return 'retry';
      if (!isOk(res) || isStatus(res.body)) {
        if (res.code !== 404 && res.code !== 405) failed.push(groupResource(info));
        continue;
      }
      const items = (res.body as KubeList).items.sort((a, b) =>
        (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
      );
      let left = 0;
      for (const item of items) {
        if (item.metadata.deletionTimestamp) {
          left++;
          continue;
        }
        const del = pass.write(
          { verb: 'delete', resource: info.resource, namespace: key, name: item.metadata.name },
          refOf(item as KubeObject),
          `Deleting ${item.kind ?? info.kind} ${item.metadata.name}: namespace ${key} is terminating`,
          cause,
        );
        if (del.code === 404) continue;
        if (!isOk(del)) {
          if (!failed.includes(groupResource(info))) failed.push(groupResource(info));
          left++;
          continue;
        }
        const body = del.body as KubeObject;
        // Graceful deletion (pods) leaves the object Terminating for a while.
        if (body && !isStatus(body) && body.metadata?.deletionTimestamp) left++;
      }
      if (left > 0) remaining.set(groupResource(info), left);
    }
    const conditions = deletionConditions(remaining, failed, pass.ctx.nowIso);
    const current = (ns.status as { conditions?: Condition[] } | undefined)?.conditions;
    if (!sameConditions(current, conditions)) {
      const body: Namespace = {
        ...ns,
        status: {
          ...(ns.status ?? {}),
          phase: 'Terminating',
          conditions: keepTransitions(current, conditions),
        } as Namespace['status'],
      };
      const res = pass.write(
        { verb: 'update', resource: 'namespaces', subresource: 'status', name: key, body },
        refOf(ns),
        remaining.size
          ? `Namespace ${key}: waiting for ${[...remaining.keys()].join(', ')} to go away`
          : `Namespace ${key} is empty`,
        cause,
      );
      if (!isOk(res)) return 'retry';
    }
    if (remaining.size > 0 || failed.length > 0) {
      pass.requeueAt(key, pass.now + RETRY_MS);
      return 'done';
    }
    return this.finalize(ns, pass, cause);
  }

  private finalize(ns: Namespace, pass: Pass, cause?: number): SyncResult {
    const name = ns.metadata.name as string;
    const finalizers = ns.spec?.finalizers ?? [];
    if (finalizers.includes('kubernetes')) {
      const body: Namespace = {
        ...ns,
        spec: { ...(ns.spec ?? {}), finalizers: finalizers.filter((f) => f !== 'kubernetes') },
      };
      const res = pass.write(
        { verb: 'update', resource: 'namespaces', subresource: 'finalize', name, body },
        refOf(ns),
        `Namespace ${name} is empty: removing the "kubernetes" finalizer`,
        cause,
      );
      if (!isOk(res)) return res.code === 404 ? 'done' : 'retry';
      const updated = res.body as Namespace;
      // The apiserver may already have removed a namespace with no finalizers left.
      if (!isStatus(updated) && (updated.metadata.finalizers ?? []).length > 0) return 'done';
    } else if ((ns.metadata.finalizers ?? []).length > 0) return 'done';
    const res = pass.write(
      { verb: 'delete', resource: 'namespaces', name },
      refOf(ns),
      `Deleting namespace ${name}: it is empty and finalized`,
      cause,
    );
    return isOk(res) || res.code === 404 ? 'done' : 'retry';
  }
}

function sameConditions(a: Condition[] | undefined, b: Condition[]): boolean {
  const sig = (cs: Condition[] | undefined): string =>
    JSON.stringify((cs ?? []).map((c) => [c.type, c.status, c.reason, c.message]));
  return sig(a) === sig(b);
}

function keepTransitions(old: Condition[] | undefined, next: Condition[]): Condition[] {
  return next.map((c) => {
    const prev = old?.find((o) => o.type === c.type);
    return prev && prev.status === c.status
      ? { ...c, lastTransitionTime: prev.lastTransitionTime }
      : c;
  });
}
