// GNU `diff -u` hunks between two texts (what kubectl diff's external `diff -u -N` prints after
// its header lines): 3 lines of context, hunks closer than 6 lines merged, `@@ -a,b +c,d @@`.

const CONTEXT = 3;
/** above this many line pairs the middle is compared as one replaced block (diff --speed-large-files) */
const MAX_CELLS = 4_000_000;

type Op = { t: ' ' | '-' | '+'; line: string };

function lines(text: string): string[] {
  if (text === '') return [];
  const l = text.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l;
}

function lcsOps(a: string[], b: string[]): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (
    suf < a.length - pre &&
    suf < b.length - pre &&
    a[a.length - 1 - suf] === b[b.length - 1 - suf]
  )
    suf++;
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const ops: Op[] = a.slice(0, pre).map((line) => ({ t: ' ', line }));
  if (am.length * bm.length > MAX_CELLS) {
    for (const line of am) ops.push({ t: '-', line });
    for (const line of bm) ops.push({ t: '+', line });
  } else {
    const n = am.length;
    const m = bm.length;
    const dp = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        (dp[i] as Uint32Array)[j] =
          am[i] === bm[j]
            ? ((dp[i + 1] as Uint32Array)[j + 1] as number) + 1
            : Math.max(
                (dp[i + 1] as Uint32Array)[j] as number,
                (dp[i] as Uint32Array)[j + 1] as number,
              );
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        ops.push({ t: ' ', line: am[i] as string });
        i++;
        j++;
      } else if (
        j >= m ||
        (i < n &&
          ((dp[i + 1] as Uint32Array)[j] as number) >= ((dp[i] as Uint32Array)[j + 1] as number))
      ) {
        ops.push({ t: '-', line: am[i] as string });
        i++;
      } else {
        ops.push({ t: '+', line: bm[j] as string });
        j++;
      }
    }
  }
  for (const line of a.slice(a.length - suf)) ops.push({ t: ' ', line });
  return ops;
}

function range(start: number, count: number): string {
  // GNU diff: an empty range names the line before it
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

/** The hunks (no file header); '' when the texts are equal. */
export function unifiedHunks(before: string, after: string): string {
  const ops = lcsOps(lines(before), lines(after));
  const changed = ops.map((o, i) => (o.t === ' ' ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  let out = '';
  let k = 0;
  while (k < changed.length) {
    const first = changed[k] as number;
    let last = first;
    while (k + 1 < changed.length && (changed[k + 1] as number) - last <= 2 * CONTEXT + 1) {
      k++;
      last = changed[k] as number;
    }
    k++;
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length - 1, last + CONTEXT);
    let aStart = 1;
    let bStart = 1;
    for (let i = 0; i < from; i++) {
      if ((ops[i] as Op).t !== '+') aStart++;
      if ((ops[i] as Op).t !== '-') bStart++;
    }
    const body = ops.slice(from, to + 1);
    const aCount = body.filter((o) => o.t !== '+').length;
    const bCount = body.filter((o) => o.t !== '-').length;
    out += `@@ -${range(aStart, aCount)} +${range(bStart, bCount)} @@\n`;
    for (const o of body) out += `${o.t}${o.line}\n`;
  }
  return out;
}
