// The remaining printers.go handlers: events, namespaces, secrets, configmaps, serviceaccounts,
// leases, RBAC roles and bindings, limitranges, plus the default NAME/AGE table.

import type { KubeObject } from '../../model';
import { timestampSince } from './human-duration';
import type { PrintContext, ResourcePrinter } from './printer-types';
import { ageCol, arr, col, field, nameCol, num, rec, str } from './printer-types';

type Rec = Record<string, unknown>;

function eventSource(ev: KubeObject): string {
  const component =
    str(field(ev, 'source', 'component')) ||
    str(ev.reportingComponent) ||
    str(ev.reportingController);
  const host = str(field(ev, 'source', 'host')) || str(ev.reportingInstance);
  return host ? `${component}, ${host}` : component;
}

export const eventPrinter: ResourcePrinter = {
  columns: [
    col('Last Seen', 'Time when last event from this source occurred'),
    col('Type', 'Type of this event (Normal, Warning), new types could be added in the future.'),
    col(
      'Reason',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    col('Object', 'The object that this event is about.'),
    col('Subobject', 'The subobject that this event is about.', 1),
    col(
      'Source',
      'The component reporting this event. Should be a short machine understandable string.',
      1,
    ),
    col('Message', 'A human-readable description of the status of this operation.'),
    col(
      'First Seen',
      'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
      1,
    ),
    col('Count', 'The number of times this event has occurred.', 1, 'integer'),
    col('Name', 'Name must be unique within a namespace.', 1, 'string', 'name'),
  ],
  row(ev: KubeObject, ctx: PrintContext) {
    const first = str(ev.firstTimestamp) || str(ev.eventTime);
    const firstSeen = timestampSince(first, ctx.now);
    const lastSeen = ev.lastTimestamp ? timestampSince(str(ev.lastTimestamp), ctx.now) : firstSeen;
    const involved = rec(ev.involvedObject);
    const kind = str(involved.kind).toLowerCase();
    const target = str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
    return [
      lastSeen,
      str(ev.type),
      str(ev.reason),
      target,
      str(involved.fieldPath),
      eventSource(ev),
      str(ev.message).trim(),
      firstSeen,
      num(ev.count) || 1,
      str(ev.metadata?.name),
    ];
  },
};

const simple = (
  cols: ReturnType<typeof col>[],
  cells: (o: KubeObject) => unknown[],
): ResourcePrinter => ({
  columns: [nameCol(), ...cols, ageCol()],
  row: (o, ctx) => [
    str(o.metadata?.name),
    ...cells(o),
    timestampSince(o.metadata?.creationTimestamp, ctx.now),
  ],
});

export const namespacePrinter = simple([col('Status', 'The status of the namespace')], (ns) => [
  str(field(ns, 'status', 'phase')),
]);

export const secretPrinter = simple(
  [
    col('Type', 'The type of the secret'),
    col('Data', 'The number of entries in the secret', 0, 'integer'),
  ],
  (s) => [str(s.type), Object.keys(rec(s.data)).length],
);

export const configMapPrinter = simple(
  [col('Data', 'The number of entries in the configmap', 0, 'integer')],
  (cm) => [Object.keys(rec(cm.data)).length + Object.keys(rec(cm.binaryData)).length],
);

export const serviceAccountPrinter = simple(
  [
    col(
      'Secrets',
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.',
      0,
      'integer',
    ),
  ],
  (sa) => [arr(sa.secrets).length],
);

export const leasePrinter = simple([col('Holder', 'The holder of the lease')], (l) => [
  str(field(l, 'spec', 'holderIdentity')),
]);

/** Roles, ClusterRoles and LimitRanges print their creation instant, not an age. */
const createdAt: ResourcePrinter = {
  columns: [
    nameCol(),
    col(
      'Created At',
      'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.',
      0,
      'date',
    ),
  ],
  row: (o) => {
    const ts = str(o.metadata?.creationTimestamp);
    const t = Date.parse(ts);
    return [
      str(o.metadata?.name),
      Number.isNaN(t) ? '' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ];
  },
};
export const rolePrinter = createdAt;
export const limitRangePrinter = createdAt;

export const roleBindingPrinter: ResourcePrinter = {
  columns: [
    nameCol(),
    col('Role', 'Role/ClusterRole name'),
    ageCol(),
    col('Users', 'Users in the roleBinding', 1),
    col('Groups', 'Groups in the roleBinding', 1),
    col('ServiceAccounts', 'ServiceAccounts in the roleBinding', 1),
  ],
  row(rb: KubeObject, ctx: PrintContext) {
    const subjects = arr<Rec>(rb.subjects);
    const of = (kind: string) => subjects.filter((s) => s?.kind === kind);
    return [
      str(rb.metadata?.name),
      `${str(field(rb, 'roleRef', 'kind'))}/${str(field(rb, 'roleRef', 'name'))}`,
      timestampSince(rb.metadata?.creationTimestamp, ctx.now),
      of('User')
        .map((s) => str(s.name))
        .join(', '),
      of('Group')
        .map((s) => str(s.name))
        .join(', '),
      of('ServiceAccount')
        .map((s) => `${str(s.namespace)}:${str(s.name)}`)
        .join(', '),
    ];
  },
};

export const defaultPrinter: ResourcePrinter = {
  columns: [nameCol(), ageCol()],
  row: (o, ctx) => [str(o.metadata?.name), timestampSince(o.metadata?.creationTimestamp, ctx.now)],
};
