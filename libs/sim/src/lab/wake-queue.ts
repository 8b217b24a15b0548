// The lab's discrete-event queue: wake-ups ordered by (time, seq). seq is a global insertion
// counter, so two wake-ups at the same instant run in the order they were scheduled — the whole
// simulation is deterministic without relying on Map or Set iteration quirks.

/** `resync`: a timer the component marked periodic (it does not keep the lab from being quiescent) */
export type WakeKind = 'start' | 'period' | 'watch' | 'timer' | 'resync' | 'host';

export interface Wake {
  t: number;
  seq: number;
  /** component key (e.g. `kubelet/node-1`) or node name for `host` wakes */
  target: string;
  kind: WakeKind;
  /** component instance generation; stale wakes of a restarted component are dropped */
  gen: number;
}

export class WakeQueue {
  private heap: Wake[] = [];
  private nextSeq = 1;

  get size(): number {
    return this.heap.length;
  }

  push(t: number, target: string, kind: WakeKind, gen: number): Wake {
    // one literal of fixed key order (the saved queue's); a spread of an argument object made two
    const wake: Wake = { t, target, kind, gen, seq: this.nextSeq++ };
    this.heap.push(wake);
    this.up(this.heap.length - 1);
    return wake;
  }

  peek(): Wake | undefined {
    return this.heap[0];
  }

  pop(): Wake | undefined {
    const top = this.heap[0];
    const last = this.heap.pop();
    if (top && last && this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  /** All entries in no particular order (a question about all of them, asked on every advance). */
  unordered(): readonly Wake[] {
    return this.heap;
  }

  /** All entries in (t, seq) order, for serialization and inspection. */
  entries(): Wake[] {
    return [...this.heap].sort(less2);
  }

  toJSON(): { nextSeq: number; wakes: Wake[] } {
    return { nextSeq: this.nextSeq, wakes: this.entries() };
  }

  load(state: { nextSeq: number; wakes: Wake[] }): void {
    this.heap = [];
    for (const w of state.wakes) {
      this.heap.push({ ...w });
      this.up(this.heap.length - 1);
    }
    this.nextSeq = state.nextSeq;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(h[i] as Wake, h[p] as Wake)) break;
      [h[i], h[p]] = [h[p] as Wake, h[i] as Wake];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && less(h[l] as Wake, h[m] as Wake)) m = l;
      if (r < h.length && less(h[r] as Wake, h[m] as Wake)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m] as Wake, h[i] as Wake];
      i = m;
    }
  }
}

function less(a: Wake, b: Wake): boolean {
  return a.t < b.t || (a.t === b.t && a.seq < b.seq);
}

function less2(a: Wake, b: Wake): number {
  return less(a, b) ? -1 : less(b, a) ? 1 : 0;
}
