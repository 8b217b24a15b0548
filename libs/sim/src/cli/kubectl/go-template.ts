// `-o go-template=...` / `-o template=...`: the part of Go's text/template people use with kubectl
// (cli-runtime printers/template.go): `{{.a.b}}`, `{{$}}`, `{{$var := ...}}`, `{{range}}` (with
// `$i, $e :=`), `{{if}}`/`{{else}}`/`{{with}}`, `{{end}}`, string and number literals, pipes, and
// the functions index, len, printf, print, println, eq, ne, lt, gt, not, and, or, base64decode.
// Missing map keys print `<no value>` (missingkey=default, --allow-missing-template-keys=true).

export class GoTemplateError extends Error {}

type Tok = { t: 'text'; s: string } | { t: 'action'; s: string };

type Node =
  | { k: 'text'; s: string }
  | { k: 'out'; pipe: string }
  | { k: 'assign'; name: string; pipe: string }
  | { k: 'range'; pipe: string; vars: string[]; body: Node[]; alt: Node[] }
  | { k: 'if' | 'with'; pipe: string; body: Node[]; alt: Node[] };

function lex(src: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf('{{', i);
    if (open < 0) {
      toks.push({ t: 'text', s: src.slice(i) });
      break;
    }
    let text = src.slice(i, open);
    let j = open + 2;
    if (src[j] === '-' && /\s/.test(src[j + 1] ?? '')) {
      text = text.replace(/\s+$/, '');
      j++;
    }
    if (text) toks.push({ t: 'text', s: text });
    // find the closing braces outside string literals
    let k = j;
    let inStr: string | null = null;
    for (; k < src.length; k++) {
      const c = src[k];
      if (inStr) {
        if (c === '\\' && inStr === '"') k++;
        else if (c === inStr) inStr = null;
      } else if (c === '"' || c === '`') inStr = c;
      else if (src.startsWith('}}', k)) break;
    }
    if (k >= src.length) throw new GoTemplateError('unclosed action');
    let body = src.slice(j, k);
    i = k + 2;
    if (/\s-$/.test(body)) {
      body = body.slice(0, -1);
      const m = /^\s+/.exec(src.slice(i));
      if (m) i += m[0].length;
    }
    body = body.trim();
    if (!body.startsWith('/*')) toks.push({ t: 'action', s: body });
  }
  return toks;
}

function parse(toks: Tok[]): Node[] {
  let pos = 0;
  // parses a control body up to its `end`; `else if X` chains share that one `end`
  const control = (word: 'range' | 'if' | 'with', rawPipe: string): Node => {
    let pipe = rawPipe;
    let vars: string[] = [];
    const decl = /^(\$\w*)\s*(?:,\s*(\$\w*))?\s*:=\s*(.*)$/s.exec(pipe);
    if (decl && word === 'range') {
      vars = [decl[1] as string, ...(decl[2] ? [decl[2]] : [])];
      pipe = decl[3] as string;
    }
    const [body, closer] = block(true);
    let alt: Node[] = [];
    if (closer !== 'end') {
      const rest = closer.slice(4).trim();
      if (rest.startsWith('if ') && word === 'if') alt = [control('if', rest.slice(3).trim())];
      else {
        const [elseBody, last] = block(true);
        if (last !== 'end') throw new GoTemplateError('expected end; found {{else}}');
        alt = elseBody;
      }
    }
    return word === 'range' ? { k: 'range', pipe, vars, body, alt } : { k: word, pipe, body, alt };
  };
  const block = (inner: boolean): [Node[], string] => {
    const nodes: Node[] = [];
    while (pos < toks.length) {
      const tok = toks[pos++] as Tok;
      if (tok.t === 'text') {
        nodes.push({ k: 'text', s: tok.s });
        continue;
      }
      const s = tok.s;
      const word = /^[a-z]+/.exec(s)?.[0] ?? '';
      if (word === 'end' || word === 'else') {
        if (!inner) throw new GoTemplateError(`unexpected {{${word}}}`);
        return [nodes, s];
      }
      if (word === 'range' || word === 'if' || word === 'with') {
        nodes.push(control(word, s.slice(word.length).trim()));
        continue;
      }
      const assign = /^(\$\w+)\s*:?=\s*(.*)$/s.exec(s);
      if (assign) nodes.push({ k: 'assign', name: assign[1] as string, pipe: assign[2] as string });
      else nodes.push({ k: 'out', pipe: s });
    }
    if (inner) throw new GoTemplateError('unexpected EOF');
    return [nodes, ''];
  };
  return block(false)[0];
}

const NO_VALUE = Symbol('no value');

/** Go's fmt %v for decoded JSON values. */
function show(v: unknown): string {
  if (v === NO_VALUE || v === undefined) return '<no value>';
  if (v === null) return '<nil>';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(show).join(' ')}]`;
  if (typeof v === 'object')
    return `map[${Object.keys(v as object)
      .sort()
      .map((k) => `${k}:${show((v as Record<string, unknown>)[k])}`)
      .join(' ')}]`;
  return String(v);
}

function truthy(v: unknown): boolean {
  if (v === NO_VALUE || v === undefined || v === null || v === false || v === 0 || v === '')
    return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

function splitArgs(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (/\s/.test(s[i] as string)) {
      i++;
      continue;
    }
    if (s[i] === '"' || s[i] === '`') {
      const q = s[i];
      let j = i + 1;
      for (; j < s.length && s[j] !== q; j++) if (s[j] === '\\' && q === '"') j++;
      out.push(s.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (s[i] === '(') {
      let depth = 0;
      let j = i;
      for (; j < s.length; j++) {
        if (s[j] === '(') depth++;
        else if (s[j] === ')' && --depth === 0) break;
      }
      // `(pipeline).field.chain` stays one operand
      let k = j + 1;
      while (k < s.length && !/\s/.test(s[k] as string)) k++;
      out.push(s.slice(i, k));
      i = k;
      continue;
    }
    let j = i;
    while (j < s.length && !/\s/.test(s[j] as string)) j++;
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

function splitPipe(s: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let inStr: string | null = null;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (inStr) {
      cur += c;
      if (c === '\\' && inStr === '"') cur += s[++i] ?? '';
      else if (c === inStr) inStr = null;
      continue;
    }
    if (c === '"' || c === '`') inStr = c;
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === '|' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  parts.push(cur.trim());
  return parts;
}

function sprintf(format: string, args: unknown[]): string {
  let n = 0;
  return format.replace(
    /%([-+ 0#]*\d*(?:\.\d+)?)([vsdqf%])/g,
    (_m, flags: string, verb: string) => {
      if (verb === '%') return '%';
      const a = args[n++];
      let s: string;
      if (verb === 'q') s = JSON.stringify(show(a));
      else if (verb === 'd') s = String(Math.trunc(Number(a)));
      else if (verb === 'f') {
        const p = /\.(\d+)/.exec(flags);
        s = Number(a).toFixed(p ? Number(p[1]) : 6);
      } else s = show(a);
      const w = /(\d+)/.exec(flags.replace(/\.\d+/, ''));
      if (w) s = flags.includes('-') ? s.padEnd(Number(w[1])) : s.padStart(Number(w[1]));
      return s;
    },
  );
}

function base64Decode(s: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const c of s.replace(/=+$/, '')) {
    const idx = alphabet.indexOf(c);
    if (idx < 0) throw new GoTemplateError(`base64decode: illegal base64 data`);
    value = (value << 6) | idx;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >> bits) & 0xff);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

class Scope {
  constructor(
    readonly dot: unknown,
    readonly vars: Map<string, unknown>,
  ) {}
  with(dot: unknown): Scope {
    return new Scope(dot, new Map(this.vars));
  }
}

function field(v: unknown, path: string): unknown {
  let cur = v;
  for (const name of path.split('.').filter(Boolean)) {
    if (cur === NO_VALUE || cur === null || cur === undefined) return NO_VALUE;
    if (typeof cur !== 'object' || Array.isArray(cur))
      throw new GoTemplateError(`can't evaluate field ${name} in type ${goType(cur)}`);
    const o = cur as Record<string, unknown>;
    cur = name in o ? o[name] : NO_VALUE;
  }
  return cur;
}

function goType(v: unknown): string {
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return 'interface {}';
}

function evalArg(arg: string, scope: Scope): unknown {
  if (arg.startsWith('"')) return JSON.parse(arg) as string;
  if (arg.startsWith('`')) return arg.slice(1, -1);
  if (arg.startsWith('(')) {
    const close = arg.lastIndexOf(')');
    return field(evalPipe(arg.slice(1, close), scope), arg.slice(close + 1));
  }
  if (/^-?\d+(\.\d+)?$/.test(arg)) return Number(arg);
  if (arg === 'true' || arg === 'false') return arg === 'true';
  if (arg === 'nil') return null;
  if (arg === '.') return scope.dot;
  if (arg.startsWith('.')) return field(scope.dot, arg);
  if (arg.startsWith('$')) {
    const m = /^(\$\w*)(.*)$/.exec(arg) as RegExpExecArray;
    if (!scope.vars.has(m[1] as string)) throw new GoTemplateError(`undefined variable "${m[1]}"`);
    return field(scope.vars.get(m[1] as string), m[2] as string);
  }
  throw new GoTemplateError(`function "${arg}" not defined`);
}

const FUNCS: Record<string, (args: unknown[]) => unknown> = {
  index: ([x, ...keys]) => {
    let cur = x;
    for (const k of keys) {
      if (Array.isArray(cur)) {
        const i = Number(k);
        if (!Number.isInteger(i) || i < 0 || i >= cur.length)
          throw new GoTemplateError(`error calling index: index out of range: ${String(k)}`);
        cur = cur[i];
      } else if (cur && typeof cur === 'object')
        cur = (cur as Record<string, unknown>)[String(k)] ?? NO_VALUE;
      else throw new GoTemplateError(`error calling index: cannot index slice/array with nil`);
    }
    return cur;
  },
  len: ([x]) => {
    if (typeof x === 'string' || Array.isArray(x)) return x.length;
    if (x && typeof x === 'object') return Object.keys(x).length;
    throw new GoTemplateError(`error calling len: len of type ${goType(x)}`);
  },
  printf: ([f, ...rest]) => sprintf(String(f), rest),
  print: (args) => args.map(show).join(''),
  println: (args) => `${args.map(show).join(' ')}\n`,
  eq: ([a, ...bs]) => bs.some((b) => a === b),
  ne: ([a, b]) => a !== b,
  lt: ([a, b]) => (a as number) < (b as number),
  le: ([a, b]) => (a as number) <= (b as number),
  gt: ([a, b]) => (a as number) > (b as number),
  ge: ([a, b]) => (a as number) >= (b as number),
  not: ([a]) => !truthy(a),
  and: (args) => args.find((a) => !truthy(a)) ?? args[args.length - 1],
  or: (args) => args.find((a) => truthy(a)) ?? args[args.length - 1],
  base64decode: ([s]) => base64Decode(String(s)),
};

function evalPipe(pipe: string, scope: Scope): unknown {
  let prev: unknown = undefined;
  let first = true;
  for (const cmd of splitPipe(pipe)) {
    const args = splitArgs(cmd);
    const [head, ...rest] = args;
    if (head === undefined) throw new GoTemplateError('missing value for command');
    const fn = FUNCS[head];
    if (fn) {
      const vals = rest.map((a) => evalArg(a, scope));
      if (!first) vals.push(prev);
      prev = fn(vals);
    } else {
      if (rest.length) throw new GoTemplateError(`can't give argument to non-function ${head}`);
      prev = evalArg(head, scope);
    }
    first = false;
  }
  return prev;
}

function run(nodes: Node[], scope: Scope, depth = 0): string {
  if (depth > 100) throw new GoTemplateError('exceeded maximum template depth (100000)');
  let out = '';
  for (const n of nodes) {
    switch (n.k) {
      case 'text':
        out += n.s;
        break;
      case 'out':
        out += show(evalPipe(n.pipe, scope));
        break;
      case 'assign':
        scope.vars.set(n.name, evalPipe(n.pipe, scope));
        break;
      case 'if': {
        const v = evalPipe(n.pipe, scope);
        out += run(truthy(v) ? n.body : n.alt, scope, depth + 1);
        break;
      }
      case 'with': {
        const v = evalPipe(n.pipe, scope);
        out += truthy(v) ? run(n.body, scope.with(v), depth + 1) : run(n.alt, scope, depth + 1);
        break;
      }
      case 'range': {
        const v = evalPipe(n.pipe, scope);
        const entries: [unknown, unknown][] = Array.isArray(v)
          ? v.map((x, i) => [i, x])
          : v && typeof v === 'object'
            ? Object.keys(v)
                .sort()
                .map((k) => [k, (v as Record<string, unknown>)[k]])
            : [];
        if (v !== NO_VALUE && v !== null && v !== undefined && typeof v !== 'object')
          throw new GoTemplateError(`range can't iterate over ${show(v)}`);
        if (entries.length === 0) {
          out += run(n.alt, scope, depth + 1);
          break;
        }
        for (const [k, x] of entries) {
          const inner = scope.with(x);
          if (n.vars.length === 1) inner.vars.set(n.vars[0] as string, x);
          if (n.vars.length === 2) {
            inner.vars.set(n.vars[0] as string, k);
            inner.vars.set(n.vars[1] as string, x);
          }
          out += run(n.body, inner, depth + 1);
        }
        break;
      }
    }
  }
  return out;
}

/** Runs a template against one object or a List; throws GoTemplateError. */
export function executeGoTemplate(template: string, data: unknown): string {
  const nodes = parse(lex(template));
  return run(nodes, new Scope(data, new Map([['$', data]])));
}

/** The parse error kubectl reports before it fetches anything, or undefined. */
export function goTemplateParseError(template: string): string | undefined {
  try {
    parse(lex(template));
    return undefined;
  } catch (e) {
    return `error parsing template ${template}, template: output:1: ${(e as Error).message}`;
  }
}
