// printTable: the apiserver's TableConvertor for `kubectl get` (Accept: as=Table). One printer per
// resource; unknown resources fall back to NAME/AGE. Cells are always generated wide; kubectl hides
// priority-1 columns unless `-o wide` (FIDELITY.md §0).

import type { KubeObject, Table, TableRow } from '../../model';
import type { PrintOptions, ResourcePrinter } from './printer-types';
import { ADDED_PRINTERS } from './added-printers';
import { podPrinter } from './pod-printer';
import { tableRowAt } from './render-row';
import { deploymentPrinter, jobPrinter, replicaSetPrinter } from './workload-printers';
import { nodePrinter } from './node-printer';
import { endpointSlicePrinter, endpointsPrinter, servicePrinter } from './service-printers';
import {
  configMapPrinter,
  defaultPrinter,
  eventPrinter,
  leasePrinter,
  limitRangePrinter,
  namespacePrinter,
  roleBindingPrinter,
  rolePrinter,
  secretPrinter,
  serviceAccountPrinter,
} from './misc-printers';

const PRINTERS: Record<string, ResourcePrinter> = {
  pods: podPrinter,
  deployments: deploymentPrinter,
  replicasets: replicaSetPrinter,
  jobs: jobPrinter,
  nodes: nodePrinter,
  services: servicePrinter,
  endpoints: endpointsPrinter,
  endpointslices: endpointSlicePrinter,
  events: eventPrinter,
  namespaces: namespacePrinter,
  secrets: secretPrinter,
  configmaps: configMapPrinter,
  serviceaccounts: serviceAccountPrinter,
  leases: leasePrinter,
  roles: rolePrinter,
  clusterroles: rolePrinter,
  rolebindings: roleBindingPrinter,
  clusterrolebindings: roleBindingPrinter,
  limitranges: limitRangePrinter,
};

export function printerFor(resource: string): ResourcePrinter {
  return PRINTERS[resource] ?? ADDED_PRINTERS[resource] ?? defaultPrinter;
}

export function resolveNow(opts: PrintOptions): number {
  if (typeof opts.nowWallMs === 'number') return opts.nowWallMs;
  if (opts.nowIso) {
    const t = Date.parse(opts.nowIso);
    if (!Number.isNaN(t)) return t;
  }
  return (opts.startMs ?? 0) + (opts.nowMs ?? 0);
}

/** Builds the meta.k8s.io/v1 Table the apiserver returns for a get/list asked `asTable`. */
export function printTable(resource: string, objects: KubeObject[], opts: PrintOptions): Table {
  const printer = printerFor(resource);
  const ctx = { now: resolveNow(opts), wide: opts.wide ?? true };
  const cache = opts.rowCache;
  const prepare = printer.prepare;
  const rows: TableRow[] = new Array<TableRow>(objects.length);
  if (cache && prepare && ctx.wide) {
    for (let i = 0; i < objects.length; i++) {
      const object = objects[i] as KubeObject;
      let prepared = cache.get(object);
      if (!prepared) {
        prepared = prepare(object);
        cache.set(object, prepared);
      }
      rows[i] = tableRowAt(prepared, object, ctx.now);
    }
  } else {
    for (let i = 0; i < objects.length; i++) {
      const object = objects[i] as KubeObject;
      rows[i] = { cells: printer.row(object, ctx), object };
    }
  }
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: opts.resourceVersion ? { resourceVersion: opts.resourceVersion } : {},
    columnDefinitions: printer.columns.map((c) => ({ ...c })),
    rows,
  };
}
