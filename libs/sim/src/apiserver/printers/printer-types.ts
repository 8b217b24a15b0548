// Shared building blocks of the server-side printers (k/k pkg/printers/internalversion).

import type { KubeObject, TableColumnDefinition, TableRow } from '../../model';

export interface PrintOptions {
  /** wall-clock epoch ms "now"; wins over nowIso / startMs+nowMs */
  nowWallMs?: number;
  /** RFC3339 instant of "now" */
  nowIso?: string;
  /** wall-clock epoch ms of sim time 0 (LabOptions.startTime) */
  startMs?: number;
  /** simulated ms since the lab started */
  nowMs?: number;
  /**
   * The apiserver always generates wide rows (printerstorage.TableConvertor passes Wide: true) and
   * kubectl hides priority-1 columns itself. `wide: false` only changes the few cells whose text
   * depends on it (Service EXTERNAL-IP truncation).
   */
  wide?: boolean;
  /** metadata.resourceVersion of the list the table was built from */
  resourceVersion?: string;
  /**
   * Prepared rows by (frozen, immutable) object: the apiserver's watch cache holds exactly one
   * frozen object per stored version, so identity stands for (resource, uid, resourceVersion)
   * and entries go away with the objects. Never pass objects that may still change.
   */
  rowCache?: WeakMap<KubeObject, PreparedRow>;
}

export interface PrintContext {
  now: number;
  wide: boolean;
}

export type RowPrinter = (obj: KubeObject, ctx: PrintContext) => unknown[];

/**
 * A cell whose text moves with the clock: `before + humanDuration(now - at) + after`, or
 * `<unknown>` when `at` is NaN (a missing or unparsable timestamp, as translateTimestampSince).
 */
export interface TimedCell {
  index: number;
  at: number;
  before: string;
  after: string;
}

/**
 * A row printed once per object version: every cell that does not depend on "now", plus the
 * instants of those that do. The apiserver keeps one per cached object, so a list of thousands of
 * unchanged pods only formats their ages again.
 */
export interface PreparedRow {
  cells: readonly unknown[];
  timed: readonly TimedCell[];
  /** the frozen Table row last handed out, and the "now" it was printed for */
  last?: { now: number; row: TableRow };
}

export interface ResourcePrinter {
  columns: TableColumnDefinition[];
  row: RowPrinter;
  /** the row split into its clock-free cells and timed cells (wide rows; only the big lists) */
  prepare?: (obj: KubeObject) => PreparedRow;
}

/** The instant of an RFC3339 timestamp, NaN when missing or unparsable (printed `<unknown>`). */
export function instant(iso: unknown): number {
  return iso ? Date.parse(iso as string) : NaN;
}

const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
const AGE_DOC =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

export function col(
  name: string,
  description = '',
  priority = 0,
  type: TableColumnDefinition['type'] = 'string',
  format = '',
): TableColumnDefinition {
  return { name, type, format, description, priority };
}

export const nameCol = (): TableColumnDefinition => col('Name', NAME_DOC, 0, 'string', 'name');
export const ageCol = (): TableColumnDefinition => col('Age', AGE_DOC, 0);

/** Read a nested field without trusting the object's shape (stored objects may be partial). */
export function field(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[p];
  }
  return cur;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

export function arr<T = unknown>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

export function rec(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : {};
}

/** layoutContainerCells: comma-joined container names and images (the wide CONTAINERS/IMAGES). */
export function containerCells(containers: unknown): [string, string] {
  const list = arr<Record<string, unknown>>(containers);
  return [list.map((c) => str(c?.name)).join(','), list.map((c) => str(c?.image)).join(',')];
}
