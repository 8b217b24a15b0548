import type { Terminal } from '@xterm/xterm';
import { completeLine, type TNameSource } from '@/lib/lab-completion.util';
import {
  browseHistory,
  deleteBackward,
  deleteForward,
  EMPTY_HISTORY,
  EMPTY_LINE,
  insertText,
  killToStart,
  killWordBackward,
  moveCursor,
  needsMoreInput,
  pushHistory,
  type THistory,
  type TLineState,
} from '@/lib/lab-line-editor.util';

// The shell side of the xterm: reads keys, edits the line, draws the prompt, sends complete
// commands (heredocs included) to the lab and prints exactly what came back. Imperative on
// purpose: xterm is, and React state per keystroke would only slow typing down.

export type TCommandOutcome =
  | { kind: 'done'; stdout: string; stderr: string; prompt: string }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled'; message: string };

export type TSessionHooks = {
  run: (command: string, signal: AbortSignal) => Promise<TCommandOutcome>;
  prompt: () => string;
  names: () => TNameSource;
  onBusy: (isBusy: boolean) => void;
  /** the last command and its output, for the screen-reader log */
  onTranscript: (text: string) => void;
};

const CONTINUATION = '> ';

export class TerminalSession {
  private line: TLineState = EMPTY_LINE;
  private history: THistory = EMPTY_HISTORY;
  /** earlier lines of a command that needs more input (heredoc body, trailing `\`) */
  private pending: string[] = [];
  private drawnCursor = 0;
  private queue: string[] = [];
  private running: AbortController | null = null;

  constructor(
    private readonly term: Terminal,
    private readonly hooks: TSessionHooks,
  ) {
    term.onData((data) => this.receive(data));
    this.showPrompt();
  }

  /**
   * Puts a command at the prompt as if typed, without running it (a lesson's command lines). A
   * half-typed line is replaced first (Ctrl-E, Ctrl-U), so a click never glues two commands.
   */
  type(text: string): void {
    this.receive(`\x05\x15${text}`);
    this.term.focus();
  }

  /** Runs a command as if typed and entered, e.g. writing a file through a heredoc. */
  submit(command: string): void {
    this.receive(`${command}\r`);
  }

  /** Re-draws the line after a resize; a wrapped line is measured in the new columns. */
  redraw(): void {
    if (!this.running) this.draw();
  }

  private currentPrompt(): string {
    return this.pending.length > 0 ? CONTINUATION : this.hooks.prompt();
  }

  private showPrompt(): void {
    this.line = EMPTY_LINE;
    this.drawnCursor = 0;
    this.term.write(this.currentPrompt());
  }

  /** Redraws prompt + buffer in place, handling lines that wrap over several rows. */
  private draw(): void {
    const cols = Math.max(1, this.term.cols);
    const prompt = this.currentPrompt();
    const up = Math.floor((prompt.length + this.drawnCursor) / cols);
    let out = up > 0 ? `\x1b[${up}A` : '';
    out += `\r\x1b[J${prompt}${this.line.buffer}`;
    const end = prompt.length + this.line.buffer.length;
    // A row filled exactly leaves xterm waiting to wrap; step onto the next row explicitly.
    if (end > 0 && end % cols === 0) out += ' \b';
    const target = prompt.length + this.line.cursor;
    const rowsBack = Math.floor(end / cols) - Math.floor(target / cols);
    if (rowsBack > 0) out += `\x1b[${rowsBack}A`;
    out += `\x1b[${(target % cols) + 1}G`;
    this.term.write(out);
    this.drawnCursor = this.line.cursor;
  }

  private setLine(line: TLineState): void {
    this.line = line;
    this.draw();
  }

  private receive(data: string): void {
    for (const token of tokenize(data)) this.queue.push(token);
    this.pump();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const token = this.queue[0] as string;
      if (this.running) {
        // Ctrl-C stops waiting; anything else is typed ahead, as in a real terminal.
        if (token === '\x03') {
          this.queue.shift();
          this.running.abort();
        }
        return;
      }
      this.queue.shift();
      this.handle(token);
    }
  }

  private handle(token: string): void {
    switch (token) {
      case '\r':
      case '\n':
        return this.enter();
      case '\x7f':
      case '\b':
        return this.setLine(deleteBackward(this.line));
      case '\x1b[3~':
        return this.setLine(deleteForward(this.line));
      case '\x1b[D':
      case '\x02':
        return this.setLine(moveCursor(this.line, 'left'));
      case '\x1b[C':
      case '\x06':
        return this.setLine(moveCursor(this.line, 'right'));
      case '\x1b[H':
      case '\x1bOH':
      case '\x01':
        return this.setLine(moveCursor(this.line, 'home'));
      case '\x1b[F':
      case '\x1bOF':
      case '\x05':
        return this.setLine(moveCursor(this.line, 'end'));
      case '\x15':
        return this.setLine(killToStart(this.line));
      case '\x17':
        return this.setLine(killWordBackward(this.line));
      case '\x1b[A':
      case '\x1b[B':
      case '\x10':
      case '\x0e':
        return this.browse(token === '\x1b[A' || token === '\x10' ? 'up' : 'down');
      case '\x03':
        return this.interrupt();
      case '\x0c':
        this.term.clear();
        return this.draw();
      case '\t':
        return this.complete();
      default:
        // Other escape sequences and control characters are ignored, like readline's unbound keys.
        if (token.startsWith('\x1b') || (token.length === 1 && token < ' ')) return;
        return this.setLine(insertText(this.line, token));
    }
  }

  private browse(direction: 'up' | 'down'): void {
    if (this.pending.length > 0) return;
    const next = browseHistory(this.history, direction, this.line.buffer);
    if (!next) return;
    this.history = next.history;
    this.setLine({ buffer: next.line, cursor: next.line.length });
  }

  private interrupt(): void {
    this.setLine(moveCursor(this.line, 'end'));
    this.term.write('^C\r\n');
    this.pending = [];
    this.showPrompt();
  }

  private complete(): void {
    if (this.pending.length > 0) return this.setLine(insertText(this.line, '\t'));
    const result = completeLine(this.line.buffer, this.line.cursor, this.hooks.names());
    if (result.candidates.length > 0) {
      this.setLine(moveCursor(this.line, 'end'));
      this.term.write(`\r\n${result.candidates.join('  ')}\r\n`);
      this.drawnCursor = 0;
      this.term.write(this.currentPrompt());
    }
    this.setLine({ buffer: result.line, cursor: result.cursor });
  }

  private enter(): void {
    this.setLine(moveCursor(this.line, 'end'));
    this.term.write('\r\n');
    this.pending.push(this.line.buffer);
    if (needsMoreInput(this.pending)) {
      this.showPrompt();
      return;
    }
    const command = this.pending.join('\n');
    this.pending = [];
    this.history = pushHistory(this.history, command);
    if (command.trim() === '') return this.showPrompt();
    if (command.trim() === 'clear') {
      this.term.clear();
      this.term.write('\x1b[2K\r');
      return this.showPrompt();
    }
    void this.execute(command);
  }

  private async execute(command: string): Promise<void> {
    const controller = new AbortController();
    this.running = controller;
    this.hooks.onBusy(true);
    const outcome = await this.hooks.run(command, controller.signal);
    this.running = null;
    this.hooks.onBusy(false);
    let printed = '';
    if (outcome.kind === 'done') {
      // Exactly what the lab printed: stdout, then stderr, no colours added.
      printed = outcome.stdout + outcome.stderr;
    } else {
      printed = `${outcome.kind === 'cancelled' ? '^C\n' : ''}${outcome.message}\n`;
    }
    this.term.write(printed);
    this.hooks.onTranscript(`${command}\n${printed}`);
    this.showPrompt();
    this.pump();
  }
}

/** Splits xterm input into keys: escape sequences stay whole, pasted text is split at newlines. */
export function tokenize(data: string): string[] {
  const tokens: string[] = [];
  let text = '';
  const flushText = () => {
    if (text) tokens.push(text);
    text = '';
  };
  for (let i = 0; i < data.length; i += 1) {
    const ch = data[i] as string;
    if (ch === '\x1b') {
      flushText();
      // eslint-disable-next-line no-control-regex -- xterm input is escape sequences
      const match = /^\x1b(?:\[[0-9;?]*[A-Za-z~]|O[A-Za-z]|.)?/.exec(data.slice(i));
      const sequence = match?.[0] ?? ch;
      tokens.push(sequence);
      i += sequence.length - 1;
    } else if (ch < ' ' || ch === '\x7f') {
      flushText();
      // A pasted CRLF is one Enter.
      if (ch === '\n' && data[i - 1] === '\r') continue;
      tokens.push(ch);
    } else {
      text += ch;
    }
  }
  flushText();
  return tokens;
}
