import { splitInlineCode } from '@/lib/lab-exercise.util';

/** A sentence whose `backticked` parts are commands or names, shown in monospace. */
export function InlineCodeText({ text }: { text: string }) {
  return (
    <>
      {splitInlineCode(text).map((segment, index) =>
        segment.kind === 'code' ? (
          <code
            key={index}
            className="rounded bg-stone-200/70 px-1 py-px font-mono text-[0.85em] break-words text-stone-900"
          >
            {segment.value}
          </code>
        ) : (
          <span key={index}>{segment.value}</span>
        ),
      )}
    </>
  );
}
