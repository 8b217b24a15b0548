// printPriorityClass, printRuntimeClass, printAPIService, printComponentStatus and printPodTemplate
// (k/k pkg/printers/internalversion; kube-aggregator's APIService table).

import type { KubeObject } from '../../model';
import { timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, arr, col, containerCells, field, nameCol, num, rec, str } from './printer-types';
import { formatLabelMap } from './selector-string';

type Rec = Record<string, unknown>;

export const priorityClassPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col(
      'Value',
      'value represents the integer value of this priority class. This is the actual priority that pods receive when they have the name of this class in their pod spec.',
      0,
      'integer',
    ),
    col(
      'Global-Default',
      'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of such global default PriorityClasses will be used as the default priority.',
      0,
      'boolean',
    ),
    ageCol(),
    col(
      'PreemptionPolicy',
      'preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. Defaults to PreemptLowerPriority if unset.',
    ),
  ],
  row(pc: KubeObject, ctx: PrintContext) {
    const o = pc as Rec;
    return [
      str(pc.metadata?.name),
      num(o['value']),
      o['globalDefault'] === true,
      timestampSince(pc.metadata?.creationTimestamp, ctx.now),
      str(o['preemptionPolicy']) || 'PreemptLowerPriority',
    ];
  },
};

export const runtimeClassPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col(
      'Handler',
      'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.',
    ),
    ageCol(),
  ],
  row: (rc: KubeObject, ctx: PrintContext) => [
    str(rc.metadata?.name),
    str((rc as Rec)['handler']),
    timestampSince(rc.metadata?.creationTimestamp, ctx.now),
  ],
};

export const apiServicePrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Service', 'The reference to the service that hosts this API endpoint.'),
    col('Available', 'Whether this service is available.'),
    ageCol(),
  ],
  row(api: KubeObject, ctx: PrintContext) {
    const svc = rec(field(api, 'spec', 'service'));
    const service = str(svc['name']) ? `${str(svc['namespace'])}/${str(svc['name'])}` : 'Local';
    const cond = arr<Rec>(field(api, 'status', 'conditions')).find(
      (c) => c['type'] === 'Available',
    );
    let available = 'Unknown';
    if (cond) {
      available =
        cond['status'] === 'True' ? 'True' : `${str(cond['status'])} (${str(cond['reason'])})`;
    }
    return [
      str(api.metadata?.name),
      service,
      available,
      timestampSince(api.metadata?.creationTimestamp, ctx.now),
    ];
  },
};

export const componentStatusPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Status', 'Status of the component conditions'),
    col('Message', 'Message of the component conditions'),
    col('Error', 'Error of the component conditions'),
  ],
  row(cs: KubeObject) {
    const conds = arr<Rec>((cs as Rec)['conditions']);
    let status = 'Unknown';
    let message = '';
    let error = '';
    for (const c of conds) {
      if (c['type'] !== 'Healthy') continue;
      status =
        c['status'] === 'True' ? 'Healthy' : c['status'] === 'False' ? 'Unhealthy' : 'Unknown';
      message = str(c['message']);
      error = str(c['error']);
      break;
    }
    return [str(cs.metadata?.name), status, message, error];
  },
};

export const podTemplatePrinter: ResourcePrinter = {
  columns: [
    col('Template', 'Name must be unique within a namespace.', 0, 'string', 'name'),
    col('Containers', 'Names of each container in the template.'),
    col('Images', 'Images referenced by each container in the template.'),
    col('Pod Labels', 'The labels for the pod template.'),
  ],
  row(pt: KubeObject) {
    const [containers, images] = containerCells(field(pt, 'template', 'spec', 'containers'));
    return [
      str(pt.metadata?.name),
      containers,
      images,
      formatLabelMap(field(pt, 'template', 'metadata', 'labels')),
    ];
  },
};
