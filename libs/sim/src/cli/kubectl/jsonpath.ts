// A k8s.io/client-go/util/jsonpath subset: `{.a.b}`, `[*]`, `[n]`, `[a:b]`, `..name`, filters
// `[?(@.type=="Ready")]`, `{range ...}{end}`, quoted literals like `{"\n"}`. Enough for the
// `-o jsonpath=` lines people actually type.

export class JsonPathError extends Error {}

type Node =
  | { t: 'text'; s: string }
  | { t: 'expr'; path: string }
  | { t: 'range'; path: string; body: Node[] };

function parseTemplate(tpl: string): Node[] {
  const root: Node[] = [];
  const stack: { body: Node[] }[] = [{ body: root }];
  let i = 0;
  while (i < tpl.length) {
    const open = tpl.indexOf('{', i);
    const top = stack[stack.length - 1] as { body: Node[] };
    if (open < 0) {
      top.body.push({ t: 'text', s: tpl.slice(i) });
      break;
    }
    if (open > i) top.body.push({ t: 'text', s: tpl.slice(i, open) });
    let depth = 0;
    let j = open;
    let inStr: string | null = null;
    for (; j < tpl.length; j++) {
      const c = tpl[j];
      if (inStr) {
        if (c === '\\') j++;
        else if (c === inStr) inStr = null;
        continue;
      }
      if (c === '"' || c === "'") inStr = c;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
    }
    if (j >= tpl.length) throw new JsonPathError(`unclosed action`);
    const inner = tpl.slice(open + 1, j).trim();
    i = j + 1;
    if (inner.startsWith('range ')) {
      const node: Node = { t: 'range', path: inner.slice(6).trim(), body: [] };
      top.body.push(node);
      stack.push(node);
    } else if (inner === 'end') {
      if (stack.length === 1) throw new JsonPathError('not in range, nothing to end');
      stack.pop();
    } else if (/^(["']).*\1$/s.test(inner)) {
      top.body.push({ t: 'text', s: unquote(inner) });
    } else top.body.push({ t: 'expr', path: inner });
  }
  if (stack.length > 1) throw new JsonPathError('unclosed range');
  return root;
}

function unquote(s: string): string {
  const body = s.slice(1, -1);
  return body.replace(/\\(.)/g, (_m, c: string) =>
    c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c,
  );
}

type Seg =
  | { t: 'field'; name: string }
  | { t: 'recursive'; name: string }
  | { t: 'wild' }
  | { t: 'index'; start?: number; end?: number; single: boolean }
  | { t: 'filter'; left: string; op: string; right: string | number | null };

function parsePath(path: string): Seg[] {
  let p = path.trim();
  if (p === '@' || p === '$' || p === '.') return [];
  if (p.startsWith('$')) p = p.slice(1);
  if (p.startsWith('@')) p = p.slice(1);
  const segs: Seg[] = [];
  let i = 0;
  while (i < p.length) {
    if (p.startsWith('..', i)) {
      const m = /^[A-Za-z0-9_\-/$]+/.exec(p.slice(i + 2));
      if (!m) throw new JsonPathError(`invalid path ${path}`);
      segs.push({ t: 'recursive', name: m[0] });
      i += 2 + m[0].length;
    } else if (p[i] === '.') {
      if (p[i + 1] === '*') {
        segs.push({ t: 'wild' });
        i += 2;
        continue;
      }
      const m = /^[A-Za-z0-9_\-/$]*/.exec(p.slice(i + 1)) as RegExpExecArray;
      if (m[0] !== '') segs.push({ t: 'field', name: m[0] });
      i += 1 + m[0].length;
    } else if (p[i] === '[') {
      const end = p.indexOf(']', i);
      if (end < 0) throw new JsonPathError(`unterminated array`);
      const inner = p.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') segs.push({ t: 'wild' });
      else if (inner.startsWith('?(')) {
        const m = /^\?\(@\.([A-Za-z0-9_.\-/]+)\s*(==|!=|<=|>=|<|>)\s*(.+)\)$/.exec(inner);
        const e = /^\?\(@\.([A-Za-z0-9_.\-/]+)\)$/.exec(inner);
        if (m) {
          const raw = (m[3] as string).trim();
          const right = /^["'].*["']$/.test(raw)
            ? raw.slice(1, -1)
            : raw === 'null'
              ? null
              : Number(raw);
          segs.push({ t: 'filter', left: m[1] as string, op: m[2] as string, right });
        } else if (e) segs.push({ t: 'filter', left: e[1] as string, op: 'exists', right: null });
        else throw new JsonPathError(`unrecognized filter ${inner}`);
      } else if (/^['"].*['"]$/.test(inner)) segs.push({ t: 'field', name: inner.slice(1, -1) });
      else {
        const m = /^(-?\d*)(?::(-?\d*))?$/.exec(inner);
        if (!m) throw new JsonPathError(`invalid array index ${inner}`);
        if (m[2] === undefined) segs.push({ t: 'index', start: Number(m[1]), single: true });
        else
          segs.push({
            t: 'index',
            start: m[1] ? Number(m[1]) : undefined,
            end: m[2] ? Number(m[2]) : undefined,
            single: false,
          });
      }
    } else {
      const m = /^[A-Za-z0-9_\-/$]+/.exec(p.slice(i));
      if (!m) throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(p[i])}`);
      segs.push({ t: 'field', name: m[0] });
      i += m[0].length;
    }
  }
  return segs;
}

function getField(v: unknown, name: string): unknown[] {
  if (v && typeof v === 'object' && !Array.isArray(v) && name in (v as object))
    return [(v as Record<string, unknown>)[name]];
  return [];
}

function evalPath(values: unknown[], segs: Seg[], path: string): unknown[] {
  let cur = values;
  for (const seg of segs) {
    const next: unknown[] = [];
    for (const v of cur) {
      switch (seg.t) {
        case 'field': {
          const r = getField(v, seg.name);
          next.push(...r);
          break;
        }
        case 'recursive': {
          const walk = (x: unknown, depth: number) => {
            if (depth > 64 || !x || typeof x !== 'object') return;
            if (!Array.isArray(x) && seg.name in (x as object))
              next.push((x as Record<string, unknown>)[seg.name]);
            for (const c of Object.values(x as object)) walk(c, depth + 1);
          };
          walk(v, 0);
          break;
        }
        case 'wild':
          if (Array.isArray(v)) next.push(...v);
          else if (v && typeof v === 'object') next.push(...Object.values(v as object));
          break;
        case 'index': {
          if (!Array.isArray(v)) break;
          const n = v.length;
          if (seg.single) {
            const idx =
              (seg.start as number) < 0 ? n + (seg.start as number) : (seg.start as number);
            if (idx < 0 || idx >= n)
              throw new JsonPathError(`array index out of bounds: index ${seg.start}, length ${n}`);
            next.push(v[idx]);
          } else {
            let s = seg.start ?? 0;
            let e = seg.end ?? n;
            if (s < 0) s = Math.max(0, n + s);
            if (e < 0) e = n + e;
            next.push(...v.slice(s, Math.min(e, n)));
          }
          break;
        }
        case 'filter': {
          if (!Array.isArray(v)) break;
          for (const item of v) {
            const left = evalPath([item], parsePath(`.${seg.left}`), path);
            if (seg.op === 'exists') {
              if (left.length) next.push(item);
              continue;
            }
            const l = left[0];
            const r = seg.right;
            const cmp = typeof r === 'number' ? Number(l) : l;
            const ok =
              seg.op === '=='
                ? cmp === r || String(l) === String(r)
                : seg.op === '!='
                  ? String(l) !== String(r)
                  : seg.op === '<'
                    ? Number(l) < Number(r)
                    : seg.op === '>'
                      ? Number(l) > Number(r)
                      : seg.op === '<='
                        ? Number(l) <= Number(r)
                        : Number(l) >= Number(r);
            if (left.length && ok) next.push(item);
          }
          break;
        }
      }
    }
    cur = next;
  }
  return cur;
}

function render(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Executes a kubectl jsonpath template against `data`. Missing fields print nothing. */
export function executeJsonPath(template: string, data: unknown): string {
  const nodes = parseTemplate(template);
  const run = (list: Node[], scope: unknown): string => {
    let out = '';
    for (const n of list) {
      if (n.t === 'text') out += n.s;
      else if (n.t === 'expr')
        out += evalPath([scope], parsePath(n.path), n.path).map(render).join(' ');
      else {
        for (const item of evalPath([scope], parsePath(n.path), n.path)) {
          const items = Array.isArray(item) ? item : [item];
          for (const it of items) out += run(n.body, it);
        }
      }
    }
    return out;
  };
  return run(nodes, data);
}

/**
 * The values one `{path}` expression finds (jsonpath FindResults with AllowMissingKeys): what
 * `get --sort-by` sorts on and what `wait --for=jsonpath=` compares.
 */
export function findJsonPathValues(expression: string, data: unknown): unknown[] {
  const inner = expression.trim().replace(/^\{/, '').replace(/\}$/, '');
  return evalPath([data], parsePath(inner), inner);
}

/** get.go RelaxedJSONPathExpression: `.a.b`, `a.b`, `{a.b}` all become `{.a.b}`. */
export function relaxedJsonPath(path: string): string {
  if (path === '') return '';
  const m = /^\{?(\.?[^{}]*)\}?$/.exec(path);
  if (!m)
    throw new JsonPathError(
      "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'",
    );
  const inner = m[1] as string;
  return `{${inner.startsWith('.') ? inner : `.${inner}`}}`;
}
