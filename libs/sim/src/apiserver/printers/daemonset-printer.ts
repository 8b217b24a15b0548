// printDaemonSet (k/k pkg/printers/internalversion/printers.go): the counts come from the
// DaemonSet controller's status, NODE SELECTOR is the template's nodeSelector as labels.FormatLabels.

import type { KubeObject } from '../../model';
import { timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, col, containerCells, field, nameCol, num, str } from './printer-types';
import { formatLabelMap, selectorString } from './selector-string';

export const daemonSetPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col(
      'Desired',
      'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
      0,
      'integer',
    ),
    col(
      'Current',
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
      0,
      'integer',
    ),
    col(
      'Ready',
      'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
      0,
      'integer',
    ),
    col(
      'Up-to-date',
      'The total number of nodes that are running updated daemon pod',
      0,
      'integer',
    ),
    col(
      'Available',
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
      0,
      'integer',
    ),
    col(
      'Node Selector',
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
    ageCol(),
    col('Containers', 'Names of each container in the template.', 1),
    col('Images', 'Images referenced by each container in the template.', 1),
    col('Selector', 'Label selector for pods.', 1),
  ],
  row(ds: KubeObject, ctx: PrintContext) {
    const [containers, images] = containerCells(
      field(ds, 'spec', 'template', 'spec', 'containers'),
    );
    return [
      str(ds.metadata?.name),
      num(field(ds, 'status', 'desiredNumberScheduled')),
      num(field(ds, 'status', 'currentNumberScheduled')),
      num(field(ds, 'status', 'numberReady')),
      num(field(ds, 'status', 'updatedNumberScheduled')),
      num(field(ds, 'status', 'numberAvailable')),
      formatLabelMap(field(ds, 'spec', 'template', 'spec', 'nodeSelector')),
      timestampSince(ds.metadata?.creationTimestamp, ctx.now),
      containers,
      images,
      selectorString(field(ds, 'spec', 'selector')),
    ];
  },
};
