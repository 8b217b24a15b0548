// labels.Selector.String() of metav1.LabelSelectorAsSelector: the SELECTOR cell of -o wide
// (requirements sorted by key; an empty selector prints "").

export function selectorString(selector: unknown): string {
  if (selector === null || typeof selector !== 'object') return '';
  const s = selector as {
    matchLabels?: Record<string, unknown>;
    matchExpressions?: { key?: unknown; operator?: unknown; values?: unknown }[];
  };
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(s.matchLabels ?? {}))
    reqs.push({ key: k, text: `${k}=${String(v)}` });
  for (const e of Array.isArray(s.matchExpressions) ? s.matchExpressions : []) {
    const key = String(e?.key ?? '');
    const values = (Array.isArray(e?.values) ? e.values.map(String) : []).sort();
    switch (e?.operator) {
      case 'In':
        reqs.push({ key, text: `${key} in (${values.join(',')})` });
        break;
      case 'NotIn':
        reqs.push({ key, text: `${key} notin (${values.join(',')})` });
        break;
      case 'Exists':
        reqs.push({ key, text: key });
        break;
      case 'DoesNotExist':
        reqs.push({ key, text: `!${key}` });
        break;
    }
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.text).join(',');
}

/** labels.FormatLabels: `k=v,...` sorted by key, `<none>` when empty. */
export function formatLabelMap(labels: unknown): string {
  if (labels === null || typeof labels !== 'object') return '<none>';
  const entries = Object.entries(labels as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return entries.length === 0 ? '<none>' : entries.map(([k, v]) => `${k}=${String(v)}`).join(',');
}
