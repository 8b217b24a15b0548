// kubectl get: asks the apiserver for Tables (Accept: as=Table) and prints them with the tabwriter
// (FIDELITY.md §0/§1), or prints objects as yaml/json/name/jsonpath. `-w` lets simulated time pass
// and prints rows as they change.

import type { ApiResponse } from '../../client/api-client';
import type { KubeObject, ResourceInfo, Table } from '../../model';
import { RESOURCES } from '../../model';
import { printTable } from '../../apiserver/printers';
import { formatCells, GET_TABWRITER } from '../text/tab-writer';
import { boolFlag, flag } from './kube-args';
import type { KubectlEnv } from './kubectl-env';
import {
  asObject,
  isOk,
  listItems,
  MAX_WAIT_MS,
  Out,
  unknownResource,
  WAIT_STEP_MS,
} from './kubectl-env';
import { parseOutputFormat, printObjects } from './kube-output';
import type { OutputFormat } from './kube-output';
import { qualifiedKind, resolveResource } from './kube-resources';
import { sortByField } from './get-sort';
import { runGetRaw } from './raw-cmd';

interface Target {
  info: ResourceInfo;
  names: string[];
}

const ALL_CATEGORY = ['pods', 'services', 'deployments', 'replicasets', 'jobs'];

const NO_TYPE = `You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.

error: Required resource not specified.
Use "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).
See 'kubectl get -h' for help and examples
`;

export function parseTargets(
  env: KubectlEnv,
  out: Out,
  positional: string[],
): Target[] | undefined {
  const [first, ...rest] = positional;
  if (!first) {
    out.err(NO_TYPE);
    return undefined;
  }
  if (first.includes('/')) {
    const targets: Target[] = [];
    for (const p of positional) {
      const i = p.indexOf('/');
      if (i < 0) {
        out.fail(
          `there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'`,
        );
        return undefined;
      }
      const info = resolveResource(p.slice(0, i));
      if (!info) {
        unknownResource(out, p.slice(0, i));
        return undefined;
      }
      const last = targets[targets.length - 1];
      if (last && last.info === info) last.names.push(p.slice(i + 1));
      else targets.push({ info, names: [p.slice(i + 1)] });
    }
    return targets;
  }
  const targets: Target[] = [];
  for (const t of first.split(',')) {
    if (t === 'all') {
      for (const r of ALL_CATEGORY)
        targets.push({
          info: RESOURCES.find((x) => x.resource === r) as ResourceInfo,
          names: [...rest],
        });
      continue;
    }
    const info = resolveResource(t);
    if (!info) {
      unknownResource(out, t);
      return undefined;
    }
    targets.push({ info, names: [...rest] });
  }
  return targets;
}

function cellText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '<none>';
  return String(v);
}

export function fetchTable(
  env: KubectlEnv,
  info: ResourceInfo,
  name: string | undefined,
  out: Out,
  /** kubectl asks for a Table only to print one (get.go transformRequests); -o json gets objects */
  asTable = true,
): { table: Table; objects: KubeObject[] } | undefined {
  const ns = info.namespaced && !env.allNamespaces ? env.namespace : undefined;
  const query = {
    ...(asTable ? { asTable: true } : {}),
    ...(name ? {} : { limit: 500 }),
    ...(flag(env.args, 'l', 'selector') ? { labelSelector: flag(env.args, 'l', 'selector') } : {}),
    ...(flag(env.args, 'field-selector')
      ? { fieldSelector: flag(env.args, 'field-selector') }
      : {}),
  };
  const res: ApiResponse = env.client.request({
    verb: name ? 'get' : 'list',
    resource: info.resource,
    namespace: ns,
    name,
    query,
  });
  if (!isOk(res)) {
    out.apiError(env, res);
    return undefined;
  }
  const body = res.body as { kind?: string };
  if (body.kind === 'Table') {
    const table = res.body as Table;
    const objects = table.rows.map((r) => r.object as KubeObject).filter(Boolean);
    return { table, objects };
  }
  const objects = name ? [asObject(res) as KubeObject].filter(Boolean) : listItems(res);
  const rv = (res.body as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
  return {
    table: printTable(info.resource, objects, {
      nowWallMs: env.client.nowWallMs(),
      resourceVersion: rv,
    }),
    objects,
  };
}

export interface TableLayout {
  wide: boolean;
  withKind: boolean;
  withNamespace: boolean;
  showLabels: boolean;
}

/** Header + rows as cells (what the tabwriter receives); one array per line, nothing more. */
export function tableLines(
  table: Table,
  info: ResourceInfo,
  layout: TableLayout,
  header: boolean,
): string[][] {
  const columns = table.columnDefinitions;
  const kept: number[] = [];
  for (let i = 0; i < columns.length; i++)
    if (layout.wide || (columns[i] as { priority: number }).priority === 0) kept.push(i);
  const lines: string[][] = [];
  if (header) {
    const h = kept.map((i) => (columns[i] as { name: string }).name.toUpperCase());
    if (layout.withNamespace) h.unshift('NAMESPACE');
    if (layout.showLabels) h.push('LABELS');
    lines.push(h);
  }
  const nameIdx = layout.withKind ? columns.findIndex((c) => c.format === 'name') : -1;
  const kindPrefix = layout.withKind ? `${qualifiedKind(info)}/` : '';
  for (const row of table.rows) {
    const obj = row.object as KubeObject | undefined;
    const cells = row.cells;
    const line: string[] = [];
    if (layout.withNamespace) line.push(obj?.metadata?.namespace ?? '');
    for (const i of kept) {
      if (i >= cells.length) break;
      const t = cellText(cells[i]);
      line.push(i === nameIdx ? kindPrefix + t : t);
    }
    if (layout.showLabels) line.push(labelsCell(obj?.metadata?.labels));
    lines.push(line);
  }
  return lines;
}

/** labels.FormatLabels: k=v pairs sorted by key, `<none>` when there are none. */
function labelsCell(labels: Record<string, string> | undefined): string {
  if (!labels) return '<none>';
  const keys = Object.keys(labels);
  if (keys.length === 0) return '<none>';
  if (keys.length > 1) keys.sort();
  let text = '';
  for (const k of keys) text += `${text ? ',' : ''}${k}=${labels[k]}`;
  return text;
}

export function runGet(env: KubectlEnv): Out {
  const out = new Out();
  const raw = flag(env.args, 'raw');
  if (raw !== undefined) return runGetRaw(env, raw);
  const sortBy = flag(env.args, 'sort-by');
  const format = parseOutputFormat(flag(env.args, 'o', 'output'), flag(env.args, 'template'));
  if (typeof format === 'string') return out.fail(format);
  const targets = parseTargets(env, out, env.args.positional);
  if (!targets) return out;
  const multiKind = targets.length > 1 || env.args.positional[0] === 'all';
  const watch = boolFlag(env.args, 'w', 'watch') || boolFlag(env.args, 'watch-only');
  if (env.allNamespaces && targets.some((t) => t.names.length > 0)) {
    return out.fail('a resource cannot be retrieved by name across all namespaces');
  }
  const layout: TableLayout = {
    wide: format.kind === 'table' && format.wide,
    withKind: multiKind,
    withNamespace: env.allNamespaces,
    showLabels: boolFlag(env.args, 'show-labels'),
  };
  const collected: KubeObject[] = [];
  let printedTables = 0;
  let singleNamed = targets.length === 1 && targets[0]?.names.length === 1;
  for (const t of targets) {
    const names = t.names.length ? t.names : [undefined];
    const tables: Table[] = [];
    for (const name of names) {
      const r = fetchTable(env, t.info, name, out, format.kind === 'table');
      if (!r) {
        singleNamed = false;
        continue;
      }
      tables.push(r.table);
      if (format.kind !== 'table')
        for (const o of r.objects) collected.push(withTypeMeta(o, t.info));
    }
    if (format.kind !== 'table') continue;
    let rows = tables.flatMap((tb) => tb.rows);
    if (sortBy) {
      const sorted = sortByField(rows, sortBy, (r) => r.object);
      if (typeof sorted === 'string') return out.fail(sorted);
      rows = sorted;
    }
    if (rows.length === 0 || !tables[0]) continue;
    const merged: Table = { ...tables[0], rows };
    if (printedTables > 0) out.out('\n');
    const lines = tableLines(
      merged,
      t.info,
      { ...layout, withNamespace: layout.withNamespace && t.info.namespaced },
      !boolFlag(env.args, 'no-headers'),
    );
    out.out(`${formatCells(lines, GET_TABWRITER)}\n`);
    printedTables++;
  }
  if (format.kind === 'table') {
    if (printedTables === 0 && out.exitCode === 0 && targets.every((t) => t.names.length === 0)) {
      const clusterScoped = targets.every((t) => !t.info.namespaced);
      out.err(
        env.allNamespaces || clusterScoped
          ? 'No resources found\n'
          : `No resources found in ${env.namespace} namespace.\n`,
        0,
      );
    }
    if (watch && targets.length === 1 && targets[0]) watchTable(env, out, targets[0], layout);
    return out;
  }
  if (out.exitCode !== 0 && collected.length === 0) return out;
  const sortedObjects = sortBy ? sortByField(collected, sortBy, (o) => o) : collected;
  if (typeof sortedObjects === 'string') return out.fail(sortedObjects);
  const [text, err] = printObjects(
    format as Exclude<OutputFormat, { kind: 'table' }>,
    sortedObjects,
    singleNamed,
  );
  if (err) return out.fail(err);
  return out.out(text);
}

function withTypeMeta(o: KubeObject, info: ResourceInfo): KubeObject {
  if (o.apiVersion && o.kind) return o;
  const typed = { ...o } as KubeObject;
  typed.apiVersion = o.apiVersion || (info.group ? `${info.group}/${info.version}` : info.version);
  typed.kind = o.kind || info.kind;
  const { apiVersion, kind, ...rest } = typed;
  return { apiVersion, kind, ...rest } as KubeObject;
}

/**
 * `get -w`: the real command streams forever; the lab runs simulated time forward (up to 30 s,
 * stopping once nothing has changed for 5 s) and prints each row whose cells changed.
 */
function watchTable(env: KubectlEnv, out: Out, target: Target, layout: TableLayout): void {
  // a watch event is an object change: compare resourceVersions, not cells (AGE alone moves)
  const seen = new Map<string, string>();
  const version = (o: KubeObject | undefined) => String(o?.metadata?.resourceVersion ?? '');
  const first = fetchTable(env, target.info, target.names[0], new Out());
  if (!first) return;
  const widths: number[] = [];
  let headerShown = first.table.rows.length > 0;
  // prime the remembered widths with what was already printed
  if (headerShown)
    formatCells(tableLines(first.table, target.info, layout, true), GET_TABWRITER, widths);
  for (const row of first.table.rows)
    seen.set(rowKey(row.object as KubeObject), version(row.object as KubeObject));
  let quietFor = 0;
  for (let t = 0; t < MAX_WAIT_MS && quietFor < 5_000; t += WAIT_STEP_MS) {
    env.advance(WAIT_STEP_MS);
    const now = fetchTable(env, target.info, target.names[0], new Out());
    if (!now) break;
    const changed = now.table.rows.filter(
      (r) => seen.get(rowKey(r.object as KubeObject)) !== version(r.object as KubeObject),
    );
    if (changed.length === 0) {
      quietFor += WAIT_STEP_MS;
      continue;
    }
    quietFor = 0;
    for (const r of changed)
      seen.set(rowKey(r.object as KubeObject), version(r.object as KubeObject));
    const lines = tableLines({ ...now.table, rows: changed }, target.info, layout, !headerShown);
    headerShown = true;
    out.out(`${formatCells(lines, GET_TABWRITER, widths)}\n`);
  }
}

function rowKey(o: KubeObject | undefined): string {
  return `${o?.metadata?.namespace ?? ''}/${o?.metadata?.name ?? ''}`;
}
