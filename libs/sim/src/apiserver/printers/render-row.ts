// The cells of a prepared row at one instant: the clock-free cells as printed once per object
// version, with the timed ones (AGE, "(5m3s ago)") formatted for this request's "now".

import { humanDuration } from './human-duration';
import type { PreparedRow } from './printer-types';

/** A fresh array each time: the Table hands its cells to the client. */
export function renderRow(prepared: PreparedRow, now: number): unknown[] {
  const cells = prepared.cells.slice();
  for (const t of prepared.timed) {
    cells[t.index] = Number.isNaN(t.at)
      ? '<unknown>'
      : t.before + humanDuration(now - t.at) + t.after;
  }
  return cells;
}
