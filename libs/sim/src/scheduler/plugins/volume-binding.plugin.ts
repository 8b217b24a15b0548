// VolumeBinding (pkg/scheduler/framework/plugins/volumebinding, v1.32). PreFilter refuses a pod
// whose claims are missing or still waiting for the PV controller (Immediate binding); Filter keeps
// a pod off nodes its bound volumes cannot reach (local PVs carry node affinity) and, for
// WaitForFirstConsumer claims, off nodes where no volume matches and none can be provisioned.
// The binding itself (PV claimRef or the selected-node annotation) is written by the scheduler
// component after the decision, as upstream's PreBind does. Its Score needs the alpha
// VolumeCapacityPriority gate, so it is not a score plugin here.

import type { Node, PersistentVolume, PersistentVolumeClaim, Pod, StorageClass } from '../../model';
import { parseQuantity } from '../../shared/quantity';
import type { Snapshot, VolumeListers } from '../framework/node-info';
import type { FilterPlugin, Status } from '../framework/plugin-types';
import { SKIP, SUCCESS, unresolvable } from '../framework/plugin-types';
import { matchNodeSelectorTerm } from './node-affinity.plugin';

export const VOLUME_BINDING = 'VolumeBinding';
export const ERR_REASON_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_PV_NOT_EXIST =
  'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
/** volume.NotSupportedProvisioner: local volumes are only ever bound statically */
export const NOT_SUPPORTED_PROVISIONER = 'kubernetes.io/no-provisioner';

export interface VolumeBindingState {
  bound: PersistentVolumeClaim[];
  /** unbound WaitForFirstConsumer claims the scheduler has to bind or hand to a provisioner */
  delayed: PersistentVolumeClaim[];
}

/** The claim names a pod's volumes use, in spec order. */
export function podClaimNames(pod: Pod): string[] {
  const out: string[] = [];
  for (const v of pod.spec.volumes ?? []) {
    const name = v.persistentVolumeClaim?.claimName;
    if (name) out.push(name);
  }
  return out;
}

/** Whether any of the pod's volumes uses a claim (podClaimNames is not empty). */
export function usesClaims(pod: Pod): boolean {
  for (const v of pod.spec.volumes ?? []) if (v.persistentVolumeClaim?.claimName) return true;
  return false;
}

/** storagehelpers.GetPersistentVolumeClaimClass: the beta annotation wins over the field. */
export function claimClass(claim: PersistentVolumeClaim): string {
  const ann = claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (ann !== undefined) return ann;
  return claim.spec.storageClassName ?? '';
}

function volumeClass(volume: PersistentVolume): string {
  const ann = volume.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (ann !== undefined) return ann;
  return volume.spec.storageClassName ?? '';
}

/** isPVCFullyBound: named volume and the controller's bind-completed mark. */
function isFullyBound(claim: PersistentVolumeClaim): boolean {
  return !!claim.spec.volumeName && claim.metadata.annotations?.[ANN_BIND_COMPLETED] !== undefined;
}

/** volume.IsDelayBindingMode: an unknown class counts as Immediate. */
function isDelayBinding(claim: PersistentVolumeClaim, listers: VolumeListers): boolean {
  const name = claimClass(claim);
  if (!name) return false;
  return listers.storageClass(name)?.volumeBindingMode === 'WaitForFirstConsumer';
}

/** volume.CheckNodeAffinity: a volume without node affinity is reachable from every node. */
export function volumeFitsNode(volume: PersistentVolume, node: Node): boolean {
  const terms = volume.spec.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  return terms.some((t) => matchNodeSelectorTerm(t, node));
}

function storageOf(list: Record<string, string> | undefined): number {
  const q = list?.['storage'];
  return q ? parseQuantity(q) : 0;
}

/**
 * FindMatchingVolume on the scheduler's path (with a node): a volume pre-bound to the claim wins,
 * otherwise the smallest Available volume of the claim's class that the node can reach. Volumes
 * with fewer access modes are tried first (persistentVolumeOrderedIndex).
 */
export function findVolumeForClaimOnNode(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  node: Node,
): PersistentVolume | undefined {
  const requested = storageOf(claim.spec.resources?.requests);
  const wanted = claim.spec.accessModes ?? [];
  const cls = claimClass(claim);
  let best: { v: PersistentVolume; modes: number; size: number } | undefined;
  for (const v of volumes) {
    const ref = v.spec.claimRef;
    const preBound =
      !!ref &&
      ref.name === claim.metadata.name &&
      ref.namespace === claim.metadata.namespace &&
      (!ref.uid || ref.uid === claim.metadata.uid);
    if (ref && !preBound) continue;
    const modes = v.spec.accessModes ?? [];
    if (!wanted.every((m) => modes.includes(m))) continue;
    const size = storageOf(v.spec.capacity);
    if (size < requested) continue;
    if ((claim.spec.volumeMode ?? 'Filesystem') !== (v.spec.volumeMode ?? 'Filesystem')) continue;
    if (v.metadata.deletionTimestamp) continue;
    if (preBound) {
      if (volumeFitsNode(v, node)) return v;
      continue;
    }
    if (v.status?.phase !== 'Available') continue;
    if (volumeClass(v) !== cls) continue;
    if (claim.spec.selector && !selectorMatches(claim.spec.selector, v.metadata.labels)) continue;
    if (!volumeFitsNode(v, node)) continue;
    const n = new Set(modes).size;
    if (!best || n < best.modes || (n === best.modes && size < best.size)) {
      best = { v, modes: n, size };
    }
  }
  return best?.v;
}

function selectorMatches(
  selector: NonNullable<PersistentVolumeClaim['spec']['selector']>,
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = e.key in l;
    const values = e.values ?? [];
    if (e.operator === 'In' && !(has && values.includes(l[e.key] as string))) return false;
    if (e.operator === 'NotIn' && has && values.includes(l[e.key] as string)) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** checkVolumeProvisions: the class must name a provisioner that can create volumes. */
function canProvision(cls: StorageClass | undefined): boolean {
  return !!cls && cls.provisioner !== NOT_SUPPORTED_PROVISIONER;
}

/** What the scheduler writes for a delayed claim once the pod has a node (PreBind). */
export type DelayedBinding =
  | { kind: 'static'; claim: PersistentVolumeClaim; volume: PersistentVolume }
  | { kind: 'provision'; claim: PersistentVolumeClaim };

export function delayedBindings(
  claims: readonly PersistentVolumeClaim[],
  node: Node,
  listers: VolumeListers,
): DelayedBinding[] | undefined {
  const all = listers.volumes();
  const taken = new Set<string>();
  const out: DelayedBinding[] = [];
  for (const claim of claims) {
    const volume = findVolumeForClaimOnNode(
      claim,
      all.filter((v) => !taken.has(v.metadata.name ?? '')),
      node,
    );
    if (volume) {
      taken.add(volume.metadata.name ?? '');
      out.push({ kind: 'static', claim, volume });
      continue;
    }
    if (!canProvision(listers.storageClass(claimClass(claim)))) return undefined;
    out.push({ kind: 'provision', claim });
  }
  return out;
}

export const volumeBindingPlugin: FilterPlugin<VolumeBindingState> = {
  name: VOLUME_BINDING,
  events: ['NodeAdd', 'NodeLabel', 'PvcChange', 'PvChange', 'StorageClassChange'],
  preFilter(pod: Pod, snapshot: Snapshot) {
    const names = podClaimNames(pod);
    const listers = snapshot.volumes;
    if (names.length === 0 || !listers) return { status: SKIP };
    const namespace = pod.metadata.namespace ?? 'default';
    const state: VolumeBindingState = { bound: [], delayed: [] };
    let unboundImmediate = false;
    // podHasPVCs checks every claim before GetPodVolumeClaims sorts them
    const claims: PersistentVolumeClaim[] = [];
    for (const name of names) {
      const claim = listers.claim(namespace, name);
      if (!claim) return { status: unresolvable(`persistentvolumeclaim "${name}" not found`) };
      if (claim.status?.phase === 'Lost') {
        return {
          status: unresolvable(
            `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${claim.spec.volumeName ?? ''}"`,
          ),
        };
      }
      if (claim.metadata.deletionTimestamp) {
        return { status: unresolvable(`persistentvolumeclaim "${name}" is being deleted`) };
      }
      claims.push(claim);
    }
    for (const claim of claims) {
      if (isFullyBound(claim)) state.bound.push(claim);
      else if (isDelayBinding(claim, listers)) state.delayed.push(claim);
      else unboundImmediate = true;
    }
    if (unboundImmediate) return { status: unresolvable(ERR_REASON_UNBOUND_IMMEDIATE) };
    return { status: SUCCESS, state };
  },
  filter(_pod, info, state, snapshot): Status {
    const listers = snapshot.volumes;
    if (!state || !listers) return SUCCESS;
    const reasons: string[] = [];
    for (const claim of state.bound) {
      const volume = listers.volume(claim.spec.volumeName ?? '');
      if (!volume) return unresolvable(ERR_REASON_PV_NOT_EXIST);
      if (!volumeFitsNode(volume, info.node)) {
        reasons.push(ERR_REASON_NODE_CONFLICT);
        break;
      }
    }
    if (state.delayed.length > 0 && !delayedBindings(state.delayed, info.node, listers)) {
      reasons.push(ERR_REASON_BIND_CONFLICT);
    }
    return reasons.length > 0 ? unresolvable(...reasons) : SUCCESS;
  },
};
