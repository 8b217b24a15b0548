// The garbage collector (k/k pkg/controller/garbagecollector): ownerReferences make a graph.
// An object whose owners are all gone is deleted (background cascading: deleting a Deployment
// removes its ReplicaSets, which removes their pods); an owner deleted with
// `propagationPolicy=Orphan` gets its dependents' references removed instead, and one deleted
// in the foreground waits (finalizer `foregroundDeletion`) until its dependents are gone.

import type { WatchEvent } from '../client/api-client';
import type { KubeObject, OwnerReference } from '../model';
import { resourceForKind } from '../model';
import type { CurrentObjects, ObservedChange } from '../runtime/component';
import type { Pass } from './base-controller';
import { BaseController, isOk, refOf, splitKey, type SyncResult } from './base-controller';
import { byOwnerUid, Index } from './indexer';

/** Resources whose objects commonly own or are owned: a change wakes the collector. */
export const GC_RESOURCES = [
  'configmaps',
  'daemonsets',
  'deployments',
  'endpointslices',
  'jobs',
  'nodes',
  'pods',
  'replicasets',
  'secrets',
  'services',
];
/**
 * The rest of the graph, read at each resync (30 s) only: Leases change every 10 s per node and
 * would wake the collector for nothing.
 */
export const GC_PASSIVE_RESOURCES = [
  'clusterrolebindings',
  'clusterroles',
  'endpoints',
  'leases',
  'limitranges',
  'rolebindings',
  'roles',
  'serviceaccounts',
];
const ALL_GC_RESOURCES = [...GC_RESOURCES, ...GC_PASSIVE_RESOURCES];

export type OwnerState = 'present' | 'absent' | 'unknown';

/** An owner being deleted with a finalizer the collector serves (orphan, foreground). */
function ownerFinalizing(obj: KubeObject): boolean {
  const f = obj.metadata.finalizers;
  return (
    !!obj.metadata.deletionTimestamp &&
    f != null &&
    (f.includes('orphan') || f.includes('foregroundDeletion'))
  );
}

/** Whether every owner (of a kind the collector knows) exists now, with the referenced uid. */
function ownersExist(
  refs: readonly OwnerReference[],
  namespace: string | undefined,
  current: CurrentObjects,
): boolean {
  // an index loop: the refs are frozen, which V8 walks with a generic iterator under for-of
  for (let i = 0; i < refs.length; i++) {
    const ref = refs[i] as OwnerReference;
    const info = resourceForKind(ref.kind);
    if (!info) continue;
    const owner = current.get(info.resource, info.namespaced ? namespace : undefined, ref.name);
    if (owner?.metadata.uid !== ref.uid) return false;
  }
  return true;
}

/** What the collector does with a dependent, given the state of each of its owners. */
export function gcDecision(states: OwnerState[]): 'keep' | 'delete' | 'prune' | 'wait' {
  if (states.length === 0) return 'keep';
  if (states.includes('unknown')) return 'wait';
  if (states.every((s) => s === 'absent')) return 'delete';
  if (states.some((s) => s === 'absent')) return 'prune';
  return 'keep';
}

export class GarbageCollector extends BaseController {
  readonly controllerName = 'garbagecollector';
  readonly eventSource = 'garbage-collector-controller';
  readonly periodMs = 30_000;
  private readonly dependents = new Index(byOwnerUid);

  constructor() {
    super(GC_RESOURCES, GC_PASSIVE_RESOURCES);
  }

  protected override observe(resource: string, events: WatchEvent[]): void {
    if (events.length === 0) return;
    const tagged = events.map((ev) => taggedKey(resource, ev.object));
    this.dependents.apply(events, tagged);
  }

  /**
   * Upstream's graph builder has work only when a change touches what it collects: an object
   * gone, an owner being deleted with a finalizer it serves, or a dependent with an owner that
   * does not exist (any more). A status update, or a new pod of a live ReplicaSet, has none.
   */
  override wakeOn({ type, object }: ObservedChange, current: CurrentObjects): boolean {
    if (type === 'DELETED' || ownerFinalizing(object)) return true;
    const refs = object.metadata.ownerReferences;
    return (
      refs != null && refs.length > 0 && !ownersExist(refs, object.metadata.namespace, current)
    );
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    const obj = ev.object;
    const keys: string[] = [];
    if (ev.type === 'DELETED') {
      for (const dep of this.dependents.sortedKeys(obj.metadata.uid ?? '')) keys.push(`dep|${dep}`);
      return keys;
    }
    const refs = obj.metadata.ownerReferences;
    if (refs != null && refs.length > 0) keys.push(dependentKey(resource, obj));
    if (ownerFinalizing(obj)) keys.push(`owner|${taggedKey(resource, obj)}`);
    return keys;
  }

  protected allKeys(): string[] {
    const keys: string[] = [];
    for (const resource of ALL_GC_RESOURCES) {
      for (const obj of this.informer(resource).list()) {
        if ((obj.metadata.ownerReferences ?? []).length > 0)
          keys.push(`dep|${taggedKey(resource, obj)}`);
      }
    }
    return keys;
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const bar = key.indexOf('|');
    const kind = key.slice(0, bar);
    const tagged = key.slice(bar + 1);
    const { resource, namespace, name } = untag(tagged);
    const obj = this.informer(resource).get(namespace, name);
    if (!obj) return 'done';
    return kind === 'owner'
      ? this.syncOwner(resource, obj, pass, cause)
      : this.syncDependent(resource, obj, pass, cause);
  }

  /** Whether ownerState would find every owner present without asking the apiserver ('keep'). */
  private ownersCached(refs: readonly OwnerReference[], namespace: string | undefined): boolean {
    for (const ref of refs) {
      const info = resourceForKind(ref.kind);
      if (!info) continue;
      const cached = this.informers[info.resource]?.get(
        info.namespaced ? namespace : undefined,
        ref.name,
      );
      if (!cached || cached.metadata.uid !== ref.uid) return false;
    }
    return true;
  }

  private ownerState(ref: OwnerReference, namespace: string | undefined, pass: Pass): OwnerState {
    const info = resourceForKind(ref.kind);
    if (!info) return 'present'; // an unknown kind is never collected
    const cached = this.informers[info.resource]?.get(
      info.namespaced ? namespace : undefined,
      ref.name,
    );
    if (cached && cached.metadata.uid === ref.uid) return 'present';
    // Verify against the apiserver before deleting anything (the cache may lag).
    const res = pass.ctx.client.request({
      verb: 'get',
      resource: info.resource,
      namespace: info.namespaced ? namespace : undefined,
      name: ref.name,
    });
    if (res.code === 404) return 'absent';
    if (!isOk(res)) return 'unknown';
    return (res.body as KubeObject).metadata.uid === ref.uid ? 'present' : 'absent';
  }

  private syncDependent(resource: string, obj: KubeObject, pass: Pass, cause?: number): SyncResult {
    if (obj.metadata.deletionTimestamp) return 'done';
    const refs = obj.metadata.ownerReferences ?? [];
    // every change of every owned pod comes here, and nearly always finds its owners cached
    if (this.ownersCached(refs, obj.metadata.namespace)) return 'done';
    const states = refs.map((r) => this.ownerState(r, obj.metadata.namespace, pass));
    const decision = gcDecision(states);
    if (decision === 'wait') return 'retry';
    if (decision === 'keep') return 'done';
    const owners = refs.map((r) => `${r.kind}/${r.name}`).join(', ');
    if (decision === 'delete') {
      const res = pass.write(
        {
          verb: 'delete',
          resource,
          namespace: obj.metadata.namespace,
          name: obj.metadata.name,
          query: { propagationPolicy: 'Background' },
        },
        refOf(obj),
        `Deleting ${obj.kind} ${obj.metadata.name}: its owner ${owners} no longer exists`,
        cause,
      );
      return isOk(res) || res.code === 404 ? 'done' : 'retry';
    }
    const kept = refs.filter((_, i) => states[i] === 'present');
    return this.patchOwnerRefs(
      resource,
      obj,
      kept,
      `Removing dangling ownerReferences from ${obj.kind} ${obj.metadata.name}`,
      pass,
      cause,
    );
  }

  private syncOwner(resource: string, owner: KubeObject, pass: Pass, cause?: number): SyncResult {
    const finalizers = owner.metadata.finalizers ?? [];
    const uid = owner.metadata.uid ?? '';
    const deps = this.dependentsOf(uid);
    let ok = true;
    if (finalizers.includes('orphan')) {
      for (const { resource: depResource, obj } of deps) {
        const kept = (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        ok =
          this.patchOwnerRefs(
            depResource,
            obj,
            kept,
            `Orphaning ${obj.kind} ${obj.metadata.name}: ${owner.kind} ${owner.metadata.name} was deleted with propagationPolicy=Orphan`,
            pass,
            cause,
          ) === 'done' && ok;
      }
      if (ok) ok = this.removeFinalizer(resource, owner, 'orphan', pass, cause);
    } else if (finalizers.includes('foregroundDeletion')) {
      const alive = deps.filter((d) => !d.obj.metadata.deletionTimestamp);
      for (const { resource: depResource, obj } of alive) {
        const res = pass.write(
          {
            verb: 'delete',
            resource: depResource,
            namespace: obj.metadata.namespace,
            name: obj.metadata.name,
            query: { propagationPolicy: 'Foreground' },
          },
          refOf(obj),
          `Deleting ${obj.kind} ${obj.metadata.name} first: its owner ${owner.kind} ${owner.metadata.name} is being deleted in the foreground`,
          cause,
        );
        ok = (isOk(res) || res.code === 404) && ok;
      }
      if (deps.length === 0)
        ok = this.removeFinalizer(resource, owner, 'foregroundDeletion', pass, cause) && ok;
    }
    return ok ? 'done' : 'retry';
  }

  private dependentsOf(uid: string): { resource: string; obj: KubeObject }[] {
    const out: { resource: string; obj: KubeObject }[] = [];
    for (const tagged of this.dependents.keys(uid)) {
      const { resource, namespace, name } = untag(tagged);
      const obj = this.informers[resource]?.get(namespace, name);
      if (obj) out.push({ resource, obj });
    }
    return out;
  }

  private patchOwnerRefs(
    resource: string,
    obj: KubeObject,
    refs: OwnerReference[],
    message: string,
    pass: Pass,
    cause?: number,
  ): SyncResult {
    const res = pass.write(
      {
        verb: 'patch',
        resource,
        namespace: obj.metadata.namespace,
        name: obj.metadata.name,
        patchType: 'merge',
        body: { metadata: { ownerReferences: refs.length ? refs : null, uid: obj.metadata.uid } },
      },
      refOf(obj),
      message,
      cause,
    );
    return isOk(res) || res.code === 404 ? 'done' : 'retry';
  }

  private removeFinalizer(
    resource: string,
    owner: KubeObject,
    finalizer: string,
    pass: Pass,
    cause?: number,
  ): boolean {
    const rest = (owner.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    const res = pass.write(
      {
        verb: 'patch',
        resource,
        namespace: owner.metadata.namespace,
        name: owner.metadata.name,
        patchType: 'merge',
        body: { metadata: { finalizers: rest.length ? rest : null } },
      },
      refOf(owner),
      `Removing finalizer ${finalizer} from ${owner.kind} ${owner.metadata.name}: its dependents are handled`,
      cause,
    );
    return isOk(res) || res.code === 404;
  }
}

/** Index keys carry the resource: `resource|ns/name` (a uid may belong to any kind). */
// Every pod change is seen by observe and keysFor (a pod has an owner): the tagged key of a frozen
// watch object is built once. An object belongs to one resource, so the object alone is the key.
const frozenTaggedKeys = new WeakMap<KubeObject, string>();

function taggedKey(resource: string, obj: KubeObject): string {
  // only frozen objects are remembered, and they stay frozen: a hit needs no frozen check
  let key = frozenTaggedKeys.get(obj);
  if (key !== undefined) return key;
  key = buildTaggedKey(resource, obj);
  if (Object.isFrozen(obj) && Object.isFrozen(obj.metadata)) frozenTaggedKeys.set(obj, key);
  return key;
}

// the queue key of a dependent, built once per frozen object as its tagged key is
const frozenDependentKeys = new WeakMap<KubeObject, string>();

function dependentKey(resource: string, obj: KubeObject): string {
  let key = frozenDependentKeys.get(obj);
  if (key !== undefined) return key;
  key = `dep|${taggedKey(resource, obj)}`;
  if (Object.isFrozen(obj) && Object.isFrozen(obj.metadata)) frozenDependentKeys.set(obj, key);
  return key;
}

function buildTaggedKey(resource: string, obj: KubeObject): string {
  return obj.metadata.namespace
    ? `${obj.metadata.namespace}/${resource}|${obj.metadata.name}`
    : `${resource}|${obj.metadata.name}`;
}

function untag(tagged: string): { resource: string; namespace?: string; name: string } {
  const { namespace, name } = splitKey(tagged);
  const i = name.indexOf('|');
  return { resource: name.slice(0, i), namespace, name: name.slice(i + 1) };
}
