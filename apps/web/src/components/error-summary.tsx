import { forwardRef } from 'react';

type TProps = {
  title: string;
  summary: string;
  /** field errors in form order: each links to its input */
  items: { field: string; text: string; isLinked: boolean }[];
  children?: React.ReactNode;
};

/**
 * The box at the top of a form that says what went wrong. It receives focus when it appears, so
 * keyboard and screen-reader users land on it; each field error links to its input.
 */
export const ErrorSummary = forwardRef<HTMLDivElement, TProps>(function ErrorSummary(
  { title, summary, items, children },
  ref,
) {
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby="error-summary-title"
      className="rounded-xl border-2 border-red-600 bg-red-50 p-4 outline-none focus-visible:ring-4 focus-visible:ring-red-200"
    >
      <h2 id="error-summary-title" className="font-semibold text-red-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-red-900">{summary}</p>
      {items.length > 0 && (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
          {items.map((item) => (
            <li key={item.field}>
              {item.isLinked ? (
                <a
                  href={`#${item.field}`}
                  className="font-medium text-red-800 underline underline-offset-2 hover:text-red-950"
                >
                  {item.text}
                </a>
              ) : (
                <span className="text-red-900">{item.text}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {children}
    </div>
  );
});
