// printPersistentVolume, printPersistentVolumeClaim and printStorageClass (k/k
// pkg/printers/internalversion/printers.go, v1.32 with the VolumeAttributesClass column).

import type { KubeObject } from '../../model';
import { timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, arr, col, field, nameCol, rec, str } from './printer-types';

const MODES: Record<string, string> = {
  ReadWriteOnce: 'RWO',
  ReadOnlyMany: 'ROX',
  ReadWriteMany: 'RWX',
  ReadWriteOncePod: 'RWOP',
};

/** helper.GetAccessModesAsString: each mode once, in this fixed order. */
export function accessModes(modes: unknown): string {
  const set = new Set(arr<string>(modes));
  return Object.keys(MODES)
    .filter((m) => set.has(m))
    .map((m) => MODES[m])
    .join(',');
}

/** GetPersistentVolumeClass / GetPersistentVolumeClaimClass: the beta annotation wins. */
function storageClassOf(o: KubeObject): string {
  const beta = o.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
  return beta !== undefined ? str(beta) : str(field(o, 'spec', 'storageClassName'));
}

/** resource.Quantity.String(): a missing quantity is the zero Quantity, "0". */
function quantity(q: unknown): string {
  if (typeof q === 'number') return String(q);
  return str(q) || '0';
}

function vacOf(o: KubeObject): string {
  return str(field(o, 'spec', 'volumeAttributesClassName')) || '<unset>';
}

const volumeModeCol = () =>
  col(
    'VolumeMode',
    'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
    1,
  );

export const persistentVolumePrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col(
      'Capacity',
      "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity",
    ),
    col(
      'Access Modes',
      'accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes',
    ),
    col(
      'Reclaim Policy',
      'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming',
    ),
    col(
      'Status',
      'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase',
    ),
    col(
      'Claim',
      'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding',
    ),
    col(
      'StorageClass',
      'storageClassName is the name of StorageClass to which this persistent volume belongs. Empty value means that this volume does not belong to any StorageClass.',
    ),
    col(
      'VolumeAttributesClass',
      'Name of VolumeAttributesClass to which this persistent volume belongs. Empty value is not allowed. When this field is not set, it indicates that this volume does not belong to any VolumeAttributesClass. This field is mutable and can be changed by the CSI driver after a volume has been updated successfully to a new class. For an unbound PersistentVolume, the volumeAttributesClassName will be matched with unbound PersistentVolumeClaims during the binding process. This is a beta field and requires enabling VolumeAttributesClass feature (off by default).',
    ),
    col(
      'Reason',
      'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
    ),
    ageCol(),
    volumeModeCol(),
  ],
  row(pv: KubeObject, ctx: PrintContext) {
    const claimRef = field(pv, 'spec', 'claimRef');
    const ref = rec(claimRef);
    const claim =
      claimRef && typeof claimRef === 'object'
        ? `${str(ref['namespace'])}/${str(ref['name'])}`
        : '';
    return [
      str(pv.metadata?.name),
      quantity(field(pv, 'spec', 'capacity', 'storage')),
      accessModes(field(pv, 'spec', 'accessModes')),
      str(field(pv, 'spec', 'persistentVolumeReclaimPolicy')),
      pv.metadata?.deletionTimestamp ? 'Terminating' : str(field(pv, 'status', 'phase')),
      claim,
      storageClassOf(pv),
      vacOf(pv),
      str(field(pv, 'status', 'reason')),
      timestampSince(pv.metadata?.creationTimestamp, ctx.now),
      str(field(pv, 'spec', 'volumeMode')) || '<unset>',
    ];
  },
};

export const persistentVolumeClaimPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Status', 'phase represents the current phase of PersistentVolumeClaim.'),
    col(
      'Volume',
      'volumeName is the binding reference to the PersistentVolume backing this claim.',
    ),
    col('Capacity', 'capacity represents the actual resources of the underlying volume.'),
    col(
      'Access Modes',
      'accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1',
    ),
    col(
      'StorageClass',
      'storageClassName is the name of the StorageClass required by the claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#class-1',
    ),
    col(
      'VolumeAttributesClass',
      'volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.',
    ),
    ageCol(),
    volumeModeCol(),
  ],
  row(pvc: KubeObject, ctx: PrintContext) {
    const phase = pvc.metadata?.deletionTimestamp
      ? 'Terminating'
      : str(field(pvc, 'status', 'phase'));
    const bound = !!str(field(pvc, 'spec', 'volumeName'));
    return [
      str(pvc.metadata?.name),
      phase,
      str(field(pvc, 'spec', 'volumeName')),
      bound ? quantity(field(pvc, 'status', 'capacity', 'storage')) : '',
      bound ? accessModes(field(pvc, 'status', 'accessModes')) : '',
      storageClassOf(pvc),
      vacOf(pvc),
      timestampSince(pvc.metadata?.creationTimestamp, ctx.now),
      str(field(pvc, 'spec', 'volumeMode')) || '<unset>',
    ];
  },
};

const DEFAULT_SC = 'storageclass.kubernetes.io/is-default-class';

export const storageClassPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Provisioner', 'provisioner indicates the type of the provisioner.'),
    col(
      'ReclaimPolicy',
      'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.',
    ),
    col(
      'VolumeBindingMode',
      'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.',
    ),
    col(
      'AllowVolumeExpansion',
      'allowVolumeExpansion shows whether the storage class allow volume expand.',
    ),
    ageCol(),
  ],
  row(sc: KubeObject, ctx: PrintContext) {
    const a = sc.metadata?.annotations ?? {};
    const isDefault =
      a[DEFAULT_SC] === 'true' || a['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
    const expansion = (sc as Record<string, unknown>)['allowVolumeExpansion'];
    return [
      `${str(sc.metadata?.name)}${isDefault ? ' (default)' : ''}`,
      str((sc as Record<string, unknown>)['provisioner']),
      str((sc as Record<string, unknown>)['reclaimPolicy']) || 'Delete',
      str((sc as Record<string, unknown>)['volumeBindingMode']) || 'Immediate',
      expansion === true,
      timestampSince(sc.metadata?.creationTimestamp, ctx.now),
    ];
  },
};
