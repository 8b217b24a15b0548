'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import { useId } from 'react';

// The editor tab: a plain, accessible textarea. `vi FILE` / `nano FILE` / `kubectl edit` open it;
// saving writes the file back into the lab (see terminal-panel-client.tsx).

export type TEditorState =
  | { kind: 'closed' }
  | { kind: 'loading'; path: string }
  | {
      kind: 'open';
      path: string;
      text: string;
      afterSave?: string;
      status: 'idle' | 'saving' | 'saved' | 'error';
      error?: string;
    };

type TProps = {
  state: TEditorState;
  messages: TMessages['lab'];
  onChange: (text: string) => void;
  onSave: () => void;
  onClose: () => void;
};

export function FileEditor({ state, messages, onChange, onSave, onClose }: TProps) {
  const id = useId();
  if (state.kind === 'closed') {
    return <p className="p-4 text-sm text-stone-300">{messages.editorEmpty}</p>;
  }
  if (state.kind === 'loading') {
    return (
      <p role="status" className="p-4 text-sm text-stone-300">
        {formatMessage(messages.editorLoading, { path: state.path })}
      </p>
    );
  }
  const isSaving = state.status === 'saving';
  return (
    <form
      className="flex h-full min-h-40 flex-col gap-1.5 p-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <label htmlFor={id} className="font-mono text-xs text-stone-300">
        {formatMessage(messages.editorLabel, { path: state.path })}
      </label>
      <textarea
        id={id}
        value={state.text}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
            event.preventDefault();
            onSave();
          }
        }}
        className="min-h-0 flex-1 resize-none rounded-md border border-stone-600 bg-stone-900 p-2 font-mono text-[13px] leading-5 text-stone-100 focus-visible:outline-blue-400"
      />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="submit"
          disabled={isSaving}
          className="rounded-md bg-stone-100 px-3 py-1 text-sm font-semibold text-stone-900 hover:bg-white disabled:opacity-60"
        >
          {isSaving ? messages.editorSaving : messages.editorSave}
        </button>
        <button
          type="button"
          onClick={onClose}
          className="rounded-md px-3 py-1 text-sm text-stone-200 ring-1 ring-stone-500 hover:bg-stone-800"
        >
          {messages.editorClose}
        </button>
        <p role="status" className="text-sm text-stone-200">
          {state.status === 'saved' && formatMessage(messages.editorSaved, { path: state.path })}
          {state.status === 'error' && (
            <span className="font-semibold text-red-300">{state.error}</span>
          )}
        </p>
      </div>
    </form>
  );
}
