// The persistentvolume-binder of kube-controller-manager (k/k pkg/controller/volume/persistentvolume
// pv_controller.go, v1.32). It binds each PersistentVolumeClaim to a PersistentVolume through the
// two pointers PV.spec.claimRef and PVC.spec.volumeName (the PV is written first), keeps both
// phases in step, hands claims of a StorageClass to its provisioner and applies a volume's reclaim
// policy once its claim is gone. Its events come from "persistentvolume-controller".
//
// What the simulated cluster has: kubeadm installs no StorageClass and no in-tree provisioner is
// enabled (--enable-hostpath-provisioner is off), so a class names an external provisioner that
// nobody runs here, exactly as in a bare kubeadm cluster: the claim is annotated for it and waits.
// WaitForFirstConsumer claims wait for the scheduler's VolumeBinding plugin: it sets a matching
// volume's claimRef or annotates the claim with the selected node for the provisioner.

import type { ApiResponse, WatchEvent } from '../client/api-client';
import type {
  KubeList,
  KubeObject,
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeClaimPhase,
  PersistentVolumePhase,
  Pod,
  StorageClass,
} from '../model';
import { isStatus } from '../model';
import { selectorMatches } from '../shared/labels';
import { parseQuantity } from '../shared/quantity';
import type { ObservedChange } from '../runtime/component';
import {
  BaseController,
  deepClone,
  errorText,
  isOk,
  keyOf,
  type Pass,
  refOf,
  splitKey,
  type SyncResult,
} from './base-controller';

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.kubernetes.io/provisioned-by';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
const ANN_BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
const ANN_MIGRATED_TO = 'pv.kubernetes.io/migrated-to';
const ANN_DEFAULT_CLASS = 'storageclass.kubernetes.io/is-default-class';
const ANN_BETA_DEFAULT_CLASS = 'storageclass.beta.kubernetes.io/is-default-class';
const HOST_PATH_PLUGIN = 'kubernetes.io/host-path';

/** --pvclaimbinder-sync-period */
export const PV_CLAIM_BINDER_SYNC_PERIOD_MS = 15_000;

const CLAIM = 'claim:';
const VOLUME = 'volume:';

/** helper.GetAccessModesAsString order, the key of the controller's access-mode index. */
const MODE_ORDER = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];

/** storagehelpers.GetPersistentVolumeClaimClass: the beta annotation wins over the field. */
export function claimClass(claim: PersistentVolumeClaim): string {
  const ann = claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (ann !== undefined) return ann;
  return claim.spec.storageClassName ?? '';
}

/** storagehelpers.GetPersistentVolumeClass */
export function volumeClass(volume: PersistentVolume): string {
  const ann = volume.metadata.annotations?.[ANN_BETA_STORAGE_CLASS];
  if (ann !== undefined) return ann;
  return volume.spec.storageClassName ?? '';
}

function claimHasClass(claim: PersistentVolumeClaim): boolean {
  return (
    claim.metadata.annotations?.[ANN_BETA_STORAGE_CLASS] !== undefined ||
    claim.spec.storageClassName !== undefined
  );
}

function hasAnnotation(obj: KubeObject, key: string): boolean {
  return obj.metadata.annotations?.[key] !== undefined;
}

function storageOf(list: Record<string, string> | undefined): number {
  const q = list?.['storage'];
  const v = parseQuantity(q);
  return Number.isNaN(v) ? 0 : v;
}

function volumeModeMismatch(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  return (claim.spec.volumeMode ?? 'Filesystem') !== (volume.spec.volumeMode ?? 'Filesystem');
}

function accessModesFit(claim: PersistentVolumeClaim, volume: PersistentVolume): boolean {
  const have = new Set<string>(volume.spec.accessModes ?? []);
  return (claim.spec.accessModes ?? []).every((m) => have.has(m));
}

/** storagehelpers.IsVolumeBoundToClaim: a claimRef without uid is a pre-binding by name. */
export function isVolumeBoundToClaim(
  volume: PersistentVolume,
  claim: PersistentVolumeClaim,
): boolean {
  const ref = volume.spec.claimRef;
  if (!ref) return false;
  if (claim.metadata.name !== ref.name || claim.metadata.namespace !== ref.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata.uid;
}

/** checkVolumeSatisfyClaim: why a volume the claim names cannot serve it, or undefined. */
export function volumeMismatch(
  volume: PersistentVolume,
  claim: PersistentVolumeClaim,
): string | undefined {
  if (volume.metadata.deletionTimestamp)
    return `the volume is marked for deletion "${volume.metadata.name}"`;
  if (storageOf(volume.spec.capacity) < storageOf(claim.spec.resources?.requests))
    return 'requested PV is too small';
  if (volumeClass(volume) !== claimClass(claim)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, volume)) return 'incompatible volumeMode';
  if (!accessModesFit(claim, volume)) return 'incompatible accessMode';
  return undefined;
}

/**
 * storagehelpers.FindMatchingVolume on the PV controller's path (no node): a volume pre-bound to
 * the claim wins, otherwise the smallest Available volume of the claim's class that the claim's
 * selector picks. Volumes are taken in name order (upstream: the indexer's order).
 */
function findMatchingVolume(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  delayBinding: boolean,
): PersistentVolume | undefined {
  // VolumeAttributesClass is beta and off by default in v1.32: a claim naming one never matches
  if (claim.spec.volumeAttributesClassName) return undefined;
  const requested = storageOf(claim.spec.resources?.requests);
  const requestedClass = claimClass(claim);
  let smallest: PersistentVolume | undefined;
  let smallestSize = 0;
  for (const volume of volumes) {
    if (volume.spec.claimRef && !isVolumeBoundToClaim(volume, claim)) continue;
    const size = storageOf(volume.spec.capacity);
    if (size < requested) continue;
    if (volumeModeMismatch(claim, volume)) continue;
    if (volume.metadata.deletionTimestamp) continue;
    if (isVolumeBoundToClaim(volume, claim)) return volume;
    // the scheduler binds delayed claims, with the node it picked
    if (delayBinding) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (claim.spec.selector && !selectorMatches(claim.spec.selector, volume.metadata.labels))
      continue;
    if (volumeClass(volume) !== requestedClass) continue;
    if (!smallest || smallestSize > size) {
      smallest = volume;
      smallestSize = size;
    }
  }
  return smallest;
}

function modesKey(modes: readonly string[] | undefined): string {
  const set = new Set(modes ?? []);
  return MODE_ORDER.filter((m) => set.has(m)).join(',');
}

/**
 * persistentVolumeOrderedIndex.findByClaim: volumes are grouped by their set of access modes; the
 * groups that hold every mode the claim asks for are searched fewest modes first, so a claim for
 * RWO takes an RWO volume before an RWO+ROX one. Groups of equal size go in key order.
 */
export function findBestMatchForClaim(
  claim: PersistentVolumeClaim,
  volumes: readonly PersistentVolume[],
  delayBinding: boolean,
): PersistentVolume | undefined {
  const groups = new Map<string, PersistentVolume[]>();
  for (const v of [...volumes].sort((a, b) => cmp(a.metadata.name, b.metadata.name))) {
    const key = modesKey(v.spec.accessModes);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(v);
  }
  const wanted = claim.spec.accessModes ?? [];
  const keys = [...groups.keys()]
    .filter((key) => {
      const have = new Set(key ? key.split(',') : []);
      return wanted.every((m) => have.has(m));
    })
    .map((key) => ({ key, n: key ? key.split(',').length : 0 }))
    .sort((a, b) => a.n - b.n || cmp(a.key, b.key));
  for (const { key } of keys) {
    const found = findMatchingVolume(claim, groups.get(key) as PersistentVolume[], delayBinding);
    if (found) return found;
  }
  return undefined;
}

function cmp(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

/** util.GetDefaultClass: the newest class marked default, then the first by name. */
export function defaultStorageClass(classes: readonly StorageClass[]): StorageClass | undefined {
  const defaults = classes.filter((c) => {
    const a = c.metadata.annotations ?? {};
    return a[ANN_DEFAULT_CLASS] === 'true' || a[ANN_BETA_DEFAULT_CLASS] === 'true';
  });
  defaults.sort((a, b) => {
    const ta = Date.parse(a.metadata.creationTimestamp ?? '') || 0;
    const tb = Date.parse(b.metadata.creationTimestamp ?? '') || 0;
    return ta === tb ? cmp(a.metadata.name, b.metadata.name) : tb - ta;
  });
  return defaults[0];
}

/**
 * A main-resource update carries no status: the apiserver keeps the stored one anyway, and
 * upstream's field manager resets status fields on such a write, so the controller's
 * managedFields entry for the update must not claim them.
 */
function withoutStatus<T extends KubeObject>(obj: T): T {
  const { status: _status, ...rest } = obj as T & { status?: unknown };
  return rest as T;
}

/** What deleting a released volume's storage comes to (pv_controller.go doDeleteVolume). */
type DeleteOutcome =
  { kind: 'deleted' } | { kind: 'external' } | { kind: 'error'; message: string };

function deleteStorage(volume: PersistentVolume): DeleteOutcome {
  const name = volume.metadata.name ?? '';
  const provisionedBy = volume.metadata.annotations?.[ANN_DYNAMICALLY_PROVISIONED];
  if (provisionedBy) {
    if (!provisionedBy.startsWith('kubernetes.io/')) return { kind: 'external' };
    if (provisionedBy !== HOST_PATH_PLUGIN)
      return { kind: 'error', message: `no volume plugin matched name: ${provisionedBy}` };
    return hostPathDelete(volume);
  }
  // HonorPVReclaimPolicy (beta, on in v1.32): CSI and migrated volumes belong to their driver
  if (hasAnnotation(volume, ANN_MIGRATED_TO) || volume.spec.csi) return { kind: 'external' };
  if (volume.spec.hostPath) return hostPathDelete(volume);
  return {
    kind: 'error',
    message: `error getting deleter volume plugin for volume "${name}": no deletable volume plugin matched`,
  };
}

/** The in-tree hostPath deleter only removes directories under /tmp. */
function hostPathDelete(volume: PersistentVolume): DeleteOutcome {
  const path = volume.spec.hostPath?.path ?? '';
  if (!/\/tmp\/.+/.test(path))
    return {
      kind: 'error',
      message: `host_path deleter only supports /tmp/.+ but received provided ${path}`,
    };
  return { kind: 'deleted' };
}

export class PersistentVolumeBinderController extends BaseController {
  readonly controllerName = 'persistentvolume-binder';
  readonly eventSource = 'persistentvolume-controller';
  readonly periodMs = PV_CLAIM_BINDER_SYNC_PERIOD_MS;

  /**
   * What this controller wrote during the current pass, newer than its informers (upstream's
   * storeVolumeUpdate/storeClaimUpdate): a second claim in the same pass must not see a volume
   * as still Available after the first took it.
   */
  private readonly written = new Map<string, KubeObject>();

  constructor() {
    super(['persistentvolumeclaims', 'persistentvolumes', 'storageclasses']);
  }

  /** The class informer has no event handler upstream: a class change waits for the resync. */
  override wakeOn({ resource }: ObservedChange): boolean {
    return resource !== 'storageclasses';
  }

  protected keysFor(resource: string, ev: WatchEvent): string[] {
    if (resource === 'persistentvolumeclaims') {
      const claim = ev.object as PersistentVolumeClaim;
      if (ev.type !== 'DELETED') return [CLAIM + keyOf(claim)];
      // a deleted claim releases its volume at once
      return claim.spec?.volumeName ? [VOLUME + claim.spec.volumeName] : [];
    }
    if (resource === 'persistentvolumes') {
      const volume = ev.object as PersistentVolume;
      if (ev.type !== 'DELETED') return [VOLUME + (volume.metadata.name ?? '')];
      const ref = volume.spec?.claimRef;
      return ref?.name ? [`${CLAIM}${ref.namespace ?? ''}/${ref.name}`] : [];
    }
    return [];
  }

  protected allKeys(): string[] {
    return [
      ...this.informer<PersistentVolumeClaim>('persistentvolumeclaims')
        .list()
        .map((c) => CLAIM + keyOf(c)),
      ...this.informer<PersistentVolume>('persistentvolumes')
        .list()
        .map((v) => VOLUME + (v.metadata.name ?? '')),
    ];
  }

  protected override afterSync(): void {
    this.written.clear();
  }

  protected syncKey(key: string, pass: Pass, cause: number | undefined): SyncResult {
    if (key.startsWith(CLAIM)) {
      const { namespace, name } = splitKey(key.slice(CLAIM.length));
      const claim = this.claim(namespace ?? '', name);
      if (!claim) return 'done';
      return this.syncClaim(claim, pass, cause) ? 'done' : 'retry';
    }
    const volume = this.volume(key.slice(VOLUME.length));
    if (!volume) return 'done';
    return this.syncVolume(volume, pass, cause) ? 'done' : 'retry';
  }

  // ---------------------------------------------------------------- cache

  private claim(namespace: string, name: string): PersistentVolumeClaim | undefined {
    const key = `${namespace}/${name}`;
    return (this.written.get(CLAIM + key) ??
      this.informer<PersistentVolumeClaim>('persistentvolumeclaims').getByKey(key)) as
      PersistentVolumeClaim | undefined;
  }

  private volume(name: string): PersistentVolume | undefined {
    return (this.written.get(VOLUME + name) ??
      this.informer<PersistentVolume>('persistentvolumes').getByKey(name)) as
      PersistentVolume | undefined;
  }

  private volumes(): PersistentVolume[] {
    return this.informer<PersistentVolume>('persistentvolumes')
      .list()
      .map((v) => (this.written.get(VOLUME + (v.metadata.name ?? '')) as PersistentVolume) ?? v);
  }

  private storageClass(name: string): StorageClass | undefined {
    return this.informer<StorageClass>('storageclasses').getByKey(name);
  }

  private remember(res: ApiResponse, key: string): KubeObject | undefined {
    if (!isOk(res) || isStatus(res.body)) return undefined;
    const obj = res.body as KubeObject;
    this.written.set(key, obj);
    return obj;
  }

  // ---------------------------------------------------------------- claims

  /** syncClaim: true when done, false to retry on the next pass. */
  private syncClaim(claim: PersistentVolumeClaim, pass: Pass, cause?: number): boolean {
    return hasAnnotation(claim, ANN_BIND_COMPLETED)
      ? this.syncBoundClaim(claim, pass, cause)
      : this.syncUnboundClaim(claim, pass, cause);
  }

  private isDelayBinding(claim: PersistentVolumeClaim): boolean {
    const className = claimClass(claim);
    if (!className) return false;
    return this.storageClass(className)?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  private syncUnboundClaim(claim: PersistentVolumeClaim, pass: Pass, cause?: number): boolean {
    const volumeName = claim.spec.volumeName;
    if (!volumeName) {
      const delayBinding = this.isDelayBinding(claim);
      const volume = findBestMatchForClaim(claim, this.volumes(), delayBinding);
      if (volume) return this.bind(volume, claim, pass, cause);
      // No volume: provision one if the claim has (or now gets) a class.
      const assigned = this.assignDefaultStorageClass(claim, pass, cause);
      if (assigned !== undefined) return assigned;
      if (delayBinding && !hasAnnotation(claim, ANN_SELECTED_NODE)) {
        if (!this.eventForUnboundDelayBindingClaim(claim, pass)) return false;
      } else if (claimClass(claim) !== '') {
        // the provisioning operation updates the claim itself; binding follows its new volume
        return this.provisionClaim(claim, pass, cause);
      } else {
        pass.event(
          claim,
          'Normal',
          'FailedBinding',
          'no persistent volumes available for this claim and no storage class is set',
        );
      }
      return this.updateClaimStatus(claim, 'Pending', undefined, pass, cause) !== undefined;
    }
    const volume = this.volume(volumeName);
    if (!volume) {
      // the claim names a volume that does not exist (yet): wait for it
      return this.updateClaimStatus(claim, 'Pending', undefined, pass, cause) !== undefined;
    }
    if (!volume.spec.claimRef) {
      const mismatch = volumeMismatch(volume, claim);
      if (mismatch) {
        pass.event(
          claim,
          'Warning',
          'VolumeMismatch',
          `Cannot bind to requested volume "${volumeName}": ${mismatch}`,
        );
        return this.updateClaimStatus(claim, 'Pending', undefined, pass, cause) !== undefined;
      }
      return this.bind(volume, claim, pass, cause);
    }
    if (isVolumeBoundToClaim(volume, claim)) return this.bind(volume, claim, pass, cause);
    pass.event(
      claim,
      'Warning',
      'FailedBinding',
      `volume "${volumeName}" already bound to a different claim.`,
    );
    if (hasAnnotation(claim, ANN_BOUND_BY_CONTROLLER)) {
      // only if someone removed bind-completed from a claim this controller bound
      pass.emit(
        'error',
        refOf(claim),
        `invalid binding of claim "${keyOf(claim)}" to volume "${volumeName}": volume already claimed by "${volume.spec.claimRef.namespace}/${volume.spec.claimRef.name}"`,
        cause,
      );
      return false;
    }
    return this.updateClaimStatus(claim, 'Pending', undefined, pass, cause) !== undefined;
  }

  private syncBoundClaim(claim: PersistentVolumeClaim, pass: Pass, cause?: number): boolean {
    const volumeName = claim.spec.volumeName;
    if (!volumeName)
      return this.claimLost(
        claim,
        'ClaimLost',
        'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
        pass,
        cause,
      );
    const volume = this.volume(volumeName);
    if (!volume)
      return this.claimLost(
        claim,
        'ClaimLost',
        'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
        pass,
        cause,
      );
    if (!volume.spec.claimRef || volume.spec.claimRef.uid === claim.metadata.uid)
      return this.bind(volume, claim, pass, cause);
    return this.claimLost(
      claim,
      'ClaimMisbound',
      'Two claims are bound to the same volume, this one is bound incorrectly',
      pass,
      cause,
    );
  }

  /** updateClaimStatusWithEvent to Lost: the event only when the phase changes. */
  private claimLost(
    claim: PersistentVolumeClaim,
    reason: string,
    message: string,
    pass: Pass,
    cause?: number,
  ): boolean {
    if (claim.status?.phase === 'Lost') return true;
    const updated = this.updateClaimStatus(claim, 'Lost', undefined, pass, cause);
    if (!updated) return false;
    pass.event(updated, 'Warning', reason, message);
    return true;
  }

  /** assignDefaultStorageClass: undefined when the claim keeps its class (or there is none). */
  private assignDefaultStorageClass(
    claim: PersistentVolumeClaim,
    pass: Pass,
    cause?: number,
  ): boolean | undefined {
    if (claimHasClass(claim)) return undefined;
    const def = defaultStorageClass(this.informer<StorageClass>('storageclasses').list());
    if (!def) return undefined;
    const updated = deepClone(claim);
    updated.spec.storageClassName = def.metadata.name;
    const res = pass.write(
      {
        verb: 'update',
        resource: 'persistentvolumeclaims',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        body: withoutStatus(updated),
      },
      refOf(claim),
      `Assigning the default StorageClass ${def.metadata.name} to PersistentVolumeClaim ${keyOf(claim)}`,
      cause,
    );
    return this.remember(res, CLAIM + keyOf(claim)) !== undefined;
  }

  /** emitEventForUnboundDelayBindingClaim: names the pods still waiting for a node, if any. */
  private eventForUnboundDelayBindingClaim(claim: PersistentVolumeClaim, pass: Pass): boolean {
    const res = pass.ctx.client.request({
      verb: 'list',
      resource: 'pods',
      namespace: claim.metadata.namespace,
    });
    if (!isOk(res) || isStatus(res.body)) return false;
    const waiting = (res.body as KubeList<Pod>).items
      .filter(
        (p) =>
          p.status?.phase !== 'Succeeded' &&
          p.status?.phase !== 'Failed' &&
          !p.spec.nodeName &&
          (p.spec.volumes ?? []).some(
            (v) => v.persistentVolumeClaim?.claimName === claim.metadata.name,
          ),
      )
      .map((p) => p.metadata.name ?? '')
      .sort();
    if (waiting.length === 0)
      pass.event(
        claim,
        'Normal',
        'WaitForFirstConsumer',
        'waiting for first consumer to be created before binding',
      );
    else
      pass.event(
        claim,
        'Normal',
        'WaitForPodScheduled',
        waiting.length > 1
          ? `waiting for pods ${waiting.join(',')} to be scheduled`
          : `waiting for pod ${waiting[0]} to be scheduled`,
      );
    return true;
  }

  /**
   * provisionClaim. No in-tree provisioner is enabled in a kubeadm cluster, so a class either
   * names an external provisioner (annotate the claim for it and report that it waits) or fails.
   */
  private provisionClaim(claim: PersistentVolumeClaim, pass: Pass, cause?: number): boolean {
    const className = claimClass(claim);
    const storageClass = this.storageClass(className);
    if (!storageClass) {
      pass.event(
        claim,
        'Warning',
        'ProvisioningFailed',
        `storageclass.storage.k8s.io "${className}" not found`,
      );
      return true;
    }
    const provisioner = storageClass.provisioner;
    if (provisioner.startsWith('kubernetes.io/') && provisioner !== HOST_PATH_PLUGIN) {
      pass.event(
        claim,
        'Warning',
        'ProvisioningFailed',
        `no volume plugin matched name: ${provisioner}`,
      );
      return true;
    }
    const annotated = this.setClaimProvisioner(claim, provisioner, pass, cause);
    if (typeof annotated === 'string') {
      if (provisioner !== HOST_PATH_PLUGIN)
        pass.event(claim, 'Warning', 'ProvisioningFailed', `Error saving claim: ${annotated}`);
      return false;
    }
    if (provisioner === HOST_PATH_PLUGIN) {
      pass.event(
        annotated,
        'Warning',
        'ProvisioningFailed',
        `Failed to create provisioner: provisioning in volume plugin "${HOST_PATH_PLUGIN}" is disabled`,
      );
      return true;
    }
    pass.event(
      annotated,
      'Normal',
      'ExternalProvisioning',
      `Waiting for a volume to be created either by the external provisioner '${provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    );
    return true;
  }

  private setClaimProvisioner(
    claim: PersistentVolumeClaim,
    provisioner: string,
    pass: Pass,
    cause?: number,
  ): PersistentVolumeClaim | string {
    if (claim.metadata.annotations?.[ANN_BETA_STORAGE_PROVISIONER] === provisioner) return claim;
    const updated = deepClone(claim);
    updated.metadata.annotations = {
      ...(updated.metadata.annotations ?? {}),
      [ANN_BETA_STORAGE_PROVISIONER]: provisioner,
      [ANN_STORAGE_PROVISIONER]: provisioner,
    };
    const res = pass.write(
      {
        verb: 'update',
        resource: 'persistentvolumeclaims',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        body: withoutStatus(updated),
      },
      refOf(claim),
      `Handing PersistentVolumeClaim ${keyOf(claim)} to provisioner ${provisioner}`,
      cause,
    );
    return (
      (this.remember(res, CLAIM + keyOf(claim)) as PersistentVolumeClaim | undefined) ??
      errorText(res)
    );
  }

  /** updateClaimStatus: the new claim, or undefined when the write failed. */
  private updateClaimStatus(
    claim: PersistentVolumeClaim,
    phase: PersistentVolumeClaimPhase,
    volume: PersistentVolume | undefined,
    pass: Pass,
    cause?: number,
  ): PersistentVolumeClaim | undefined {
    const status = { ...(claim.status ?? {}) };
    let dirty = false;
    if (status.phase !== phase) {
      status.phase = phase;
      dirty = true;
    }
    if (!volume) {
      if (status.accessModes !== undefined) {
        delete status.accessModes;
        dirty = true;
      }
      if (status.capacity !== undefined) {
        delete status.capacity;
        dirty = true;
      }
    } else {
      const modes = volume.spec.accessModes;
      if (JSON.stringify(status.accessModes) !== JSON.stringify(modes)) {
        if (modes) status.accessModes = [...modes];
        else delete status.accessModes;
        dirty = true;
      }
      // only when the claim becomes Bound: a bound claim may differ on purpose (a resize)
      if (claim.status?.phase !== phase) {
        const volumeCap = volume.spec.capacity?.['storage'];
        if (volumeCap === undefined) {
          pass.emit(
            'error',
            refOf(claim),
            `PersistentVolume "${volume.metadata.name}" is without a storage capacity`,
            cause,
          );
          return undefined;
        }
        const claimCap = claim.status?.capacity?.['storage'];
        if (claimCap === undefined || parseQuantity(claimCap) !== parseQuantity(volumeCap)) {
          status.capacity = { ...volume.spec.capacity };
          dirty = true;
        }
      }
    }
    if (!dirty) return claim;
    const updated = { ...deepClone(claim), status };
    const res = pass.write(
      {
        verb: 'update',
        resource: 'persistentvolumeclaims',
        subresource: 'status',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        body: updated,
      },
      refOf(claim),
      `PersistentVolumeClaim ${keyOf(claim)} entered phase ${phase}`,
      cause,
    );
    return this.remember(res, CLAIM + keyOf(claim)) as PersistentVolumeClaim | undefined;
  }

  // ---------------------------------------------------------------- binding

  /** bind: the volume first (claimRef, then phase), then the claim (volumeName, then phase). */
  private bind(
    volume: PersistentVolume,
    claim: PersistentVolumeClaim,
    pass: Pass,
    cause?: number,
  ): boolean {
    const boundVolume = this.bindVolumeToClaim(volume, claim, pass, cause);
    if (!boundVolume) return false;
    const volumeBound = this.updateVolumePhase(boundVolume, 'Bound', '', pass, cause);
    if (!volumeBound) return false;
    const boundClaim = this.bindClaimToVolume(claim, volumeBound, pass, cause);
    if (!boundClaim) return false;
    return this.updateClaimStatus(boundClaim, 'Bound', volumeBound, pass, cause) !== undefined;
  }

  private bindVolumeToClaim(
    volume: PersistentVolume,
    claim: PersistentVolumeClaim,
    pass: Pass,
    cause?: number,
  ): PersistentVolume | undefined {
    const preBound = isVolumeBoundToClaim(volume, claim);
    const ref = volume.spec.claimRef;
    const updated = deepClone(volume);
    let dirty = false;
    if (
      !ref ||
      ref.name !== claim.metadata.name ||
      ref.namespace !== claim.metadata.namespace ||
      ref.uid !== claim.metadata.uid
    ) {
      // reference.GetReference(claim)
      updated.spec.claimRef = {
        kind: 'PersistentVolumeClaim',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        uid: claim.metadata.uid,
        apiVersion: 'v1',
        resourceVersion: claim.metadata.resourceVersion,
      };
      dirty = true;
    }
    if (!preBound && !hasAnnotation(updated, ANN_BOUND_BY_CONTROLLER)) {
      updated.metadata.annotations = {
        ...(updated.metadata.annotations ?? {}),
        [ANN_BOUND_BY_CONTROLLER]: 'yes',
      };
      dirty = true;
    }
    if (!dirty) return volume;
    const res = pass.write(
      {
        verb: 'update',
        resource: 'persistentvolumes',
        name: volume.metadata.name,
        body: withoutStatus(updated),
      },
      refOf(volume),
      `Binding PersistentVolume ${volume.metadata.name} to PersistentVolumeClaim ${keyOf(claim)}`,
      cause,
    );
    return this.remember(res, VOLUME + (volume.metadata.name ?? '')) as
      PersistentVolume | undefined;
  }

  private bindClaimToVolume(
    claim: PersistentVolumeClaim,
    volume: PersistentVolume,
    pass: Pass,
    cause?: number,
  ): PersistentVolumeClaim | undefined {
    const updated = deepClone(claim);
    const annotations = { ...(updated.metadata.annotations ?? {}) };
    let dirty = false;
    if (claim.spec.volumeName !== volume.metadata.name) {
      updated.spec.volumeName = volume.metadata.name;
      annotations[ANN_BOUND_BY_CONTROLLER] ??= 'yes';
      dirty = true;
    }
    if (annotations[ANN_BIND_COMPLETED] === undefined) {
      annotations[ANN_BIND_COMPLETED] = 'yes';
      dirty = true;
    }
    if (!dirty) return claim;
    updated.metadata.annotations = annotations;
    const res = pass.write(
      {
        verb: 'update',
        resource: 'persistentvolumeclaims',
        namespace: claim.metadata.namespace,
        name: claim.metadata.name,
        body: withoutStatus(updated),
      },
      refOf(claim),
      `Binding PersistentVolumeClaim ${keyOf(claim)} to PersistentVolume ${volume.metadata.name}`,
      cause,
    );
    return this.remember(res, CLAIM + keyOf(claim)) as PersistentVolumeClaim | undefined;
  }

  /**
   * updateVolumePhase. The registry stamps lastPhaseTransitionTime when the phase changes
   * (PersistentVolumeLastPhaseTransitionTime, GA in v1.31); the simulated apiserver does not,
   * so the writer stamps the same instant.
   */
  private updateVolumePhase(
    volume: PersistentVolume,
    phase: PersistentVolumePhase,
    message: string,
    pass: Pass,
    cause?: number,
  ): PersistentVolume | undefined {
    if (volume.status?.phase === phase) return volume;
    const updated = deepClone(volume);
    const status: NonNullable<PersistentVolume['status']> = {
      ...(updated.status ?? {}),
      phase,
      lastPhaseTransitionTime: pass.ctx.nowIso,
    };
    if (message) status.message = message;
    else delete status.message;
    updated.status = status;
    const res = pass.write(
      {
        verb: 'update',
        resource: 'persistentvolumes',
        subresource: 'status',
        name: volume.metadata.name,
        body: updated,
      },
      refOf(volume),
      `PersistentVolume ${volume.metadata.name} entered phase ${phase}`,
      cause,
    );
    return this.remember(res, VOLUME + (volume.metadata.name ?? '')) as
      PersistentVolume | undefined;
  }

  /** unbindVolume: forget a binding this controller made, or only the uid of a user's. */
  private unbindVolume(volume: PersistentVolume, pass: Pass, cause?: number): boolean {
    const updated = deepClone(volume);
    if (hasAnnotation(volume, ANN_BOUND_BY_CONTROLLER)) {
      delete updated.spec.claimRef;
      const annotations = { ...(updated.metadata.annotations ?? {}) };
      delete annotations[ANN_BOUND_BY_CONTROLLER];
      if (Object.keys(annotations).length === 0) delete updated.metadata.annotations;
      else updated.metadata.annotations = annotations;
    } else if (updated.spec.claimRef) {
      delete updated.spec.claimRef.uid;
    }
    const res = pass.write(
      {
        verb: 'update',
        resource: 'persistentvolumes',
        name: volume.metadata.name,
        body: withoutStatus(updated),
      },
      refOf(volume),
      `Rolling back the binding of PersistentVolume ${volume.metadata.name}`,
      cause,
    );
    const unbound = this.remember(res, VOLUME + (volume.metadata.name ?? '')) as
      PersistentVolume | undefined;
    if (!unbound) return false;
    return this.updateVolumePhase(unbound, 'Available', '', pass, cause) !== undefined;
  }

  // ---------------------------------------------------------------- volumes

  private syncVolume(volume: PersistentVolume, pass: Pass, cause?: number): boolean {
    const ref = volume.spec.claimRef;
    // unused, or reserved for a claim whose own sync will bind it
    if (!ref || !ref.uid)
      return this.updateVolumePhase(volume, 'Available', '', pass, cause) !== undefined;
    const releasedOrFailed =
      volume.status?.phase === 'Released' || volume.status?.phase === 'Failed';
    let claim = this.claim(ref.namespace ?? '', ref.name ?? '');
    if (!claim && !releasedOrFailed) {
      // an external binder may have bound a claim this informer has not seen yet: ask
      const live = this.getClaim(ref.namespace ?? '', ref.name ?? '', pass);
      if (live === null) return false;
      claim = live;
    }
    if (claim && claim.metadata.uid !== ref.uid) {
      // the claim was deleted and created again under the same name; the cache may be behind
      const live = this.getClaim(ref.namespace ?? '', ref.name ?? '', pass);
      if (live === null) return false;
      claim = live && live.metadata.uid === ref.uid ? live : undefined;
    }
    if (!claim) {
      let released: PersistentVolume | undefined = volume;
      if (!releasedOrFailed) {
        pass.emit(
          'release',
          refOf(volume),
          `PersistentVolume ${volume.metadata.name} is released: its claim ${ref.namespace}/${ref.name} is gone (reclaim policy ${volume.spec.persistentVolumeReclaimPolicy})`,
          cause,
        );
        released = this.updateVolumePhase(volume, 'Released', '', pass, cause);
        if (!released) return false;
      }
      return this.reclaimVolume(released, pass, cause);
    }
    if (!claim.spec.volumeName) {
      if (volumeModeMismatch(claim, volume)) {
        pass.event(
          volume,
          'Warning',
          'VolumeMismatch',
          `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${claim.metadata.name}" due to incompatible volumeMode.`,
        );
        pass.event(
          claim,
          'Warning',
          'VolumeMismatch',
          `Cannot bind PersistentVolume "${volume.metadata.name}" to requested PersistentVolumeClaim due to incompatible volumeMode.`,
        );
        return true;
      }
      // bound on the volume's side only: the claim's sync finishes the job
      pass.requeueAt(CLAIM + keyOf(claim), pass.now);
      return true;
    }
    if (claim.spec.volumeName === volume.metadata.name)
      return this.updateVolumePhase(volume, 'Bound', '', pass, cause) !== undefined;
    // the claim is bound to another volume
    if (
      hasAnnotation(volume, ANN_DYNAMICALLY_PROVISIONED) &&
      volume.spec.persistentVolumeReclaimPolicy === 'Delete'
    ) {
      let released: PersistentVolume | undefined = volume;
      if (!releasedOrFailed) {
        released = this.updateVolumePhase(volume, 'Released', '', pass, cause);
        if (!released) return false;
      }
      return this.reclaimVolume(released, pass, cause);
    }
    return this.unbindVolume(volume, pass, cause);
  }

  /** A claim read from the apiserver: undefined when gone, null when the read failed. */
  private getClaim(
    namespace: string,
    name: string,
    pass: Pass,
  ): PersistentVolumeClaim | undefined | null {
    const res = pass.ctx.client.request({
      verb: 'get',
      resource: 'persistentvolumeclaims',
      namespace,
      name,
    });
    if (res.code === 404) return undefined;
    if (!isOk(res) || isStatus(res.body)) return null;
    return res.body as PersistentVolumeClaim;
  }

  /** reclaimVolume: Retain keeps the volume Released; Delete removes its storage, then it. */
  private reclaimVolume(volume: PersistentVolume, pass: Pass, cause?: number): boolean {
    if (hasAnnotation(volume, ANN_MIGRATED_TO)) return true;
    switch (volume.spec.persistentVolumeReclaimPolicy) {
      case 'Retain':
        return true;
      case 'Delete':
        return this.deleteVolume(volume, pass, cause);
      case 'Recycle':
        // Recycling (deprecated) runs a scrubber pod for NFS and hostPath volumes; every other
        // source has no recycler.
        if (volume.spec.nfs || volume.spec.hostPath) return true;
        return this.volumeFailed(
          volume,
          'VolumeFailedRecycle',
          'No recycler plugin found for the volume!',
          pass,
          cause,
        );
      default:
        return this.volumeFailed(
          volume,
          'VolumeUnknownReclaimPolicy',
          'Volume has unrecognized PersistentVolumeReclaimPolicy',
          pass,
          cause,
        );
    }
  }

  /** updateVolumePhaseWithEvent to Failed: the event only when the phase changes. */
  private volumeFailed(
    volume: PersistentVolume,
    reason: string,
    message: string,
    pass: Pass,
    cause?: number,
  ): boolean {
    if (volume.status?.phase === 'Failed') return true;
    const failed = this.updateVolumePhase(volume, 'Failed', message, pass, cause);
    if (!failed) return false;
    pass.event(failed, 'Warning', reason, message);
    return true;
  }

  /** deleteVolumeOperation */
  private deleteVolume(volume: PersistentVolume, pass: Pass, cause?: number): boolean {
    const outcome = deleteStorage(volume);
    if (outcome.kind === 'external') return true;
    if (outcome.kind === 'error')
      return this.volumeFailed(volume, 'VolumeFailedDelete', outcome.message, pass, cause);
    const res = pass.write(
      { verb: 'delete', resource: 'persistentvolumes', name: volume.metadata.name },
      refOf(volume),
      `Deleting PersistentVolume ${volume.metadata.name}: its claim is gone and its reclaim policy is Delete`,
      cause,
    );
    return isOk(res) || res.code === 404;
  }
}
