'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import type { TNameSource } from '@/lib/lab-completion.util';
import { describeLabFailure, execInLab, type TOpenEditor } from '@/lib/lab-api.util';
import { editorTarget, writeFileCommand } from '@/lib/lab-line-editor.util';
import { FileEditor, type TEditorState } from './file-editor';
import { TerminalSession, type TCommandOutcome } from './terminal-session';

// The terminal (xterm.js) and its Editor tab. Commands go to POST /api/labs/:id/exec; output is
// printed exactly as returned. Anything slower than 300 ms shows a progress line.

export type TTerminalHandle = {
  type: (text: string) => void;
  submit: (command: string) => void;
};

type TProps = {
  labId: string;
  messages: TMessages['lab'];
  names: TNameSource;
  handleRef?: Ref<TTerminalHandle>;
};

const HOME_HOST = 'control-plane';
const PROGRESS_AFTER_MS = 300;
const MONO_FALLBACK = "'DejaVu Sans Mono', ui-monospace, Menlo, Consolas, monospace";

export function TerminalPanelClient({ labId, messages, names, handleRef }: TProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const sessionRef = useRef<TerminalSession | null>(null);
  const namesRef = useRef(names);
  const messagesRef = useRef(messages);
  const promptRef = useRef<string | null>(null);
  const [tab, setTab] = useState<'terminal' | 'editor'>('terminal');
  const [busySince, setBusySince] = useState<number | null>(null);
  const [now, setNow] = useState(0);
  const [transcript, setTranscript] = useState('');
  const [editor, setEditor] = useState<TEditorState>({ kind: 'closed' });
  const openEditorRef = useRef<(target: TOpenEditor) => void>(() => undefined);

  useEffect(() => {
    namesRef.current = names;
    messagesRef.current = messages;
  });

  useImperativeHandle(handleRef, () => ({
    type: (text) => {
      setTab('terminal');
      sessionRef.current?.type(text);
    },
    submit: (command) => {
      setTab('terminal');
      sessionRef.current?.submit(command);
    },
  }));

  /** exec without echo, for the editor's own reads and writes */
  const execQuietly = async (command: string) => {
    const result = await execInLab(labId, command);
    if (!result.ok)
      return { ok: false as const, message: describeLabFailure(result.error, messagesRef.current) };
    return { ok: true as const, ...result.data };
  };

  openEditorRef.current = (target: TOpenEditor) => {
    setTab('editor');
    setEditor({ kind: 'loading', path: target.path });
    void execQuietly(`cat ${target.path.replace(/'/g, '')}`).then((read) => {
      // A new file reads as empty, as in vi.
      const text = read.ok && read.exitCode === 0 ? read.stdout : '';
      setEditor({
        kind: 'open',
        path: target.path,
        text,
        ...(target.afterSave ? { afterSave: target.afterSave } : {}),
        status: 'idle',
      });
    });
  };

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const term = new Terminal({
      cursorBlink: !window.matchMedia('(prefers-reduced-motion: reduce)').matches,
      convertEol: true,
      fontFamily: MONO_FALLBACK,
      fontSize: 13,
      lineHeight: 1.15,
      scrollback: 5000,
      theme: { background: '#0c0a09', foreground: '#e7e5e4', cursor: '#fafaf9' },
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(container);
    term.textarea?.setAttribute('aria-label', messagesRef.current.terminalLabel);

    const run = async (command: string, signal: AbortSignal): Promise<TCommandOutcome> => {
      const result = await execInLab(labId, command, signal);
      const texts = messagesRef.current;
      if (signal.aborted) return { kind: 'cancelled', message: texts.commandCancelled };
      if (!result.ok) {
        return {
          kind: 'failed',
          message: formatMessage(texts.commandFailed, {
            reason: describeLabFailure(result.error, texts),
          }),
        };
      }
      const data = result.data;
      // The prompt follows the lab's shell, which the API keeps between commands (`ssh node-1`).
      promptRef.current = data.prompt ?? null;
      const file =
        data.openEditor ??
        (() => {
          const path = editorTarget(command);
          return path ? { path, host: HOME_HOST } : undefined;
        })();
      if (file && data.exitCode === 0) openEditorRef.current(file);
      return { kind: 'done', stdout: data.stdout, stderr: data.stderr, prompt: '' };
    };

    const session = new TerminalSession(term, {
      run,
      prompt: () => promptRef.current ?? `root@${HOME_HOST}:~# `,
      names: () => namesRef.current,
      onBusy: (isBusy) => setBusySince(isBusy ? Date.now() : null),
      onTranscript: (text) => setTranscript(text.slice(-4000)),
    });
    sessionRef.current = session;

    // xterm measures one cell with its font: give it next/font's real family name (a CSS variable
    // is not a font name), once the font has loaded, then measure again.
    void document.fonts.ready.then(() => {
      const geist = getComputedStyle(document.documentElement)
        .getPropertyValue('--font-geist-mono')
        .trim();
      if (geist && sessionRef.current === session) {
        term.options.fontFamily = `${geist}, ${MONO_FALLBACK}`;
        resize();
      }
    });
    const resize = () => {
      if (container.clientWidth === 0 || container.clientHeight === 0) return;
      fit.fit();
      session.redraw();
    };
    const observer = new ResizeObserver(resize);
    observer.observe(container);
    resize();
    return () => {
      observer.disconnect();
      sessionRef.current = null;
      term.dispose();
    };
  }, [labId]);

  useEffect(() => {
    if (busySince === null) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [busySince]);

  const saveEditor = async () => {
    if (editor.kind !== 'open') return;
    const { path, text, afterSave } = editor;
    setEditor({ ...editor, status: 'saving' });
    const result = await execQuietly(writeFileCommand(path, text));
    if (!result.ok || result.exitCode !== 0) {
      const reason = result.ok ? result.stderr.trim() || `exit ${result.exitCode}` : result.message;
      setEditor({
        ...editor,
        status: 'error',
        error: formatMessage(messages.editorSaveFailed, { path, reason }),
      });
      return;
    }
    setEditor({ ...editor, status: 'saved' });
    if (afterSave) {
      setTab('terminal');
      sessionRef.current?.submit(afterSave);
    }
  };

  const elapsed = busySince === null ? 0 : Math.max(0, now - busySince);
  const tabClass = (isActive: boolean) =>
    `rounded-t-md px-3 py-1.5 text-sm font-medium ${
      isActive ? 'bg-stone-950 text-white' : 'text-stone-300 hover:text-white'
    }`;

  return (
    <section
      aria-label={messages.terminalTitle}
      className="flex h-full min-h-0 flex-col overflow-hidden rounded-xl bg-stone-800"
    >
      <div
        role="tablist"
        aria-label={messages.terminalTitle}
        className="flex items-end gap-1 px-2 pt-1.5"
      >
        <button
          type="button"
          role="tab"
          id="lab-tab-terminal"
          aria-selected={tab === 'terminal'}
          aria-controls="lab-panel-terminal"
          className={tabClass(tab === 'terminal')}
          onClick={() => setTab('terminal')}
        >
          {messages.terminalTitle}
        </button>
        <button
          type="button"
          role="tab"
          id="lab-tab-editor"
          aria-selected={tab === 'editor'}
          aria-controls="lab-panel-editor"
          className={tabClass(tab === 'editor')}
          onClick={() => setTab('editor')}
        >
          {messages.editorTab}
          {editor.kind !== 'closed' && (
            <span className="ml-1 font-mono text-xs">
              ·{' '}
              {editor.kind === 'open' || editor.kind === 'loading'
                ? editor.path.split('/').pop()
                : ''}
            </span>
          )}
        </button>
        <p
          role="status"
          data-testid="terminal-progress"
          className="ml-auto pb-1 text-xs text-amber-200"
        >
          {busySince !== null && elapsed > PROGRESS_AFTER_MS && (
            <span className="inline-flex items-center gap-1.5">
              <span
                aria-hidden="true"
                className="size-2 animate-pulse rounded-full bg-amber-300 motion-reduce:animate-none"
              />
              {formatMessage(messages.running, { seconds: (elapsed / 1000).toFixed(1) })}
            </span>
          )}
        </p>
      </div>
      <div
        role="tabpanel"
        id="lab-panel-terminal"
        aria-labelledby="lab-tab-terminal"
        hidden={tab !== 'terminal'}
        className="min-h-0 flex-1 bg-stone-950 p-2"
      >
        <div ref={containerRef} data-testid="terminal" className="h-full w-full" />
      </div>
      <div
        role="tabpanel"
        id="lab-panel-editor"
        aria-labelledby="lab-tab-editor"
        hidden={tab !== 'editor'}
        className="min-h-0 flex-1 overflow-y-auto bg-stone-950"
      >
        <FileEditor
          state={editor}
          messages={messages}
          onChange={(text) =>
            editor.kind === 'open' && setEditor({ ...editor, text, status: 'idle' })
          }
          onSave={() => void saveEditor()}
          onClose={() => {
            setEditor({ kind: 'closed' });
            setTab('terminal');
          }}
        />
      </div>
      <div role="log" aria-live="polite" data-testid="terminal-log" className="sr-only">
        {transcript}
      </div>
    </section>
  );
}
