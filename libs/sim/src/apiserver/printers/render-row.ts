// The cells of a prepared row at one instant: the clock-free cells as printed once per object
// version, with the timed ones (AGE, "(5m3s ago)") formatted for this request's "now".

import type { KubeObject, TableRow } from '../../model';
import { humanDuration } from './human-duration';
import type { PreparedRow, TimedCell } from './printer-types';

function timedText(t: TimedCell, now: number): string {
  return Number.isNaN(t.at) ? '<unknown>' : t.before + humanDuration(now - t.at) + t.after;
}

/** A fresh array each time (the printers' own `row`). */
export function renderRow(prepared: PreparedRow, now: number): unknown[] {
  const cells = prepared.cells.slice();
  for (const t of prepared.timed) cells[t.index] = timedText(t, now);
  return cells;
}

/**
 * The Table row of a cached object at `now`. Ages move in whole seconds, minutes, hours, so a
 * row printed for an earlier request usually still reads the same: it is handed out again
 * (frozen, so no client can change what the next one gets) and a new one is built only when a
 * timed cell reads differently.
 */
export function tableRowAt(prepared: PreparedRow, object: KubeObject, now: number): TableRow {
  const last = prepared.last;
  if (last) {
    if (last.now === now) return last.row;
    let same = true;
    for (const t of prepared.timed) {
      if (timedText(t, now) !== last.row.cells[t.index]) {
        same = false;
        break;
      }
    }
    if (same) {
      last.now = now;
      return last.row;
    }
  }
  const row: TableRow = Object.freeze({
    cells: Object.freeze(renderRow(prepared, now)) as unknown[],
    object,
  });
  prepared.last = { now, row };
  return row;
}
