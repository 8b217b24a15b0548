// The terminal's line discipline, as pure functions: the buffer being typed, where the cursor is,
// history, and when an entered line still needs more input (an open heredoc or a trailing `\`),
// as bash would show a `> ` continuation prompt. The xterm component only draws what this decides.

export type TLineState = { buffer: string; cursor: number };

export const EMPTY_LINE: TLineState = { buffer: '', cursor: 0 };

export function insertText(state: TLineState, text: string): TLineState {
  const buffer = state.buffer.slice(0, state.cursor) + text + state.buffer.slice(state.cursor);
  return { buffer, cursor: state.cursor + text.length };
}

export function deleteBackward(state: TLineState): TLineState {
  if (state.cursor === 0) return state;
  return {
    buffer: state.buffer.slice(0, state.cursor - 1) + state.buffer.slice(state.cursor),
    cursor: state.cursor - 1,
  };
}

export function deleteForward(state: TLineState): TLineState {
  if (state.cursor >= state.buffer.length) return state;
  return {
    buffer: state.buffer.slice(0, state.cursor) + state.buffer.slice(state.cursor + 1),
    cursor: state.cursor,
  };
}

export function moveCursor(state: TLineState, to: 'left' | 'right' | 'home' | 'end'): TLineState {
  const cursor =
    to === 'left'
      ? Math.max(0, state.cursor - 1)
      : to === 'right'
        ? Math.min(state.buffer.length, state.cursor + 1)
        : to === 'home'
          ? 0
          : state.buffer.length;
  return { buffer: state.buffer, cursor };
}

/** Ctrl-U: bash kills from the start of the line to the cursor. */
export function killToStart(state: TLineState): TLineState {
  return { buffer: state.buffer.slice(state.cursor), cursor: 0 };
}

/** Ctrl-W: the word before the cursor (and the spaces after it). */
export function killWordBackward(state: TLineState): TLineState {
  const before = state.buffer.slice(0, state.cursor);
  const kept = before.replace(/\S+\s*$/, '');
  return { buffer: kept + state.buffer.slice(state.cursor), cursor: kept.length };
}

export type THistory = { entries: string[]; index: number; draft: string };

export const EMPTY_HISTORY: THistory = { entries: [], index: 0, draft: '' };

export function pushHistory(history: THistory, command: string, limit = 500): THistory {
  const trimmed = command.trim();
  const last = history.entries[history.entries.length - 1];
  // bash's ignoredups; multi-line commands are not recalled into a one-line editor.
  const entries =
    trimmed === '' || trimmed === last || command.includes('\n')
      ? history.entries
      : [...history.entries, trimmed].slice(-limit);
  return { entries, index: entries.length, draft: '' };
}

/** Up/down arrows: the line to show and the new position; the draft is kept while browsing. */
export function browseHistory(
  history: THistory,
  direction: 'up' | 'down',
  current: string,
): { history: THistory; line: string } | null {
  const { entries, index } = history;
  if (direction === 'up') {
    if (index === 0) return null;
    const draft = index === entries.length ? current : history.draft;
    return { history: { entries, index: index - 1, draft }, line: entries[index - 1] ?? '' };
  }
  if (index >= entries.length) return null;
  const next = index + 1;
  return {
    history: { ...history, index: next },
    line: next === entries.length ? history.draft : (entries[next] ?? ''),
  };
}

/**
 * Heredoc delimiters opened on a line, in order (`<<EOF`, `<<-EOF`, `<<'EOF'`, `<< "EOF"`);
 * `<<<` is a here-string and opens nothing.
 */
export function heredocDelimiters(line: string): { word: string; stripTabs: boolean }[] {
  const found: { word: string; stripTabs: boolean }[] = [];
  const pattern = /(?<!<)<<(?!<)(-?)\s*(?:'([^']*)'|"([^"]*)"|([^\s;&|<>()]+))/g;
  for (const match of line.matchAll(pattern)) {
    found.push({ word: match[2] ?? match[3] ?? match[4] ?? '', stripTabs: match[1] === '-' });
  }
  return found.filter((d) => d.word !== '');
}

/**
 * Whether the lines typed so far form a complete command. bash reads the body of every heredoc
 * opened on a line until its delimiter stands alone on a line; a line ending in `\` continues.
 */
export function needsMoreInput(lines: readonly string[]): boolean {
  const pending: { word: string; stripTabs: boolean }[] = [];
  let continued = false;
  for (const line of lines) {
    if (pending.length > 0) {
      const head = pending[0];
      const text = head && head.stripTabs ? line.replace(/^\t+/, '') : line;
      if (head && text === head.word) pending.shift();
      continue;
    }
    pending.push(...heredocDelimiters(line));
    continued = /(^|[^\\])(\\\\)*\\$/.test(line);
  }
  return pending.length > 0 || continued;
}

/** A delimiter that does not occur as a line of `text`, for writing a file through a heredoc. */
export function pickHeredocDelimiter(text: string): string {
  const lines = new Set(text.split('\n'));
  let word = 'KJ_EOF';
  for (let n = 1; lines.has(word); n += 1) word = `KJ_EOF_${n}`;
  return word;
}

/** `cat <<'EOF' > path` with the file's text: quoted, so nothing inside is expanded. */
export function writeFileCommand(path: string, text: string): string {
  const body = text.endsWith('\n') ? text : `${text}\n`;
  const delimiter = pickHeredocDelimiter(body);
  return `cat <<'${delimiter}' > ${quoteArg(path)}\n${body}${delimiter}`;
}

/** A shell word for `value`; plain paths stay readable. */
export function quoteArg(value: string): string {
  return /^[\w@%+=:,./~-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `vi FILE` / `nano FILE` / `vim FILE`: the file to open when the API does not say so itself. */
export function editorTarget(command: string): string | null {
  const match = /^\s*(?:vi|vim|nano)\s+([^\s;&|<>]+)\s*$/.exec(command);
  return match?.[1] ?? null;
}
