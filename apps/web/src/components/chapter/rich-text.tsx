import type { TRichText } from '@kubejourney/content';

/** A line of chapter text: `code` runs in monospace, everything else as plain words. */
export function RichText({ runs }: { runs: TRichText }) {
  return (
    <>
      {runs.map((run, i) =>
        run.kind === 'code' ? (
          <code
            key={i}
            className="rounded bg-stone-100 px-1 py-0.5 font-mono text-[0.9em] text-stone-900"
          >
            {run.text}
          </code>
        ) : (
          <span key={i}>{run.text}</span>
        ),
      )}
    </>
  );
}
