// The lab shell: runs a parsed Script against a registry of commands. Pipes pass stdout along,
// stderr is collected in order, `&&`/`||` look at exit codes, redirections write to the host's
// filesystem. It never throws: anything unexpected becomes a bash-style error.

import type { CommandContext, CommandFn, CommandResult } from './command-types';
import type { Redirect, Script, SimpleCommand, Word } from './shell-ast';
import { ShellSyntaxError } from './shell-ast';
import { parseShell } from './shell-parser';
import type { FileSystem } from './vfs';
import { normalizePath } from './vfs';

/** Output larger than this is cut, so a runaway pipeline cannot exhaust memory. */
const MAX_OUTPUT = 4_000_000;
const MAX_DEPTH = 8;

export interface ShellSession {
  host: string;
  user: string;
  cwd: string;
  home: string;
  fs: FileSystem;
}

export interface ShellOptions {
  commands: Record<string, CommandFn>;
  session: ShellSession;
  env?: Record<string, string>;
  /** called when a command is not in the registry (lets the terminal add host-specific ones) */
  lookup?: (name: string, session: ShellSession) => CommandFn | undefined;
}

export interface ExecResult extends CommandResult {
  prompt: string;
}

export class Shell {
  readonly env: Record<string, string>;
  readonly history: string[] = [];
  /** ssh hops: the bottom is the machine the learner starts on */
  readonly sessions: ShellSession[];
  private lastExit = 0;
  private depth = 0;
  private jobs = 0;

  constructor(private readonly opts: ShellOptions) {
    this.sessions = [opts.session];
    this.env = {
      HOME: opts.session.home,
      USER: opts.session.user,
      SHELL: '/bin/bash',
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      ...(opts.env ?? {}),
    };
  }

  /** `$?`: the exit code of the last command (kept across saved terminal states) */
  get lastExitCode(): number {
    return this.lastExit;
  }

  set lastExitCode(code: number) {
    this.lastExit = code;
  }

  get session(): ShellSession {
    return this.sessions[this.sessions.length - 1] as ShellSession;
  }

  prompt(): string {
    const s = this.session;
    const dir =
      s.cwd === s.home
        ? '~'
        : s.cwd.startsWith(`${s.home}/`)
          ? `~${s.cwd.slice(s.home.length)}`
          : s.cwd;
    return `${s.user}@${s.host}:${dir}${s.user === 'root' ? '#' : '$'} `;
  }

  /** Runs one input (one line, or several with heredoc bodies). */
  exec(input: string): ExecResult {
    if (this.depth === 0 && input.trim() !== '') this.history.push(input);
    let result: CommandResult;
    try {
      result = this.run(parseShell(input));
    } catch (e) {
      result =
        e instanceof ShellSyntaxError
          ? { stdout: '', stderr: `bash: ${e.message}\n`, exitCode: 2 }
          : {
              stdout: '',
              stderr: `bash: internal error: ${e instanceof Error ? e.message : String(e)}\n`,
              exitCode: 1,
            };
    }
    this.lastExit = result.exitCode;
    return {
      ...result,
      stdout: cap(result.stdout),
      stderr: cap(result.stderr),
      prompt: this.prompt(),
    };
  }

  private run(script: Script): CommandResult {
    const acc: CommandResult = { stdout: '', stderr: '', exitCode: 0 };
    for (const list of script) {
      let r = this.pipeline(list.first.commands, list.background);
      merge(acc, r);
      for (const { op, pipeline } of list.rest) {
        if ((op === '&&') !== (r.exitCode === 0)) continue;
        r = this.pipeline(pipeline.commands, list.background);
        merge(acc, r);
      }
      acc.exitCode = r.exitCode;
      this.lastExit = r.exitCode;
      if (list.background) {
        this.jobs++;
        acc.stdout = `[${this.jobs}] ${4200 + this.jobs}\n${acc.stdout}`;
        acc.exitCode = 0;
      }
    }
    return acc;
  }

  private pipeline(commands: SimpleCommand[], background: boolean): CommandResult {
    let stdin = '';
    const out: CommandResult = { stdout: '', stderr: '', exitCode: 0 };
    for (let i = 0; i < commands.length; i++) {
      const r = this.simple(commands[i] as SimpleCommand, stdin, background);
      out.stderr += r.stderr;
      out.exitCode = r.exitCode;
      if (r.openEditor) out.openEditor = r.openEditor;
      if (r.clear) out.clear = true;
      stdin = r.stdout;
      if (i === commands.length - 1) out.stdout = r.stdout;
    }
    return out;
  }

  private simple(cmd: SimpleCommand, stdin: string, background: boolean): CommandResult {
    const assigns: Record<string, string> = {};
    for (const a of cmd.assigns) assigns[a.name] = this.expandWord(a.value).join(' ');
    const args: string[] = [];
    for (const w of cmd.words) args.push(...this.expandWord(w));
    let input = stdin;
    for (const r of cmd.redirects) {
      if (r.op === 'heredoc') input = r.expand ? this.expandText(r.body) : r.body;
      else if (r.op === '<') {
        const name = this.expandWord(r.target).join(' ');
        const text =
          this.resolve(name) === '/dev/null' ? '' : this.session.fs.read(this.resolve(name));
        if (text === undefined)
          return { stdout: '', stderr: `bash: ${name}: No such file or directory\n`, exitCode: 1 };
        input = text;
      }
    }
    if (args.length === 0) {
      Object.assign(this.env, assigns);
      return this.applyRedirects(cmd.redirects, { stdout: '', stderr: '', exitCode: 0 });
    }
    const name = args[0] as string;
    const result = this.invoke(name, args.slice(1), input, { ...this.env, ...assigns }, background);
    return this.applyRedirects(cmd.redirects, result);
  }

  private invoke(
    name: string,
    args: string[],
    stdin: string,
    env: Record<string, string>,
    background: boolean,
  ): CommandResult {
    const builtin = this.builtin(name, args);
    if (builtin) return builtin;
    const fn = this.opts.commands[name] ?? this.opts.lookup?.(name, this.session);
    if (!fn) {
      if (name.includes('/')) {
        const p = this.resolve(name);
        return {
          stdout: '',
          stderr: this.session.fs.exists(p)
            ? `bash: ${name}: Permission denied\n`
            : `bash: ${name}: No such file or directory\n`,
          exitCode: this.session.fs.exists(p) ? 126 : 127,
        };
      }
      return {
        stdout: '',
        stderr: `${name}: command not found\n`.replace(/^/, 'bash: '),
        exitCode: 127,
      };
    }
    const session = this.session;
    const ctx: CommandContext = {
      args,
      stdin,
      env: background ? { ...env, __BACKGROUND: '1' } : env,
      fs: session.fs,
      cwd: session.cwd,
      home: session.home,
      host: session.host,
      resolve: (p) => normalizePath(p, session.cwd, session.home),
    };
    try {
      return fn(ctx);
    } catch (e) {
      return {
        stdout: '',
        stderr: `${name}: ${e instanceof Error ? e.message : String(e)}\n`,
        exitCode: 1,
      };
    }
  }

  private builtin(name: string, args: string[]): CommandResult | undefined {
    const s = this.session;
    switch (name) {
      case 'cd': {
        const target =
          args[0] === undefined || args[0] === '~'
            ? s.home
            : args[0] === '-'
              ? (this.env.OLDPWD ?? s.cwd)
              : args[0];
        const p = this.resolve(target);
        if (!s.fs.isDir(p)) {
          const msg = s.fs.exists(p) ? 'Not a directory' : 'No such file or directory';
          return { stdout: '', stderr: `bash: cd: ${args[0]}: ${msg}\n`, exitCode: 1 };
        }
        this.env.OLDPWD = s.cwd;
        s.cwd = p;
        this.env.PWD = p;
        return { stdout: '', stderr: '', exitCode: 0 };
      }
      case 'pwd':
        return { stdout: `${s.cwd}\n`, stderr: '', exitCode: 0 };
      case 'export':
      case 'unset': {
        for (const a of args) {
          const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:=(.*))?$/s.exec(a);
          if (!m)
            return {
              stdout: '',
              stderr: `bash: ${name}: \`${a}': not a valid identifier\n`,
              exitCode: 1,
            };
          if (name === 'unset') delete this.env[m[1] as string];
          else if (m[2] !== undefined) this.env[m[1] as string] = m[2];
        }
        return { stdout: '', stderr: '', exitCode: 0 };
      }
      case 'history': {
        const out = this.history
          .map((h, i) => `${String(i + 1).padStart(5)}  ${h.split('\n')[0]}`)
          .join('\n');
        return { stdout: out ? `${out}\n` : '', stderr: '', exitCode: 0 };
      }
      case 'clear':
        return { stdout: '', stderr: '', exitCode: 0, clear: true };
      case 'exit':
      case 'logout': {
        if (this.sessions.length > 1) {
          const left = this.sessions.pop() as ShellSession;
          return {
            stdout: `logout\nConnection to ${left.host} closed.\n`,
            stderr: '',
            exitCode: 0,
          };
        }
        return {
          stdout: '',
          stderr: 'logout\nbash: exit: this lab shell stays open (close the tab to leave)\n',
          exitCode: 1,
        };
      }
      case 'env':
        if (args.length === 0) {
          const out = Object.keys(this.env)
            .filter((k) => !k.startsWith('__'))
            .sort()
            .map((k) => `${k}=${this.env[k]}`)
            .join('\n');
          return { stdout: `${out}\n`, stderr: '', exitCode: 0 };
        }
        return undefined;
      default:
        return undefined;
    }
  }

  /** ssh: push a session (the node command calls this). */
  enter(session: ShellSession): void {
    this.sessions.push(session);
  }

  private applyRedirects(redirects: Redirect[], r: CommandResult): CommandResult {
    let { stdout, stderr } = r;
    for (const rd of redirects) {
      if (rd.op === 'dup') {
        if (rd.fd === 2 && rd.to === 1) {
          stdout += stderr;
          stderr = '';
        } else if (rd.fd === 1 && rd.to === 2) {
          stderr += stdout;
          stdout = '';
        }
        continue;
      }
      if (rd.op !== '>' && rd.op !== '>>') continue;
      const name = this.expandWord(rd.target).join(' ');
      const p = this.resolve(name);
      if (p === '/dev/null') {
        if (rd.fd === 2) stderr = '';
        else stdout = '';
        continue;
      }
      if (this.session.fs.isDir(p))
        return { ...r, stdout: '', stderr: `bash: ${name}: Is a directory\n`, exitCode: 1 };
      const parent = p.slice(0, p.lastIndexOf('/')) || '/';
      if (!this.session.fs.isDir(parent))
        return {
          ...r,
          stdout: '',
          stderr: `bash: ${name}: No such file or directory\n`,
          exitCode: 1,
        };
      const data = rd.fd === 2 ? stderr : stdout;
      const prev = rd.op === '>>' ? (this.session.fs.read(p) ?? '') : '';
      this.session.fs.write(p, prev + data);
      if (rd.fd === 2) stderr = '';
      else stdout = '';
    }
    return { ...r, stdout, stderr };
  }

  resolve(p: string): string {
    return normalizePath(p, this.session.cwd, this.session.home);
  }

  /** Expands one word into fields (unquoted $VAR / $(cmd) results split on whitespace). */
  expandWord(word: Word): string[] {
    const fields: string[] = [];
    let cur = '';
    let hasContent = false;
    for (const part of word) {
      if (part.kind === 'lit') {
        cur += part.text;
        hasContent = true;
        continue;
      }
      const value = part.kind === 'var' ? this.variable(part.name) : this.substitute(part.src);
      if (part.quoted) {
        cur += value;
        hasContent = true;
        continue;
      }
      const pieces = value.split(/[ \t\n]+/);
      for (let i = 0; i < pieces.length; i++) {
        if (i > 0) {
          if (hasContent || cur !== '') fields.push(cur);
          cur = '';
          hasContent = false;
        }
        cur += pieces[i];
        if (pieces[i] !== '') hasContent = true;
      }
    }
    if (hasContent || cur !== '' || word.some((p) => p.kind === 'lit' && p.quoted))
      fields.push(cur);
    return fields;
  }

  private expandText(text: string): string {
    return text.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*|\?)|\$\(([^)]*)\)/g,
      (_m, a: string, b: string, c: string) =>
        c !== undefined ? this.substitute(c) : this.variable(a ?? b),
    );
  }

  private variable(name: string): string {
    if (name === '?') return String(this.lastExit);
    if (name === '$') return '4242';
    if (name === '0') return 'bash';
    if (name === '#') return '0';
    return this.env[name] ?? '';
  }

  private substitute(src: string): string {
    if (this.depth >= MAX_DEPTH) return '';
    this.depth++;
    try {
      const r = this.run(parseShell(src));
      return r.stdout.replace(/\n+$/, '');
    } catch {
      return '';
    } finally {
      this.depth--;
    }
  }
}

function merge(acc: CommandResult, r: CommandResult): void {
  acc.stdout += r.stdout;
  acc.stderr += r.stderr;
  if (r.openEditor) acc.openEditor = r.openEditor;
  if (r.clear) {
    acc.clear = true;
    acc.stdout = '';
  }
  if (acc.stdout.length > MAX_OUTPUT) acc.stdout = cap(acc.stdout);
}

function cap(s: string): string {
  return s.length > MAX_OUTPUT ? s.slice(0, MAX_OUTPUT) : s;
}
