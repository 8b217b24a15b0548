import { isTypeableCommand, splitInlineCode } from '@/lib/lab-exercise.util';
import { TypeInlineCommandClient } from './type-inline-command-client';

type TProps = {
  text: string;
  /** inside the lab: command lines become buttons that type them at the prompt */
  typeLabel?: string;
};

/** A sentence whose `backticked` parts are commands or names, shown in monospace. */
export function InlineCodeText({ text, typeLabel }: TProps) {
  return (
    <>
      {splitInlineCode(text).map((segment, index) => {
        if (segment.kind === 'text') return <span key={index}>{segment.value}</span>;
        if (typeLabel && isTypeableCommand(segment.value)) {
          return <TypeInlineCommandClient key={index} command={segment.value} label={typeLabel} />;
        }
        return (
          <code
            key={index}
            className="rounded bg-stone-200/70 px-1 py-px font-mono text-[0.85em] break-words text-stone-900"
          >
            {segment.value}
          </code>
        );
      })}
    </>
  );
}
