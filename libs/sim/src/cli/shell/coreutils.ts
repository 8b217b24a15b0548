// The handful of GNU coreutils a learner pipes kubectl into, with their real error messages.

import { base64Decode, base64Encode } from '../text/base64';
import type { CommandContext, CommandFn, CommandResult } from './command-types';
import { fail, ok } from './command-types';

function readInputs(
  ctx: CommandContext,
  files: string[],
  tool: string,
): { text: string; err: string; code: number } {
  if (files.length === 0 || (files.length === 1 && files[0] === '-'))
    return { text: ctx.stdin, err: '', code: 0 };
  let text = '';
  let err = '';
  let code = 0;
  for (const f of files) {
    if (f === '-') {
      text += ctx.stdin;
      continue;
    }
    const p = ctx.resolve(f);
    const content = ctx.fs.read(p);
    if (content === undefined) {
      err += ctx.fs.isDir(p)
        ? `${tool}: ${f}: Is a directory\n`
        : `${tool}: ${f}: No such file or directory\n`;
      code = tool === 'grep' ? 2 : 1;
    } else text += content;
  }
  return { text, err, code };
}

function lines(text: string): string[] {
  if (text === '') return [];
  const l = text.split('\n');
  if (l[l.length - 1] === '') l.pop();
  return l;
}

const join = (l: string[]) => (l.length ? `${l.join('\n')}\n` : '');

/** Splits combined short flags (`-vi` -> `-v -i`) and `-n5` / `-n 5` values. */
function parseFlags(
  args: string[],
  withValue: string[],
): { flags: Map<string, string>; rest: string[] } | string {
  const flags = new Map<string, string>();
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      rest.push(...args.slice(i + 1));
      break;
    }
    if (/^-\d+$/.test(a) && withValue.includes('n')) {
      flags.set('n', a.slice(1));
      continue;
    }
    if (a.startsWith('--') && a.length > 2) {
      const [k, v] = a.slice(2).split('=', 2) as [string, string | undefined];
      flags.set(k, v ?? '');
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j] as string;
        if (withValue.includes(f)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) return f;
          flags.set(f, v);
          break;
        }
        flags.set(f, '');
      }
      continue;
    }
    rest.push(a);
  }
  return { flags, rest };
}

export const echo: CommandFn = (ctx) => {
  let args = ctx.args;
  let newline = true;
  let escapes = false;
  while (args[0] && /^-[neE]+$/.test(args[0])) {
    if (args[0].includes('n')) newline = false;
    if (args[0].includes('e')) escapes = true;
    args = args.slice(1);
  }
  let s = args.join(' ');
  if (escapes) s = s.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\\\/g, '\\');
  return ok(newline ? `${s}\n` : s);
};

export const cat: CommandFn = (ctx) => {
  const files = ctx.args.filter((a) => a === '-' || !a.startsWith('-'));
  const r = readInputs(ctx, files, 'cat');
  return { stdout: r.text, stderr: r.err, exitCode: r.code };
};

export const grep: CommandFn = (ctx) => {
  const p = parseFlags(ctx.args, ['e', 'm', 'A', 'B']);
  if (typeof p === 'string')
    return fail(
      `grep: option requires an argument -- '${p}'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n`,
      2,
    );
  const { flags, rest } = p;
  let pattern = flags.get('e');
  if (pattern === undefined) pattern = rest.shift();
  if (pattern === undefined)
    return fail(
      "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n",
      2,
    );
  const extended = flags.has('E') || flags.has('extended-regexp');
  const fixed = flags.has('F');
  let source = fixed ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : pattern;
  if (!extended && !fixed) {
    // basic regex: \| \+ \? \( \) are operators; bare | + ? ( ) are literals
    source = source.replace(/\\([|+?(){}])|([|+?(){}])/g, (_m, esc: string, lit: string) =>
      esc ? esc : `\\${lit}`,
    );
  }
  let re: RegExp;
  try {
    re = new RegExp(source, flags.has('i') || flags.has('ignore-case') ? 'i' : '');
  } catch {
    return fail(extended ? 'grep: Unmatched ( or \\(\n' : 'grep: Invalid regular expression\n', 2);
  }
  const r = readInputs(ctx, rest, 'grep');
  const invert = flags.has('v');
  const matched = lines(r.text).filter((l) => re.test(l) !== invert);
  const max = flags.has('m') ? Number(flags.get('m')) : Infinity;
  const out = matched.slice(0, Number.isFinite(max) ? max : undefined);
  const code = r.code || (out.length > 0 ? 0 : 1);
  if (flags.has('c')) return { stdout: `${out.length}\n`, stderr: r.err, exitCode: code };
  if (flags.has('q')) return { stdout: '', stderr: r.err, exitCode: code };
  if (flags.has('o')) {
    const g = new RegExp(re.source, `${re.flags}g`);
    return { stdout: join(out.flatMap((l) => l.match(g) ?? [])), stderr: r.err, exitCode: code };
  }
  return { stdout: join(out), stderr: r.err, exitCode: code };
};

function headTail(tool: 'head' | 'tail'): CommandFn {
  return (ctx) => {
    const p = parseFlags(ctx.args, ['n', 'c']);
    if (typeof p === 'string')
      return fail(
        `${tool}: option requires an argument -- '${p}'\nTry '${tool} --help' for more information.\n`,
      );
    const raw = p.flags.get('n') ?? p.flags.get('lines') ?? '10';
    const fromStart = tool === 'tail' && raw.startsWith('+');
    const n = Number(raw.replace(/^[+-]/, ''));
    if (!Number.isInteger(n) || n < 0) return fail(`${tool}: invalid number of lines: ‘${raw}’\n`);
    const r = readInputs(ctx, p.rest, tool);
    const l = lines(r.text);
    const out =
      tool === 'head'
        ? raw.startsWith('-')
          ? l.slice(0, Math.max(0, l.length - n))
          : l.slice(0, n)
        : fromStart
          ? l.slice(Math.max(0, n - 1))
          : n === 0
            ? []
            : l.slice(-n);
    return { stdout: join(out), stderr: r.err, exitCode: r.code };
  };
}
export const head = headTail('head');
export const tail = headTail('tail');

export const wc: CommandFn = (ctx) => {
  const p = parseFlags(ctx.args, []);
  if (typeof p === 'string') return fail('wc: invalid option\n');
  const r = readInputs(ctx, p.rest, 'wc');
  const nl = (r.text.match(/\n/g) ?? []).length;
  const words = r.text.split(/\s+/).filter(Boolean).length;
  const bytes = r.text.length;
  const only = ['l', 'w', 'c'].filter((f) => p.flags.has(f));
  const counts = only.length
    ? only.map((f) => (f === 'l' ? nl : f === 'w' ? words : bytes))
    : [nl, words, bytes];
  const fileSuffix = p.rest.length === 1 ? ` ${p.rest[0]}` : '';
  const width =
    only.length === 1 && !fileSuffix
      ? 0
      : Math.max(...counts.map((c) => String(c).length), fileSuffix || p.rest.length ? 1 : 7);
  return {
    stdout: `${counts.map((c) => String(c).padStart(width)).join(' ')}${fileSuffix}\n`,
    stderr: r.err,
    exitCode: r.code,
  };
};

export const base64: CommandFn = (ctx) => {
  const p = parseFlags(ctx.args, ['w']);
  if (typeof p === 'string') return fail(`base64: option requires an argument -- '${p}'\n`);
  const r = readInputs(ctx, p.rest, 'base64');
  if (r.code) return { stdout: '', stderr: r.err, exitCode: r.code };
  if (p.flags.has('d') || p.flags.has('decode')) {
    const out = base64Decode(r.text);
    return out === null ? fail('base64: invalid input\n') : ok(out);
  }
  const enc = base64Encode(r.text);
  const wrap = Number(p.flags.get('w') ?? 76);
  const wrapped = wrap > 0 ? (enc.match(new RegExp(`.{1,${wrap}}`, 'g')) ?? []).join('\n') : enc;
  return ok(enc === '' ? '' : `${wrapped}\n`);
};

export const sort: CommandFn = (ctx) => {
  const p = parseFlags(ctx.args, ['k', 't']);
  if (typeof p === 'string') return fail(`sort: option requires an argument -- '${p}'\n`, 2);
  const r = readInputs(ctx, p.rest, 'sort');
  let l = lines(r.text);
  const key = (s: string) => {
    if (!p.flags.has('k')) return s;
    const k = Number((p.flags.get('k') as string).split(',')[0]) - 1;
    const sep = p.flags.get('t');
    const fields = sep ? s.split(sep) : s.trim().split(/\s+/);
    return fields.slice(Math.max(0, k)).join(sep ?? ' ');
  };
  if (p.flags.has('n'))
    l.sort((a, b) => parseFloat(key(a)) - parseFloat(key(b)) || (a < b ? -1 : a > b ? 1 : 0));
  else l.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  if (p.flags.has('r')) l.reverse();
  if (p.flags.has('u')) l = l.filter((x, i) => i === 0 || x !== l[i - 1]);
  return { stdout: join(l), stderr: r.err, exitCode: r.code };
};

export const uniq: CommandFn = (ctx) => {
  const p = parseFlags(ctx.args, []);
  if (typeof p === 'string') return fail('uniq: invalid option\n');
  const r = readInputs(ctx, p.rest, 'uniq');
  const out: [string, number][] = [];
  for (const l of lines(r.text)) {
    const last = out[out.length - 1];
    if (last && last[0] === l) last[1]++;
    else out.push([l, 1]);
  }
  return ok(join(out.map(([l, n]) => (p.flags.has('c') ? `${String(n).padStart(7)} ${l}` : l))));
};

function parseRanges(spec: string): ((i: number) => boolean) | null {
  const parts = spec.split(',');
  const tests: ((i: number) => boolean)[] = [];
  for (const part of parts) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || (m[1] === '' && m[3] === '')) return null;
    const a = m[1] ? Number(m[1]) : 1;
    const b = m[2] ? (m[3] ? Number(m[3]) : Infinity) : a;
    if (a < 1) return null;
    tests.push((i) => i >= a && i <= b);
  }
  return (i) => tests.some((t) => t(i));
}

export const cut: CommandFn = (ctx) => {
  const p = parseFlags(ctx.args, ['d', 'f', 'c']);
  if (typeof p === 'string')
    return fail(
      `cut: option requires an argument -- '${p}'\nTry 'cut --help' for more information.\n`,
    );
  const spec = p.flags.get('f') ?? p.flags.get('c');
  if (spec === undefined)
    return fail(
      "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n",
    );
  const sel = parseRanges(spec);
  if (!sel)
    return fail(`cut: invalid field value ‘${spec}’\nTry 'cut --help' for more information.\n`);
  const delim = p.flags.get('d') ?? '\t';
  if ([...delim].length !== 1)
    return fail(
      "cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n",
    );
  const r = readInputs(ctx, p.rest, 'cut');
  const out = lines(r.text).map((l) => {
    if (p.flags.has('c')) return [...l].filter((_, i) => sel(i + 1)).join('');
    if (!l.includes(delim)) return l;
    return l
      .split(delim)
      .filter((_, i) => sel(i + 1))
      .join(delim);
  });
  return { stdout: join(out), stderr: r.err, exitCode: r.code };
};

export const tee: CommandFn = (ctx) => {
  const append = ctx.args.includes('-a');
  for (const f of ctx.args.filter((a) => !a.startsWith('-'))) {
    const p = ctx.resolve(f);
    ctx.fs.write(p, (append ? (ctx.fs.read(p) ?? '') : '') + ctx.stdin);
  }
  return ok(ctx.stdin);
};

export const trueCmd: CommandFn = () => ok();
export const falseCmd: CommandFn = () => fail('', 1);

export function ls(ctx: CommandContext): CommandResult {
  const p = parseFlags(ctx.args, []);
  if (typeof p === 'string') return fail('ls: invalid option\n', 2);
  const long = p.flags.has('l');
  const all = p.flags.has('a');
  const targets = p.rest.length ? p.rest : ['.'];
  let stdout = '';
  let stderr = '';
  let code = 0;
  const fmt = (name: string, path: string) =>
    long
      ? `${ctx.fs.isDir(path) ? 'drwxr-xr-x 2' : '-rw-r--r-- 1'} root root ${String(ctx.fs.read(path)?.length ?? 4096).padStart(5)} Jan  5 09:00 ${name}`
      : name;
  for (const t of targets) {
    const path = ctx.resolve(t);
    if (!ctx.fs.exists(path)) {
      stderr += `ls: cannot access '${t}': No such file or directory\n`;
      code = 2;
      continue;
    }
    if (!ctx.fs.isDir(path)) {
      stdout += `${fmt(t, path)}\n`;
      continue;
    }
    if (targets.length > 1) stdout += `${t}:\n`;
    const names = ctx.fs.list(path).filter((n) => all || !n.startsWith('.'));
    const entries = names.map((n) => fmt(n, path === '/' ? `/${n}` : `${path}/${n}`));
    if (long) stdout += `total ${names.length * 4}\n`;
    if (entries.length) stdout += long ? `${entries.join('\n')}\n` : `${entries.join('  ')}\n`;
  }
  return { stdout, stderr, exitCode: code };
}

export function mkdir(ctx: CommandContext): CommandResult {
  const parents = ctx.args.includes('-p');
  let stderr = '';
  for (const a of ctx.args.filter((x) => !x.startsWith('-'))) {
    const p = ctx.resolve(a);
    if (ctx.fs.exists(p) && !parents)
      stderr += `mkdir: cannot create directory ‘${a}’: File exists\n`;
    else ctx.fs.mkdir(p);
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

export function rm(ctx: CommandContext): CommandResult {
  const force = ctx.args.some((a) => /^-[a-zA-Z]*f/.test(a));
  const recursive = ctx.args.some((a) => /^-[a-zA-Z]*[rR]/.test(a));
  let stderr = '';
  for (const a of ctx.args.filter((x) => !x.startsWith('-'))) {
    const p = ctx.resolve(a);
    if (!ctx.fs.exists(p)) {
      if (!force) stderr += `rm: cannot remove '${a}': No such file or directory\n`;
      continue;
    }
    if (ctx.fs.isDir(p) && !recursive) {
      stderr += `rm: cannot remove '${a}': Is a directory\n`;
      continue;
    }
    removeTree(ctx, p);
  }
  return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
}

function removeTree(ctx: CommandContext, p: string): void {
  if (ctx.fs.isDir(p))
    for (const n of ctx.fs.list(p)) removeTree(ctx, `${p === '/' ? '' : p}/${n}`);
  ctx.fs.remove(p);
}

function copyOrMove(tool: 'cp' | 'mv'): CommandFn {
  return (ctx) => {
    const args = ctx.args.filter((a) => !a.startsWith('-'));
    if (args.length < 2) {
      return fail(
        args.length === 0
          ? `${tool}: missing file operand\nTry '${tool} --help' for more information.\n`
          : `${tool}: missing destination file operand after '${args[0]}'\nTry '${tool} --help' for more information.\n`,
      );
    }
    const dest = args.pop() as string;
    let stderr = '';
    for (const src of args) {
      const from = ctx.resolve(src);
      const text = ctx.fs.read(from);
      if (text === undefined) {
        stderr += ctx.fs.isDir(from)
          ? `${tool}: -r not specified; omitting directory '${src}'\n`
          : `${tool}: cannot stat '${src}': No such file or directory\n`;
        continue;
      }
      let to = ctx.resolve(dest);
      if (ctx.fs.isDir(to)) to = `${to === '/' ? '' : to}/${from.split('/').pop()}`;
      ctx.fs.write(to, text);
      if (tool === 'mv') ctx.fs.remove(from);
    }
    return { stdout: '', stderr, exitCode: stderr ? 1 : 0 };
  };
}
export const cp = copyOrMove('cp');
export const mv = copyOrMove('mv');

export function touch(ctx: CommandContext): CommandResult {
  for (const a of ctx.args.filter((x) => !x.startsWith('-'))) {
    const p = ctx.resolve(a);
    if (!ctx.fs.exists(p)) ctx.fs.write(p, '');
  }
  return ok();
}

/** sed with the scripts people type: s/a/b/[g], Nd, /re/d, /re/p with -n, -i to edit in place. */
export function sed(ctx: CommandContext): CommandResult {
  let inPlace = false;
  let quiet = false;
  const scripts: string[] = [];
  const files: string[] = [];
  for (let i = 0; i < ctx.args.length; i++) {
    const a = ctx.args[i] as string;
    if (a === '-i') inPlace = true;
    else if (a === '-n') quiet = true;
    else if (a === '-e') scripts.push(ctx.args[++i] ?? '');
    else if (a.startsWith('-') && a.length > 1)
      return fail(`sed: invalid option -- '${a.slice(1)}'\n`, 1);
    else if (scripts.length === 0) scripts.push(a);
    else files.push(a);
  }
  if (scripts.length === 0) {
    return fail('Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n', 1);
  }
  type Step = (line: string, n: number) => { line: string; del: boolean; print: boolean };
  const steps: Step[] = [];
  const bad = (sc: string) =>
    fail(`sed: -e expression #1, char ${sc.length}: unknown command: \`${sc[0] ?? ''}'\n`, 1);
  for (const sc of scripts
    .flatMap((x) => x.split(';'))
    .map((x) => x.trim())
    .filter(Boolean)) {
    const sub = /^s(.)(.*?)\1(.*?)\1([gi]*)$/.exec(sc);
    const del = /^(\d+)d$/.exec(sc);
    const addr = /^\/(.*)\/([dp])$/.exec(sc);
    try {
      if (sub) {
        const flags = `${sub[4]?.includes('g') ? 'g' : ''}${sub[4]?.includes('i') ? 'i' : ''}`;
        const re = new RegExp(sub[2] as string, flags);
        const rep = (sub[3] as string).replace(/\\(\d)/g, '$$$1').replace(/&/g, '$$&');
        steps.push((line) => ({ line: line.replace(re, rep), del: false, print: false }));
      } else if (del) {
        const target = Number(del[1]);
        steps.push((line, n) => ({ line, del: n === target, print: false }));
      } else if (addr) {
        const re = new RegExp(addr[1] as string);
        const op = addr[2];
        steps.push((line) => ({
          line,
          del: op === 'd' && re.test(line),
          print: op === 'p' && re.test(line),
        }));
      } else return bad(sc);
    } catch {
      return fail(
        `sed: -e expression #1, char ${sc.length}: Invalid preceding regular expression\n`,
        1,
      );
    }
  }
  const apply = (text: string) => {
    const out: string[] = [];
    lines(text).forEach((l, idx) => {
      let line = l;
      let deleted = false;
      let printed = false;
      for (const st of steps) {
        const r = st(line, idx + 1);
        line = r.line;
        deleted ||= r.del;
        printed ||= r.print;
      }
      if (deleted) return;
      if (printed) out.push(line);
      if (!quiet) out.push(line);
    });
    return join(out);
  };
  if (inPlace) {
    let stderr = '';
    for (const f of files) {
      const p = ctx.resolve(f);
      const t = ctx.fs.read(p);
      if (t === undefined) stderr += `sed: can't read ${f}: No such file or directory\n`;
      else ctx.fs.write(p, apply(t));
    }
    return { stdout: '', stderr, exitCode: stderr ? 2 : 0 };
  }
  const r = readInputs(ctx, files, 'sed');
  const err = r.err.replace(/^sed: (.*): No such/gm, "sed: can't read $1: No such");
  return { stdout: apply(r.text), stderr: err, exitCode: r.code ? 2 : 0 };
}
