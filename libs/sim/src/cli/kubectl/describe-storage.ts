// kubectl describe pv / pvc in describe.go's formats (describePersistentVolume,
// describePersistentVolumeClaim with printPersistentVolumeClaim and the "Used By" pod list).

import { accessModes } from '../../apiserver/printers/storage-printers';
import { timestampSince } from '../../apiserver/printers';
import type { KubectlEnv } from './kubectl-env';
import { listItems } from './kubectl-env';
import type { DescribeWriter } from './describe-text';
import { annotationsMultiline, labelsMultiline, rfc1123z } from './describe-text';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** GetPersistentVolumeClass / GetPersistentVolumeClaimClass: the beta annotation wins. */
function storageClassOf(o: Any): string {
  const beta = o.metadata?.annotations?.[BETA_CLASS];
  return beta !== undefined ? String(beta) : String(o.spec?.storageClassName ?? '');
}

/** Go's %v of a []string: `[a b]`, `[]` when empty. */
function goSlice(items: unknown): string {
  return `[${Array.isArray(items) ? items.join(' ') : ''}]`;
}

/** resource.Quantity.String() of a possibly missing quantity. */
function quantity(q: unknown): string {
  if (typeof q === 'number') return String(q);
  return typeof q === 'string' && q ? q : '0';
}

function status(w: DescribeWriter, o: Any, now: number): void {
  if (o.metadata?.deletionTimestamp)
    w.w(0, `Status:\tTerminating (lasts ${timestampSince(o.metadata.deletionTimestamp, now)})\n`);
  else w.w(0, `Status:\t${o.status?.phase ?? ''}\n`);
}

function nodeAffinity(w: DescribeWriter, affinity: Any | undefined): void {
  w.w(0, 'Node Affinity:\t');
  const required = affinity?.required;
  if (!required) {
    w.text += '<none>\n';
    return;
  }
  w.text += '\n';
  w.w(1, 'Required Terms:\t');
  const terms: Any[] = required.nodeSelectorTerms ?? [];
  if (terms.length === 0) {
    w.text += '<none>\n';
    return;
  }
  w.text += '\n';
  terms.forEach((term, i) => {
    w.w(2, `Term ${i}:\t`);
    const reqs: Any[] = term.matchExpressions ?? [];
    if (reqs.length === 0) {
      w.text += '<none>\n';
      return;
    }
    reqs.forEach((r, j) => {
      if (j !== 0) w.w(2, '\t');
      let expr = `${r.key} ${String(r.operator ?? '').toLowerCase()}`;
      if (r.values?.length) expr += ` [${r.values.join(', ')}]`;
      w.text += `${expr}\n`;
    });
  });
}

function source(w: DescribeWriter, spec: Any): void {
  w.w(0, 'Source:\n');
  if (spec.hostPath) {
    w.w(2, 'Type:\tHostPath (bare host directory volume)\n');
    w.w(2, `Path:\t${spec.hostPath.path}\n`);
    // the apiserver defaults an unset type to "" (HostPathUnset)
    w.w(2, `HostPathType:\t${spec.hostPath.type ?? ''}\n`);
  } else if (spec.nfs) {
    w.w(2, 'Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n');
    w.w(2, `Server:\t${spec.nfs.server}\n`);
    w.w(2, `Path:\t${spec.nfs.path}\n`);
    w.w(2, `ReadOnly:\t${spec.nfs.readOnly === true}\n`);
  } else if (spec.local) {
    w.w(2, 'Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n');
    w.w(2, `Path:\t${spec.local.path}\n`);
  } else {
    w.w(1, '<unknown>\n');
  }
}

export function describePersistentVolume(w: DescribeWriter, pv: Any, now: number): void {
  w.w(0, `Name:\t${pv.metadata?.name}\n`);
  labelsMultiline(w, 'Labels', pv.metadata?.labels);
  annotationsMultiline(w, pv.metadata?.annotations);
  w.w(0, `Finalizers:\t${goSlice(pv.metadata?.finalizers)}\n`);
  w.w(0, `StorageClass:\t${storageClassOf(pv)}\n`);
  status(w, pv, now);
  const ref = pv.spec?.claimRef;
  w.w(0, `Claim:\t${ref ? `${ref.namespace ?? ''}/${ref.name ?? ''}` : ''}\n`);
  w.w(0, `Reclaim Policy:\t${pv.spec?.persistentVolumeReclaimPolicy ?? ''}\n`);
  w.w(0, `Access Modes:\t${accessModes(pv.spec?.accessModes)}\n`);
  if (pv.spec?.volumeMode) w.w(0, `VolumeMode:\t${pv.spec.volumeMode}\n`);
  w.w(0, `Capacity:\t${quantity(pv.spec?.capacity?.storage)}\n`);
  nodeAffinity(w, pv.spec?.nodeAffinity);
  w.w(0, `Message:\t${pv.status?.message ?? ''}\n`);
  source(w, pv.spec ?? {});
}

export function describePersistentVolumeClaim(
  env: KubectlEnv,
  w: DescribeWriter,
  pvc: Any,
  now: number,
): void {
  w.w(0, `Name:\t${pvc.metadata?.name}\n`);
  w.w(0, `Namespace:\t${pvc.metadata?.namespace}\n`);
  w.w(0, `StorageClass:\t${storageClassOf(pvc)}\n`);
  status(w, pvc, now);
  const volumeName: string = pvc.spec?.volumeName ?? '';
  w.w(0, `Volume:\t${volumeName}\n`);
  labelsMultiline(w, 'Labels', pvc.metadata?.labels);
  annotationsMultiline(w, pvc.metadata?.annotations);
  w.w(0, `Finalizers:\t${goSlice(pvc.metadata?.finalizers)}\n`);
  w.w(0, `Capacity:\t${volumeName ? quantity(pvc.status?.capacity?.storage) : ''}\n`);
  w.w(0, `Access Modes:\t${volumeName ? accessModes(pvc.status?.accessModes) : ''}\n`);
  if (pvc.spec?.volumeMode) w.w(0, `VolumeMode:\t${pvc.spec.volumeMode}\n`);
  if (pvc.spec?.dataSource) {
    w.w(0, 'DataSource:\n');
    if (pvc.spec.dataSource.apiGroup) w.w(1, `APIGroup:\t${pvc.spec.dataSource.apiGroup}\n`);
    w.w(1, `Kind:\t${pvc.spec.dataSource.kind}\n`);
    w.w(1, `Name:\t${pvc.spec.dataSource.name}\n`);
  }
  // getPodsForPVC: every pod of the namespace with a volume naming this claim, by name
  const pods = (
    listItems(
      env.client.request({ verb: 'list', resource: 'pods', namespace: pvc.metadata?.namespace }),
    ) as Any[]
  )
    .filter((p: Any) =>
      (p.spec?.volumes ?? []).some(
        (v: Any) => v.persistentVolumeClaim?.claimName === pvc.metadata?.name,
      ),
    )
    .map((p: Any) => String(p.metadata?.name ?? ''))
    .sort();
  w.w(0, 'Used By:\t');
  if (pods.length === 0) w.text += '<none>\n';
  pods.forEach((name, i) => {
    if (i !== 0) w.w(0, '\t');
    w.text += `${name}\n`;
  });
  const conditions: Any[] = pvc.status?.conditions ?? [];
  if (conditions.length > 0) {
    w.w(0, 'Conditions:\n');
    w.w(1, 'Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n');
    w.w(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of conditions)
      w.w(
        1,
        `${c.type} \t${c.status} \t${rfcOrZero(c.lastProbeTime)} \t${rfcOrZero(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`,
      );
  }
}

/** time.Time{}.Format(RFC1123Z) for an unset time. */
function rfcOrZero(iso: string | undefined): string {
  return iso ? rfc1123z(iso) : 'Mon, 01 Jan 0001 00:00:00 +0000';
}
