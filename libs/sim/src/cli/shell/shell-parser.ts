// Lexer + parser for the lab shell. Produces a Script; expansion happens later, at run time, so
// that `X=1; echo $X` and `$(date +%F)` see the state of the moment. Errors read like bash's.

import type {
  AndOrList,
  Pipeline,
  Redirect,
  Script,
  SimpleCommand,
  Word,
  WordPart,
} from './shell-ast';
import { ShellSyntaxError } from './shell-ast';

type Token =
  | { t: 'word'; word: Word; raw: string }
  | { t: 'op'; op: string }
  | { t: 'redir'; fd: 0 | 1 | 2; op: '>' | '>>' | '<' | '<<' | '<<-' | 'dup'; to?: 1 | 2 }
  | { t: 'nl' };

const MAX_INPUT = 1_000_000;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface PendingHeredoc {
  delim: string;
  strip: boolean;
  expand: boolean;
  target: { body: string };
}

class Lexer {
  private i = 0;
  readonly tokens: Token[] = [];
  private pending: PendingHeredoc[] = [];
  readonly heredocBodies: { body: string }[] = [];

  constructor(private readonly s: string) {}

  run(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i] as string;
      if (c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2;
        continue;
      }
      if (c === ' ' || c === '\t' || c === '\r') {
        this.i++;
        continue;
      }
      if (c === '\n') {
        this.i++;
        this.tokens.push({ t: 'nl' });
        this.readHeredocBodies();
        continue;
      }
      if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
        continue;
      }
      if (this.tryOperator()) continue;
      this.readWord();
    }
    if (this.pending.length > 0) {
      // bash warns and uses what it has when the here-document is not terminated
      for (const p of this.pending) p.target.body = p.target.body ?? '';
      this.pending = [];
    }
  }

  private tryOperator(): boolean {
    const s = this.s;
    const rest = s.slice(this.i, this.i + 4);
    const two = rest.slice(0, 2);
    const push = (tok: Token, n: number) => {
      this.tokens.push(tok);
      this.i += n;
      return true;
    };
    if (rest.startsWith('2>&1')) return push({ t: 'redir', fd: 2, op: 'dup', to: 1 }, 4);
    if (rest.startsWith('1>&2') || rest.startsWith('>&2')) {
      return push({ t: 'redir', fd: 1, op: 'dup', to: 2 }, rest.startsWith('1') ? 4 : 3);
    }
    if (rest.startsWith('2>>')) return push({ t: 'redir', fd: 2, op: '>>' }, 3);
    if (two === '2>' && this.atWordStart()) return push({ t: 'redir', fd: 2, op: '>' }, 2);
    if (rest.startsWith('&>')) {
      this.tokens.push({ t: 'redir', fd: 1, op: '>' });
      this.i += 2;
      this.readWord();
      this.tokens.push({ t: 'redir', fd: 2, op: 'dup', to: 1 });
      return true;
    }
    if (rest.startsWith('<<-')) return this.heredoc(true, 3);
    if (two === '<<') return this.heredoc(false, 2);
    if (two === '>>' || rest.startsWith('1>>'))
      return push({ t: 'redir', fd: 1, op: '>>' }, two === '>>' ? 2 : 3);
    if (two === '&&' || two === '||') return push({ t: 'op', op: two }, 2);
    if (rest.startsWith('1>') && this.atWordStart()) return push({ t: 'redir', fd: 1, op: '>' }, 2);
    const c = s[this.i] as string;
    if (c === '>') return push({ t: 'redir', fd: 1, op: '>' }, 1);
    if (c === '<') return push({ t: 'redir', fd: 0, op: '<' }, 1);
    if (c === '|' || c === ';' || c === '&') return push({ t: 'op', op: c }, 1);
    if (c === '(' || c === ')') {
      throw new ShellSyntaxError(`syntax error near unexpected token \`${c}'`);
    }
    return false;
  }

  private atWordStart(): boolean {
    const prev = this.s[this.i - 1];
    return prev === undefined || /[\s;&|]/.test(prev);
  }

  private heredoc(strip: boolean, n: number): boolean {
    this.i += n;
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
    const start = this.i;
    const word = this.readWordParts();
    const raw = this.s.slice(start, this.i);
    if (word.length === 0)
      throw new ShellSyntaxError("syntax error near unexpected token `newline'");
    const delim = word.map((p) => (p.kind === 'lit' ? p.text : '')).join('');
    const target = { body: '' };
    this.pending.push({ delim, strip, expand: !/['"\\]/.test(raw), target });
    this.tokens.push({ t: 'redir', fd: 0, op: strip ? '<<-' : '<<' });
    this.tokens.push({ t: 'word', word: [{ kind: 'lit', text: delim, quoted: true }], raw });
    this.heredocBodies.push(target);
    (this.tokens[this.tokens.length - 1] as { heredoc?: PendingHeredoc }).heredoc =
      this.pending[this.pending.length - 1];
    return true;
  }

  private readHeredocBodies(): void {
    while (this.pending.length > 0) {
      const p = this.pending.shift() as PendingHeredoc;
      const lines: string[] = [];
      let found = false;
      while (this.i < this.s.length) {
        let end = this.s.indexOf('\n', this.i);
        if (end < 0) end = this.s.length;
        let line = this.s.slice(this.i, end);
        this.i = Math.min(end + 1, this.s.length);
        if (p.strip) line = line.replace(/^\t+/, '');
        if (line === p.delim || line === `${p.delim}\r`) {
          found = true;
          break;
        }
        lines.push(line);
      }
      p.target.body =
        lines.length > 0 || found ? lines.join('\n') + (lines.length ? '\n' : '') : '';
    }
  }

  private readWord(): void {
    const start = this.i;
    const word = this.readWordParts();
    if (word.length === 0 && this.i === start) {
      throw new ShellSyntaxError(`syntax error near unexpected token \`${this.s[this.i]}'`);
    }
    this.tokens.push({ t: 'word', word, raw: this.s.slice(start, this.i) });
  }

  private readWordParts(): Word {
    const s = this.s;
    const parts: WordPart[] = [];
    let lit = '';
    const flush = (quoted: boolean) => {
      if (lit !== '') parts.push({ kind: 'lit', text: lit, quoted });
      lit = '';
    };
    while (this.i < s.length) {
      const c = s[this.i] as string;
      if (/[\s|&;<>()]/.test(c)) break;
      if (c === '\\') {
        if (s[this.i + 1] === '\n') {
          this.i += 2;
          continue;
        }
        flush(false);
        if (this.i + 1 < s.length)
          parts.push({ kind: 'lit', text: s[this.i + 1] as string, quoted: true });
        this.i += 2;
        continue;
      }
      if (c === "'") {
        flush(false);
        const end = s.indexOf("'", this.i + 1);
        if (end < 0) throw new ShellSyntaxError("unexpected EOF while looking for matching `''");
        parts.push({ kind: 'lit', text: s.slice(this.i + 1, end), quoted: true });
        this.i = end + 1;
        continue;
      }
      if (c === '"') {
        flush(false);
        this.i++;
        this.readDoubleQuoted(parts);
        continue;
      }
      if (c === '$') {
        const p = this.readDollar(false);
        if (p) {
          flush(false);
          parts.push(p);
          continue;
        }
      }
      lit += c;
      this.i++;
    }
    flush(false);
    return parts;
  }

  private readDoubleQuoted(parts: WordPart[]): void {
    const s = this.s;
    let lit = '';
    const flush = () => {
      parts.push({ kind: 'lit', text: lit, quoted: true });
      lit = '';
    };
    while (this.i < s.length) {
      const c = s[this.i] as string;
      if (c === '"') {
        this.i++;
        flush();
        return;
      }
      if (c === '\\' && /["\\$`\n]/.test(s[this.i + 1] ?? '')) {
        if (s[this.i + 1] !== '\n') lit += s[this.i + 1];
        this.i += 2;
        continue;
      }
      if (c === '$') {
        const p = this.readDollar(true);
        if (p) {
          flush();
          parts.push(p);
          continue;
        }
      }
      lit += c;
      this.i++;
    }
    throw new ShellSyntaxError('unexpected EOF while looking for matching `"\'');
  }

  private readDollar(quoted: boolean): WordPart | null {
    const s = this.s;
    const next = s[this.i + 1] ?? '';
    if (next === '(') {
      let depth = 0;
      let j = this.i + 1;
      for (; j < s.length; j++) {
        if (s[j] === '(') depth++;
        else if (s[j] === ')' && --depth === 0) break;
      }
      if (j >= s.length)
        throw new ShellSyntaxError("unexpected EOF while looking for matching `)'");
      const src = s.slice(this.i + 2, j);
      this.i = j + 1;
      return { kind: 'cmd', src, quoted };
    }
    if (next === '{') {
      const end = s.indexOf('}', this.i + 2);
      if (end < 0) throw new ShellSyntaxError("unexpected EOF while looking for matching `}'");
      const name = s.slice(this.i + 2, end);
      this.i = end + 1;
      if (!NAME.test(name) && !/^[?0-9#@*$]$/.test(name)) {
        throw new ShellSyntaxError(`\${${name}}: bad substitution`);
      }
      return { kind: 'var', name, quoted };
    }
    if (/[?#@*$0-9]/.test(next)) {
      this.i += 2;
      return { kind: 'var', name: next, quoted };
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(this.i + 1, this.i + 200));
    if (!m) return null;
    this.i += 1 + m[0].length;
    return { kind: 'var', name: m[0], quoted };
  }
}

class Parser {
  private k = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Script {
    const script: Script = [];
    for (;;) {
      while (this.peekOp(';') || this.peek()?.t === 'nl') this.k++;
      if (this.k >= this.tokens.length) return script;
      script.push(this.andOr());
      const t = this.peek();
      if (!t) return script;
      if (t.t === 'op' && t.op === '&') {
        (script[script.length - 1] as AndOrList).background = true;
        this.k++;
      } else if ((t.t === 'op' && t.op === ';') || t.t === 'nl') this.k++;
      else this.unexpected(t);
    }
  }

  private andOr(): AndOrList {
    const list: AndOrList = { first: this.pipeline(), rest: [], background: false };
    for (;;) {
      const t = this.peek();
      if (t?.t === 'op' && (t.op === '&&' || t.op === '||')) {
        this.k++;
        while (this.peek()?.t === 'nl') this.k++;
        list.rest.push({ op: t.op, pipeline: this.pipeline() });
      } else return list;
    }
  }

  private pipeline(): Pipeline {
    const commands = [this.command()];
    while (this.peekOp('|')) {
      this.k++;
      while (this.peek()?.t === 'nl') this.k++;
      commands.push(this.command());
    }
    return { commands };
  }

  private command(): SimpleCommand {
    const cmd: SimpleCommand = { assigns: [], words: [], redirects: [] };
    for (;;) {
      const t = this.peek();
      if (!t || t.t === 'nl' || t.t === 'op') break;
      this.k++;
      if (t.t === 'word') {
        const first = t.word[0];
        const m =
          first?.kind === 'lit' && !first.quoted
            ? /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(first.text)
            : null;
        if (m && cmd.words.length === 0 && first?.kind === 'lit') {
          const restText = first.text.slice(m[0].length);
          const value: Word = restText
            ? [{ kind: 'lit', text: restText, quoted: false }, ...t.word.slice(1)]
            : t.word.slice(1);
          cmd.assigns.push({ name: m[1] as string, value });
        } else cmd.words.push(t.word);
        continue;
      }
      cmd.redirects.push(this.redirect(t));
    }
    if (cmd.words.length === 0 && cmd.assigns.length === 0 && cmd.redirects.length === 0) {
      this.unexpected(this.peek());
    }
    return cmd;
  }

  private redirect(t: Extract<Token, { t: 'redir' }>): Redirect {
    if (t.op === 'dup') return { fd: t.fd as 1 | 2, op: 'dup', to: t.to as 1 | 2 };
    const w = this.peek();
    if (!w || w.t !== 'word') return this.unexpected(w);
    this.k++;
    if (t.op === '<<' || t.op === '<<-') {
      const hd = (w as { heredoc?: PendingHeredoc }).heredoc;
      return { fd: 0, op: 'heredoc', body: hd?.target.body ?? '', expand: hd?.expand ?? false };
    }
    return { fd: t.fd, op: t.op, target: w.word } as Redirect;
  }

  private peek(): Token | undefined {
    return this.tokens[this.k];
  }

  private peekOp(op: string): boolean {
    const t = this.peek();
    return t?.t === 'op' && t.op === op;
  }

  private unexpected(t: Token | undefined): never {
    const text =
      !t || t.t === 'nl' ? 'newline' : t.t === 'op' ? t.op : t.t === 'redir' ? '>' : t.raw;
    throw new ShellSyntaxError(`syntax error near unexpected token \`${text}'`);
  }
}

/** Parses one input (possibly several lines, with heredoc bodies) into a Script. */
export function parseShell(input: string): Script {
  if (input.length > MAX_INPUT) throw new ShellSyntaxError('argument list too long');
  const lexer = new Lexer(input);
  lexer.run();
  return new Parser(lexer.tokens).parse();
}
