// The deployment controller (k/k pkg/controller/deployment): a Deployment never creates pods; it
// owns ReplicaSets `<deployment>-<pod-template-hash>` and moves replicas between them. A template
// change makes a new ReplicaSet that is scaled up while the old ones are scaled down within the
// maxSurge/maxUnavailable fenceposts; a rollback (kubectl writes an old template back) finds the
// old ReplicaSet by its template and gives it the next revision.

import type { WatchEvent } from '../client/api-client';
import type { Condition, Deployment, KubeObject, OwnerReference, Pod, ReplicaSet } from '../model';
import { computePodTemplateHash } from '../shared/hash';
import { selectorMatches } from '../shared/labels';
import { parseIso } from '../shared/time';
import type { ObservedChange } from '../runtime/component';
import type { Pass } from './base-controller';
import {
  BaseController,
  controllerRef,
  deepClone,
  isOk,
  keyOf,
  lookup,
  refOf,
  splitKey,
  type SyncResult,
} from './base-controller';
import {
  activeRSs,
  calculateStatus,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  findActiveOrLatest,
  findNewReplicaSet,
  getCondition,
  isSaturated,
  maxRevision,
  maxSurge,
  newCondition,
  newRSNewReplicas,
  planOldScaleDown,
  planProportionalScale,
  POD_TEMPLATE_HASH_LABEL,
  REASON,
  removeCondition,
  replicaSetsToPrune,
  replicasAnnotationsNeedUpdate,
  REVISION_ANNOTATION,
  resolveSpec,
  rsReplicas,
  setCondition,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  sumStatusReplicas,
  type DeploymentStatus,
  type ResolvedDeployment,
} from './deployment-util';
import { byControllerUid, byNamespace, Index, noValues } from './indexer';
import { stableEqual } from './stable-equal';

class Failed extends Error {}

interface Sync {
  pass: Pass;
  d: Deployment;
  r: ResolvedDeployment;
  cause?: number;
}

export class DeploymentController extends BaseController {
  readonly controllerName = 'deployment';
  readonly eventSource = 'deployment-controller';
  readonly periodMs = 5_000;
  // a Deployment claims its own ReplicaSets and orphans of its namespace: the others of the
  // namespace (every other Deployment's) need not be looked at
  private readonly rsByOwner = new Index(byControllerUid);
  private readonly orphanRsByNs = new Index((o) => (controllerRef(o) ? noValues : byNamespace(o)));

  constructor() {
    super(['deployments', 'replicasets', 'pods']);
  }

  /** Its only timers are progress-deadline checks; once none is pending they are no-ops. */
  timerStale(): boolean {
    return !this.hasPendingKeys();
  }

  protected override observe(resource: string, events: WatchEvent[]): void {
    if (resource === 'replicasets' && events.length > 0) {
      const keys = events.map((ev) => keyOf(ev.object));
      this.rsByOwner.apply(events, keys);
      this.orphanRsByNs.apply(events, keys);
    }
  }

  /** Upstream's pod informer has a delete handler only (for Recreate): other pod changes wait. */
  override wakeOn({ resource, type }: ObservedChange): boolean {
    return resource !== 'pods' || type === 'DELETED';
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    const obj = ev.object;
    if (resource === 'deployments') return [keyOf(obj)];
    if (resource === 'replicasets') {
      const ref = controllerRef(obj);
      if (ref?.kind === 'Deployment') return [`${obj.metadata.namespace}/${ref.name}`];
      if (ref) return [];
      // An orphan: any Deployment whose selector matches may adopt it.
      return this.informer<Deployment>('deployments')
        .list(
          (d) =>
            d.metadata.namespace === obj.metadata.namespace &&
            selectorMatches(d.spec.selector, obj.metadata.labels),
        )
        .map(keyOf);
    }
    // Pods matter only to Recreate, which waits until every old pod is gone.
    if (ev.type !== 'DELETED') return [];
    const rsRef = controllerRef(obj);
    if (rsRef?.kind !== 'ReplicaSet') return [];
    const rs = this.informer<ReplicaSet>('replicasets').get(obj.metadata.namespace, rsRef.name);
    const dRef = rs ? controllerRef(rs) : undefined;
    if (!dRef || dRef.kind !== 'Deployment') return [];
    const d = this.informer<Deployment>('deployments').get(obj.metadata.namespace, dRef.name);
    return d?.spec.strategy?.type === 'Recreate' ? [keyOf(d)] : [];
  }

  protected allKeys(): string[] {
    return this.informer<Deployment>('deployments').list().map(keyOf);
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    const { namespace, name } = splitKey(key);
    const d = this.informer<Deployment>('deployments').get(namespace, name);
    if (!d) return 'done';
    // a sync replaces the copy's status and annotations (never changes them in place), so its
    // own metadata object is all that must not be the frozen informer object's
    const s: Sync = { pass, d: { ...d, metadata: { ...d.metadata } }, r: resolveSpec(d), cause };
    try {
      this.syncDeployment(s);
      return 'done';
    } catch (err) {
      if (err instanceof Failed) return 'retry';
      throw err;
    }
  }

  private syncDeployment(s: Sync): void {
    const { d, r } = s;
    const selector = d.spec.selector;
    if (
      !selector ||
      (Object.keys(selector.matchLabels ?? {}).length === 0 &&
        !(selector.matchExpressions ?? []).length)
    ) {
      return; // an empty selector would select every pod: upstream refuses to act
    }
    const rsList = this.claimReplicaSets(s);
    if (d.metadata.deletionTimestamp) {
      const { newRS, oldRSs } = this.getAllReplicaSets(s, rsList, false);
      this.syncDeploymentStatus(s, [...oldRSs, ...(newRS ? [newRS] : [])], newRS);
      return;
    }
    this.checkPausedConditions(s);
    if (r.paused || this.isScalingEvent(s, rsList)) {
      this.sync(s, rsList);
      return;
    }
    if (r.strategy === 'Recreate') this.rolloutRecreate(s, rsList);
    else this.rolloutRolling(s, rsList);
  }

  // --- ownership -------------------------------------------------------------------------

  private claimReplicaSets(s: Sync): ReplicaSet[] {
    const { d, pass } = s;
    const out: ReplicaSet[] = [];
    const prefix = `${d.metadata.namespace ?? ''}/`;
    const candidates = lookup(
      this.informer<ReplicaSet>('replicasets'),
      mergeSorted(
        this.rsByOwner.sortedKeys(d.metadata.uid ?? '').filter((k) => k.startsWith(prefix)),
        this.orphanRsByNs.sortedKeys(d.metadata.namespace ?? ''),
      ),
    );
    for (const rs of candidates) {
      const ref = controllerRef(rs);
      const matches = selectorMatches(d.spec.selector, rs.metadata.labels);
      if (ref && ref.uid === d.metadata.uid) {
        // read only: every change is made on a copy (scaleRS, getNewReplicaSet)
        if (matches) out.push(rs);
        else
          this.patchOwners(
            s,
            rs,
            (rs.metadata.ownerReferences ?? []).filter((o) => o.uid !== d.metadata.uid),
            'release',
          );
      } else if (
        !ref &&
        matches &&
        !rs.metadata.deletionTimestamp &&
        !d.metadata.deletionTimestamp
      ) {
        const refs = [...(rs.metadata.ownerReferences ?? []), ownerRefTo(d)];
        const res = this.patchOwners(s, rs, refs, 'adopt');
        if (res) out.push(res);
      }
    }
    void pass;
    return out;
  }

  private patchOwners(
    s: Sync,
    rs: ReplicaSet,
    refs: OwnerReference[],
    what: 'adopt' | 'release',
  ): ReplicaSet | undefined {
    const res = s.pass.write(
      {
        verb: 'patch',
        resource: 'replicasets',
        namespace: rs.metadata.namespace,
        name: rs.metadata.name,
        patchType: 'merge',
        body: { metadata: { ownerReferences: refs, uid: rs.metadata.uid } },
      },
      refOf(rs),
      `${what === 'adopt' ? 'Adopting' : 'Releasing'} ReplicaSet ${rs.metadata.name} ${what === 'adopt' ? 'into' : 'from'} Deployment ${s.d.metadata.name}`,
      s.cause,
    );
    if (!isOk(res)) throw new Failed();
    return res.body as ReplicaSet;
  }

  // --- new / old ReplicaSets ---------------------------------------------------------------

  private getAllReplicaSets(
    s: Sync,
    rsList: ReplicaSet[],
    createIfMissing: boolean,
  ): { newRS?: ReplicaSet; oldRSs: ReplicaSet[] } {
    const existing = findNewReplicaSet(s.d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== existing);
    const newRS = this.getNewReplicaSet(s, existing, oldRSs, createIfMissing);
    return { newRS, oldRSs };
  }

  private getNewReplicaSet(
    s: Sync,
    existing: ReplicaSet | undefined,
    oldRSs: ReplicaSet[],
    createIfMissing: boolean,
  ): ReplicaSet | undefined {
    const { d, r, pass } = s;
    const newRevision = maxRevision(oldRSs) + 1;
    if (existing) {
      // only the annotations and minReadySeconds of the copy are changed
      const copy: ReplicaSet = {
        ...existing,
        metadata: { ...existing.metadata },
        spec: { ...existing.spec },
      };
      if (existing.metadata.annotations)
        copy.metadata.annotations = { ...existing.metadata.annotations };
      const annotationsChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true, r);
      const minReadyChanged = (copy.spec.minReadySeconds ?? 0) !== r.minReadySeconds;
      if (annotationsChanged || minReadyChanged) {
        copy.spec.minReadySeconds = r.minReadySeconds;
        const rolledBack =
          (existing.metadata.annotations?.[REVISION_ANNOTATION] ?? '') !==
          copy.metadata.annotations?.[REVISION_ANNOTATION];
        const res = pass.write(
          {
            verb: 'update',
            resource: 'replicasets',
            namespace: copy.metadata.namespace,
            name: copy.metadata.name,
            body: copy,
          },
          refOf(copy),
          rolledBack && existing.metadata.annotations?.[REVISION_ANNOTATION]
            ? `ReplicaSet ${copy.metadata.name} matches the Deployment's template again: it becomes revision ${copy.metadata.annotations?.[REVISION_ANNOTATION]}`
            : `Updating annotations of ReplicaSet ${copy.metadata.name}`,
          s.cause,
        );
        if (!isOk(res)) throw new Failed();
        return res.body as ReplicaSet;
      }
      // nearly every sync finds the condition there: the status is copied only to be changed
      let status: DeploymentStatus | undefined;
      if (r.progressDeadlineSeconds !== undefined && !getCondition(d.status, 'Progressing')) {
        status = deepClone(d.status ?? {});
        setCondition(
          status,
          newCondition(
            'Progressing',
            'True',
            REASON.FoundNewRS,
            `Found new replica set "${copy.metadata.name}"`,
            pass.ctx.nowIso,
          ),
        );
      }
      this.setDeploymentRevision(s, copy.metadata.annotations?.[REVISION_ANNOTATION]);
      if (status) this.writeStatus(s, status);
      return copy;
    }
    if (!createIfMissing) return undefined;
    return this.createNewReplicaSet(s, oldRSs, newRevision);
  }

  private createNewReplicaSet(
    s: Sync,
    oldRSs: ReplicaSet[],
    newRevision: number,
  ): ReplicaSet | undefined {
    const { d, r, pass } = s;
    const template = deepClone(d.spec.template);
    const hash = computePodTemplateHash(d.spec.template, d.status?.collisionCount);
    template.metadata = {
      ...(template.metadata ?? {}),
      labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash },
    };
    const selector = deepClone(d.spec.selector);
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: template.metadata.labels,
        ownerReferences: [ownerRefTo(d)],
      },
      spec: { replicas: 0, minReadySeconds: r.minReadySeconds, selector, template },
    };
    const replicas = newRSNewReplicas(r, [...oldRSs, rs], rs);
    rs.spec.replicas = replicas;
    setNewReplicaSetAnnotations(d, rs, newRevision, false, r);
    const res = pass.write(
      { verb: 'create', resource: 'replicasets', namespace: d.metadata.namespace, body: rs },
      refOf(rs),
      `Creating ReplicaSet ${rs.metadata.name} (pod-template-hash ${hash}) with ${replicas} replicas for Deployment ${d.metadata.name}`,
      s.cause,
    );
    let created: ReplicaSet;
    let alreadyExisted = false;
    if (res.code === 409) {
      alreadyExisted = true;
      const cur = pass.ctx.client.request({
        verb: 'get',
        resource: 'replicasets',
        namespace: d.metadata.namespace,
        name: rs.metadata.name,
      });
      if (!isOk(cur)) throw new Failed();
      const found = cur.body as ReplicaSet;
      if (
        controllerRef(found)?.uid !== d.metadata.uid ||
        findNewReplicaSet(d, [found]) === undefined
      ) {
        // A hash collision: bump collisionCount so the next hash differs.
        const status: DeploymentStatus = deepClone(d.status ?? {});
        status.collisionCount = (status.collisionCount ?? 0) + 1;
        this.writeStatus(s, status);
        throw new Failed();
      }
      created = found;
    } else if (!isOk(res)) {
      const msg = `Failed to create new replica set "${rs.metadata.name}": ${res.code === 0 ? String(res.body) : statusMessage(res.body)}`;
      if (res.code !== 0) {
        if (r.progressDeadlineSeconds !== undefined) {
          const status: DeploymentStatus = deepClone(d.status ?? {});
          setCondition(
            status,
            newCondition('Progressing', 'False', REASON.FailedRSCreate, msg, pass.ctx.nowIso),
          );
          this.writeStatus(s, status, false);
        }
        pass.event(d, 'Warning', REASON.FailedRSCreate, msg);
      }
      throw new Failed();
    } else created = res.body as ReplicaSet;
    if (!alreadyExisted && replicas > 0) {
      pass.event(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled up replica set ${created.metadata.name} from 0 to ${replicas}`,
      );
    }
    this.setDeploymentRevision(s, String(newRevision));
    if (!alreadyExisted && r.progressDeadlineSeconds !== undefined) {
      const status: DeploymentStatus = deepClone(s.d.status ?? {});
      setCondition(
        status,
        newCondition(
          'Progressing',
          'True',
          REASON.NewRS,
          `Created new replica set "${created.metadata.name}"`,
          pass.ctx.nowIso,
        ),
      );
      this.writeStatus(s, status);
    }
    return created;
  }

  /** SetDeploymentRevision: the Deployment carries its newest ReplicaSet's revision. */
  private setDeploymentRevision(s: Sync, revision: string | undefined): void {
    if (revision === undefined || s.d.metadata.annotations?.[REVISION_ANNOTATION] === revision)
      return;
    const res = s.pass.write(
      {
        verb: 'patch',
        resource: 'deployments',
        namespace: s.d.metadata.namespace,
        name: s.d.metadata.name,
        patchType: 'merge',
        body: { metadata: { annotations: { [REVISION_ANNOTATION]: revision } } },
      },
      refOf(s.d),
      `Deployment ${s.d.metadata.name} is at revision ${revision}`,
      s.cause,
    );
    if (!isOk(res)) throw new Failed();
    const updated = res.body as Deployment;
    s.d.metadata.annotations = updated.metadata.annotations;
    s.d.metadata.resourceVersion = updated.metadata.resourceVersion;
  }

  private writeStatus(s: Sync, status: DeploymentStatus, mustSucceed = true): void {
    const body = { ...s.d, status };
    const res = s.pass.write(
      {
        verb: 'update',
        resource: 'deployments',
        subresource: 'status',
        namespace: s.d.metadata.namespace,
        name: s.d.metadata.name,
        body,
        // only status and resourceVersion are read back (s.d's own parts are frozen already)
        readOnly: true,
        // every status written is built for its write and not changed after it
        handOver: true,
      },
      refOf(s.d),
      `Updating status of Deployment ${s.d.metadata.name}: ${summarize(status)}`,
      s.cause,
    );
    if (!isOk(res)) {
      if (mustSucceed) throw new Failed();
      return;
    }
    const updated = res.body as Deployment;
    s.d.status = updated.status ?? status;
    s.d.metadata.resourceVersion = updated.metadata.resourceVersion;
  }

  // --- scaling -------------------------------------------------------------------------

  private scaleRS(s: Sync, rs: ReplicaSet, newScale: number, op?: 'up' | 'down'): ReplicaSet {
    const { r } = s;
    const max = r.replicas + maxSurge(r);
    const sizeChanged = rsReplicas(rs) !== newScale;
    if (!sizeChanged && !replicasAnnotationsNeedUpdate(rs, r.replicas, max)) return rs;
    const oldScale = rsReplicas(rs);
    const direction = op ?? (oldScale < newScale ? 'up' : 'down');
    const copy = deepClone(rs);
    copy.spec.replicas = newScale;
    setReplicasAnnotations(copy, r.replicas, max);
    const res = s.pass.write(
      {
        verb: 'update',
        resource: 'replicasets',
        namespace: copy.metadata.namespace,
        name: copy.metadata.name,
        body: copy,
      },
      refOf(copy),
      sizeChanged
        ? `Scaling ${direction} ReplicaSet ${copy.metadata.name} from ${oldScale} to ${newScale}`
        : `Updating replica annotations of ReplicaSet ${copy.metadata.name}`,
      s.cause,
    );
    if (!isOk(res)) throw new Failed();
    const updated = res.body as ReplicaSet;
    if (sizeChanged) {
      s.pass.event(
        s.d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${direction} replica set ${updated.metadata.name} from ${oldScale} to ${newScale}`,
      );
    }
    return updated;
  }

  private isScalingEvent(s: Sync, rsList: ReplicaSet[]): boolean {
    const { newRS, oldRSs } = this.getAllReplicaSets(s, rsList, false);
    for (const rs of activeRSs([...oldRSs, ...(newRS ? [newRS] : [])])) {
      const desired = rs.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'];
      if (desired === undefined) continue;
      if (Number(desired) !== s.r.replicas) return true;
    }
    return false;
  }

  /** sync(): scale only (paused deployments and scaling events), then status. */
  private sync(s: Sync, rsList: ReplicaSet[]): void {
    const { newRS, oldRSs } = this.getAllReplicaSets(s, rsList, false);
    const { newRS: scaledNew, oldRSs: scaledOld } = this.scale(s, newRS, oldRSs);
    if (s.r.paused) this.cleanup(s, scaledOld);
    this.syncDeploymentStatus(s, [...scaledOld, ...(scaledNew ? [scaledNew] : [])], scaledNew);
  }

  private scale(
    s: Sync,
    newRS: ReplicaSet | undefined,
    oldRSs: ReplicaSet[],
  ): { newRS?: ReplicaSet; oldRSs: ReplicaSet[] } {
    const { r, d } = s;
    const replace = (rs: ReplicaSet, updated: ReplicaSet): void => {
      if (rs === newRS) newRS = updated;
      else oldRSs = oldRSs.map((o) => (o === rs ? updated : o));
    };
    const single = findActiveOrLatest(newRS, oldRSs);
    if (single) {
      if (rsReplicas(single) !== r.replicas) replace(single, this.scaleRS(s, single, r.replicas));
      return { newRS, oldRSs };
    }
    if (isSaturated(r, newRS)) {
      for (const old of activeRSs(oldRSs)) replace(old, this.scaleRS(s, old, 0));
      return { newRS, oldRSs };
    }
    if (r.strategy === 'RollingUpdate') {
      const active = activeRSs([...oldRSs, ...(newRS ? [newRS] : [])]);
      const plan = planProportionalScale(
        r,
        active,
        d.status?.replicas ?? sumStatusReplicas(active),
      );
      for (const rs of plan.order) {
        const size = plan.sizes.get(rs.metadata.name as string) as number;
        replace(rs, this.scaleRS(s, rs, size, plan.op === '' ? undefined : plan.op));
      }
    }
    return { newRS, oldRSs };
  }

  // --- strategies ------------------------------------------------------------------------

  private rolloutRolling(s: Sync, rsList: ReplicaSet[]): void {
    const { r } = s;
    const got = this.getAllReplicaSets(s, rsList, true);
    const newRS = got.newRS as ReplicaSet;
    let oldRSs = got.oldRSs;
    const all = (): ReplicaSet[] => [...oldRSs, newRS];
    // Scale up the new ReplicaSet, if the surge allows it.
    if (rsReplicas(newRS) !== r.replicas) {
      const target =
        rsReplicas(newRS) > r.replicas ? r.replicas : newRSNewReplicas(r, all(), newRS);
      if (target !== rsReplicas(newRS)) {
        const updated = this.scaleRS(s, newRS, target);
        this.syncRolloutStatus(s, [...oldRSs, updated], updated);
        return;
      }
    }
    // Scale down old ReplicaSets, if availability allows it.
    const plan = planOldScaleDown(r, all(), activeRSs(oldRSs), newRS);
    let scaledDown = false;
    for (const rs of [...oldRSs].sort((a, b) =>
      (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1,
    )) {
      const target = plan.get(rs.metadata.name as string);
      if (target === undefined || target === rsReplicas(rs)) continue;
      const updated = this.scaleRS(s, rs, target);
      oldRSs = oldRSs.map((o) => (o === rs ? updated : o));
      scaledDown = true;
    }
    if (scaledDown) {
      this.syncRolloutStatus(s, all(), newRS);
      return;
    }
    if (s.d.status && deploymentComplete(s.d, r, s.d.status)) this.cleanup(s, oldRSs);
    this.syncRolloutStatus(s, all(), newRS);
  }

  private rolloutRecreate(s: Sync, rsList: ReplicaSet[]): void {
    const { r } = s;
    let { newRS, oldRSs } = this.getAllReplicaSets(s, rsList, false);
    let scaledDown = false;
    for (const old of activeRSs(oldRSs)) {
      const updated = this.scaleRS(s, old, 0);
      oldRSs = oldRSs.map((o) => (o === old ? updated : o));
      scaledDown = true;
    }
    const all = (): ReplicaSet[] => [...oldRSs, ...(newRS ? [newRS] : [])];
    if (scaledDown) {
      this.syncRolloutStatus(s, all(), newRS);
      return;
    }
    if (this.oldPodsRunning(newRS, oldRSs)) {
      this.syncRolloutStatus(s, all(), newRS);
      return;
    }
    if (!newRS) {
      const got = this.getAllReplicaSets(s, [...oldRSs], true);
      newRS = got.newRS;
      oldRSs = got.oldRSs;
    }
    if (newRS && rsReplicas(newRS) !== r.replicas) newRS = this.scaleRS(s, newRS, r.replicas);
    if (s.d.status && deploymentComplete(s.d, r, s.d.status)) this.cleanup(s, oldRSs);
    this.syncRolloutStatus(s, all(), newRS);
  }

  private oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): boolean {
    if (sumStatusReplicas(oldRSs) > 0) return true;
    // only Recreate asks: a scan of the pod cache costs less than an index kept up to date
    // through every pod change of the cluster
    const owners = new Set<string>();
    for (const rs of oldRSs) {
      if (newRS && rs.metadata.uid === newRS.metadata.uid) continue;
      owners.add(rs.metadata.uid ?? '');
    }
    if (owners.size === 0) return false;
    for (const pod of this.informer<Pod>('pods').list()) {
      const phase = pod.status?.phase;
      if (phase === 'Failed' || phase === 'Succeeded') continue;
      for (const uid of byControllerUid(pod)) if (owners.has(uid)) return true;
    }
    return false;
  }

  /** cleanupDeployment: prune old ReplicaSets at 0 replicas beyond revisionHistoryLimit. */
  private cleanup(s: Sync, oldRSs: ReplicaSet[]): void {
    for (const rs of replicaSetsToPrune(oldRSs, s.r.revisionHistoryLimit)) {
      const res = s.pass.write(
        {
          verb: 'delete',
          resource: 'replicasets',
          namespace: rs.metadata.namespace,
          name: rs.metadata.name,
        },
        refOf(rs),
        `Deleting old ReplicaSet ${rs.metadata.name} (revision ${rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '?'}) beyond revisionHistoryLimit ${s.r.revisionHistoryLimit}`,
        s.cause,
      );
      if (!isOk(res) && res.code !== 404) throw new Failed();
    }
  }

  // --- status ----------------------------------------------------------------------------

  private checkPausedConditions(s: Sync): void {
    const { r, pass } = s;
    if (r.progressDeadlineSeconds === undefined) return;
    const cond = getCondition(s.d.status, 'Progressing');
    if (cond?.reason === REASON.TimedOut) return;
    const pausedExists = cond?.reason === REASON.Paused;
    // nearly every sync changes nothing here: the status is copied only to be changed
    if (r.paused === pausedExists) return;
    const status: DeploymentStatus = deepClone(s.d.status ?? {});
    if (r.paused && !pausedExists) {
      setCondition(
        status,
        newCondition(
          'Progressing',
          'Unknown',
          REASON.Paused,
          'Deployment is paused',
          pass.ctx.nowIso,
        ),
      );
    } else if (!r.paused && pausedExists) {
      setCondition(
        status,
        newCondition(
          'Progressing',
          'Unknown',
          REASON.Resumed,
          'Deployment is resumed',
          pass.ctx.nowIso,
        ),
      );
    } else return;
    this.writeStatus(s, status);
  }

  private syncDeploymentStatus(s: Sync, allRSs: ReplicaSet[], newRS: ReplicaSet | undefined): void {
    const status = calculateStatus(allRSs, newRS, s.d, s.r, s.pass.ctx.nowIso);
    if (sameStatus(s.d.status, status)) return;
    this.writeStatus(s, status);
  }

  private syncRolloutStatus(s: Sync, allRSs: ReplicaSet[], newRS: ReplicaSet | undefined): void {
    const { d, r, pass } = s;
    const nowIso = pass.ctx.nowIso;
    const status = calculateStatus(allRSs, newRS, d, r, nowIso);
    if (r.progressDeadlineSeconds === undefined) removeCondition(status, 'Progressing');
    const current = getCondition(d.status, 'Progressing');
    const isComplete =
      status.replicas === status.updatedReplicas && current?.reason === REASON.NewRSAvailable;
    if (r.progressDeadlineSeconds !== undefined && !isComplete) {
      const rsName = newRS?.metadata.name;
      if (deploymentComplete(d, r, status)) {
        const msg = rsName
          ? `ReplicaSet "${rsName}" has successfully progressed.`
          : `Deployment "${d.metadata.name}" has successfully progressed.`;
        setCondition(
          status,
          newCondition('Progressing', 'True', REASON.NewRSAvailable, msg, nowIso),
        );
      } else if (deploymentProgressing(d, status)) {
        const msg = rsName
          ? `ReplicaSet "${rsName}" is progressing.`
          : `Deployment "${d.metadata.name}" is progressing.`;
        const cond = newCondition('Progressing', 'True', REASON.RSUpdated, msg, nowIso);
        if (current) {
          if (current.status === 'True') cond.lastTransitionTime = current.lastTransitionTime;
          removeCondition(status, 'Progressing');
        }
        setCondition(status, cond);
      } else if (deploymentTimedOut(r, status, pass.nowEpoch)) {
        const msg = rsName
          ? `ReplicaSet "${rsName}" has timed out progressing.`
          : `Deployment "${d.metadata.name}" has timed out progressing.`;
        setCondition(status, newCondition('Progressing', 'False', REASON.TimedOut, msg, nowIso));
      }
    }
    // Failures of the ReplicaSets (e.g. admission refusing their pods) surface on the Deployment.
    const failure = replicaFailure(allRSs, newRS);
    if (failure) setCondition(status, failure);
    else removeCondition(status, 'ReplicaFailure');
    if (!sameStatus(d.status, status)) this.writeStatus(s, status);
    this.requeueStuck(s, status);
  }

  /** requeueStuckDeployment: wake up when the progress deadline would pass. */
  private requeueStuck(s: Sync, status: DeploymentStatus): void {
    const { r, pass, d } = s;
    const cond = getCondition(status, 'Progressing');
    if (
      r.progressDeadlineSeconds === undefined ||
      !cond ||
      cond.reason === REASON.NewRSAvailable ||
      cond.reason === REASON.TimedOut ||
      deploymentComplete(d, r, status)
    ) {
      // nothing left to time out: a pending progress check would be a no-op sync, and would keep
      // an idle lab from being quiescent until it fires
      this.cancelDelay(keyOf(d));
      return;
    }
    const due = parseIso(cond.lastUpdateTime) + r.progressDeadlineSeconds * 1000;
    const wait = Math.max(0, due - pass.nowEpoch) + 1000;
    pass.requeueAt(keyOf(d), pass.now + wait);
  }
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure condition first, else an old one's. */
function replicaFailure(
  allRSs: ReplicaSet[],
  newRS: ReplicaSet | undefined,
): Condition | undefined {
  const ordered = newRS ? [newRS, ...allRSs.filter((r) => r !== newRS)] : allRSs;
  for (const rs of ordered) {
    const c = rs.status?.conditions?.find((x) => x.type === 'ReplicaFailure');
    if (!c) continue;
    return {
      type: 'ReplicaFailure',
      status: c.status,
      lastUpdateTime: c.lastTransitionTime,
      lastTransitionTime: c.lastTransitionTime,
      reason: c.reason,
      message: c.message,
    };
  }
  return undefined;
}

/** Two sorted lists of distinct keys as one sorted list. */
function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length)
    out.push((a[i] as string) < (b[j] as string) ? (a[i++] as string) : (b[j++] as string));
  while (i < a.length) out.push(a[i++] as string);
  while (j < b.length) out.push(b[j++] as string);
  return out;
}

function ownerRefTo(d: Deployment): OwnerReference {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    name: d.metadata.name as string,
    uid: d.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * Whether two statuses agree on every field that is set and not zero (an unset count and a zero
 * one are the same status), compared in place rather than through sorted copies of both.
 */
function sameStatus(a: DeploymentStatus | undefined, b: DeploymentStatus): boolean {
  const x = (a ?? {}) as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let significant = 0;
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (v === undefined || v === 0) continue;
    significant++;
    const w = y[k];
    if (w === undefined || w === 0 || !Object.prototype.hasOwnProperty.call(y, k)) return false;
    if (!stableEqual(v, w)) return false;
  }
  for (const k of Object.keys(y)) {
    const w = y[k];
    if (w !== undefined && w !== 0) significant--;
  }
  return significant === 0;
}

function summarize(s: DeploymentStatus): string {
  const progressing = getCondition(s, 'Progressing');
  return `${s.updatedReplicas ?? 0} updated, ${s.readyReplicas ?? 0} ready, ${s.availableReplicas ?? 0} available of ${s.replicas ?? 0}${progressing ? ` (${progressing.reason})` : ''}`;
}

function statusMessage(body: unknown): string {
  return (body as KubeObject & { message?: string }).message ?? 'unknown error';
}
