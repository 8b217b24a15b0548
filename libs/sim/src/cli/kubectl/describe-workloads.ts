// kubectl describe for the pod-template owners beyond the Deployment: the shared "Pod Template"
// block (describe.go DescribePodTemplate) and the DaemonSet describer (DaemonSetDescriber).

import type { KubeObject } from '../../model';
import { selectorString } from '../../apiserver/printers';
import type { KubectlEnv } from './kubectl-env';
import { listItems } from './kubectl-env';
import type { DescribeWriter } from './describe-text';
import { annotationsMultiline, labelsMultiline } from './describe-text';
import { describeContainers, describeVolumes, tolerationsLines } from './describe-pod-parts';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function podTemplate(w: DescribeWriter, tpl: Any): void {
  w.w(0, 'Pod Template:\n');
  labelsMultiline(w, 'Labels', tpl?.metadata?.labels, '  ');
  if (tpl?.metadata?.annotations && Object.keys(tpl.metadata.annotations).length)
    annotationsMultiline(w, tpl.metadata.annotations, '  ');
  if (tpl?.spec?.serviceAccountName) w.w(1, `Service Account:\t${tpl.spec.serviceAccountName}\n`);
  if (tpl?.spec?.initContainers?.length) {
    w.w(1, 'Init Containers:\n');
    describeContainers(w, tpl.spec.initContainers, [], null, 1);
  }
  w.w(1, 'Containers:\n');
  describeContainers(w, tpl?.spec?.containers ?? [], [], null, 1);
  describeVolumes(w, tpl?.spec?.volumes ?? [], 1);
  if (tpl?.spec?.priorityClassName) w.w(1, `Priority Class Name:\t${tpl.spec.priorityClassName}\n`);
  labelsMultiline(w, 'Node-Selectors', tpl?.spec?.nodeSelector, '  ');
  tolerationsLines(w, tpl?.spec?.tolerations ?? [], '  ');
}

/** labels.FormatLabels: sorted `k=v` pairs joined by commas, `<none>` when empty. */
function formatLabels(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length
    ? keys.map((k) => `${k}=${(m as Record<string, string>)[k]}`).join(',')
    : '<none>';
}

/**
 * getPodStatusForController: the pods the selector matches that this controller owns, counted
 * by phase (Pending counts as Waiting).
 */
export function podPhaseCounts(env: KubectlEnv, owner: Any): string {
  const selector = selectorString(owner.spec?.selector);
  const pods = listItems(
    env.client.request({
      verb: 'list',
      resource: 'pods',
      namespace: owner.metadata?.namespace,
      query: selector ? { labelSelector: selector } : {},
    }),
  ).filter((p: KubeObject) =>
    p.metadata?.ownerReferences?.some((o) => o.controller && o.uid === owner.metadata?.uid),
  );
  const count = (ph: string): number =>
    pods.filter((p) => ((p.status as Any)?.phase ?? 'Pending') === ph).length;
  return `${count('Running')} Running / ${count('Pending')} Waiting / ${count('Succeeded')} Succeeded / ${count('Failed')} Failed`;
}

export function describeDaemonSet(env: KubectlEnv, w: DescribeWriter, ds: Any): void {
  const st = ds.status ?? {};
  w.w(0, `Name:\t${ds.metadata?.name}\n`);
  w.w(0, `Namespace:\t${ds.metadata?.namespace}\n`);
  w.w(0, `Selector:\t${selectorString(ds.spec?.selector)}\n`);
  w.w(0, `Node-Selector:\t${formatLabels(ds.spec?.template?.spec?.nodeSelector)}\n`);
  labelsMultiline(w, 'Labels', ds.metadata?.labels);
  annotationsMultiline(w, ds.metadata?.annotations);
  // these five have no tab in upstream's format string: they are printed as is
  w.w(0, `Desired Number of Nodes Scheduled: ${st.desiredNumberScheduled ?? 0}\n`);
  w.w(0, `Current Number of Nodes Scheduled: ${st.currentNumberScheduled ?? 0}\n`);
  w.w(0, `Number of Nodes Scheduled with Up-to-date Pods: ${st.updatedNumberScheduled ?? 0}\n`);
  w.w(0, `Number of Nodes Scheduled with Available Pods: ${st.numberAvailable ?? 0}\n`);
  w.w(0, `Number of Nodes Misscheduled: ${st.numberMisscheduled ?? 0}\n`);
  w.w(0, `Pods Status:\t${podPhaseCounts(env, ds)}\n`);
  podTemplate(w, ds.spec?.template);
}
