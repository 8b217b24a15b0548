// printDeployment, printReplicaSet and printJob (k/k pkg/printers/internalversion/printers.go).

import type { KubeObject } from '../../model';
import { humanDuration, timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, arr, col, containerCells, field, nameCol, num, str } from './printer-types';
import { selectorString } from './selector-string';

const containersCol = () => col('Containers', 'Names of each container in the template.', 1);
const imagesCol = () => col('Images', 'Images referenced by each container in the template.', 1);
const selectorCol = () => col('Selector', 'Label selector for pods.', 1);

export const deploymentPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Ready', 'Number of the pod with ready state'),
    col(
      'Up-to-date',
      'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      0,
      'integer',
    ),
    col(
      'Available',
      'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
      0,
      'integer',
    ),
    ageCol(),
    containersCol(),
    imagesCol(),
    selectorCol(),
  ],
  row(d: KubeObject, ctx: PrintContext) {
    const replicas = field(d, 'spec', 'replicas');
    const desired = typeof replicas === 'number' ? replicas : 1;
    const [containers, images] = containerCells(field(d, 'spec', 'template', 'spec', 'containers'));
    return [
      str(d.metadata?.name),
      `${num(field(d, 'status', 'readyReplicas'))}/${desired}`,
      num(field(d, 'status', 'updatedReplicas')),
      num(field(d, 'status', 'availableReplicas')),
      timestampSince(d.metadata?.creationTimestamp, ctx.now),
      containers,
      images,
      selectorString(field(d, 'spec', 'selector')),
    ];
  },
};

export const replicaSetPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Desired', 'Number of desired pods.', 0, 'integer'),
    col('Current', 'Number of actual replicas.', 0, 'integer'),
    col('Ready', 'The number of ready replicas for this replica set.', 0, 'integer'),
    ageCol(),
    containersCol(),
    imagesCol(),
    selectorCol(),
  ],
  row(rs: KubeObject, ctx: PrintContext) {
    const replicas = field(rs, 'spec', 'replicas');
    const [containers, images] = containerCells(
      field(rs, 'spec', 'template', 'spec', 'containers'),
    );
    return [
      str(rs.metadata?.name),
      typeof replicas === 'number' ? replicas : 1,
      num(field(rs, 'status', 'replicas')),
      num(field(rs, 'status', 'readyReplicas')),
      timestampSince(rs.metadata?.creationTimestamp, ctx.now),
      containers,
      images,
      selectorString(field(rs, 'spec', 'selector')),
    ];
  },
};

function hasJobCondition(job: KubeObject, type: string): boolean {
  return arr<Record<string, unknown>>(field(job, 'status', 'conditions')).some(
    (c) => c?.type === type && c?.status === 'True',
  );
}

export const jobPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Status', 'Status of the job.'),
    col(
      'Completions',
      'The desired number of successfully finished pods the job should be run with.',
    ),
    col('Duration', 'Time required to complete the job.'),
    ageCol(),
    containersCol(),
    imagesCol(),
    selectorCol(),
  ],
  row(job: KubeObject, ctx: PrintContext) {
    const succeeded = num(field(job, 'status', 'succeeded'));
    const completions = field(job, 'spec', 'completions');
    let completionsCell: string;
    if (typeof completions === 'number') completionsCell = `${succeeded}/${completions}`;
    else {
      const parallelism = num(field(job, 'spec', 'parallelism'));
      completionsCell = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    }
    const start = Date.parse(str(field(job, 'status', 'startTime')));
    const end = Date.parse(str(field(job, 'status', 'completionTime')));
    let duration = '';
    if (!Number.isNaN(start)) duration = humanDuration((Number.isNaN(end) ? ctx.now : end) - start);
    let status = 'Running';
    if (hasJobCondition(job, 'Complete')) status = 'Complete';
    else if (hasJobCondition(job, 'Failed')) status = 'Failed';
    else if (job.metadata?.deletionTimestamp) status = 'Terminating';
    else if (hasJobCondition(job, 'Suspended')) status = 'Suspended';
    else if (hasJobCondition(job, 'FailureTarget')) status = 'FailureTarget';
    const [containers, images] = containerCells(
      field(job, 'spec', 'template', 'spec', 'containers'),
    );
    return [
      str(job.metadata?.name),
      status,
      completionsCell,
      duration,
      timestampSince(job.metadata?.creationTimestamp, ctx.now),
      containers,
      images,
      selectorString(field(job, 'spec', 'selector')),
    ];
  },
};
