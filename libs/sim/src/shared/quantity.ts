// resource.Quantity, reduced to what scheduling and printing need: CPU in millicores, everything
// else in bytes/units. Accepts the canonical suffixes (m, k, M, G, Ki, Mi, Gi, ...).

const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

const QUANTITY_RE = /^([+-]?[0-9.]+)(e[+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;

export function isValidQuantity(q: unknown): boolean {
  if (typeof q === 'number') return Number.isFinite(q);
  return typeof q === 'string' && QUANTITY_RE.test(q.trim()) && !Number.isNaN(parseFloat(q));
}

// Every replica, container and node states the same few texts ('100m', '128Mi', '4Gi'): each
// text is parsed once per conversion. The memos are bounded so odd inputs cannot grow them.
const parsedQuantities = new Map<string, number>();
const milliCpus = new Map<string, number>();
const intValues = new Map<string, number>();
const MAX_MEMOIZED = 1000;

function memoized(memo: Map<string, number>, q: string, convert: (q: string) => number): number {
  let v = memo.get(q);
  if (v === undefined) {
    v = convert(q);
    if (memo.size >= MAX_MEMOIZED) memo.clear();
    memo.set(q, v);
  }
  return v;
}

/** The value in base units (cores for cpu, bytes for memory). NaN when malformed. */
export function parseQuantity(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === 'number') return q;
  return memoized(parsedQuantities, q, parseText);
}

function parseText(q: string): number {
  const m = q.trim().match(QUANTITY_RE);
  if (!m) return NaN;
  const n = parseFloat(m[1] as string);
  const suffix = m[2] ?? '';
  if (suffix.startsWith('e')) return n * 10 ** parseInt(suffix.slice(1), 10);
  if (suffix in BINARY) return n * (BINARY[suffix] as number);
  return n * (DECIMAL[suffix] as number);
}

/** CPU quantity in integer millicores, rounded up like resource.Quantity.MilliValue(). */
export function milliCpu(q: string | number | undefined): number {
  if (typeof q === 'string') return memoized(milliCpus, q, milliCpuOf);
  return milliCpuOf(q);
}

function milliCpuOf(q: string | number | undefined): number {
  return Math.ceil(parseQuantity(q) * 1000 - 1e-9);
}

/** Integer value (bytes for memory, count for pods), rounded up. */
export function intValue(q: string | number | undefined): number {
  if (typeof q === 'string') return memoized(intValues, q, intValueOf);
  return intValueOf(q);
}

function intValueOf(q: string | number | undefined): number {
  return Math.ceil(parseQuantity(q) - 1e-9);
}
