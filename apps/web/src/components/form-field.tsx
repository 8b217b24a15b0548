import type { InputHTMLAttributes } from 'react';

type TProps = {
  name: string;
  label: string;
  hint?: string;
  error?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'>;

/**
 * A labelled input whose hint and error are tied to it with aria-describedby, so a screen reader
 * reads them when the field gets focus. The input's id is its name, which the error summary links to.
 */
export function FormField({ name, label, hint, error, className, ...input }: TProps) {
  const hintId = hint ? `${name}-hint` : undefined;
  const errorId = error ? `${name}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={name} className="block text-sm font-semibold text-stone-900">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-stone-600">
          {hint}
        </p>
      )}
      {error && (
        <p
          id={errorId}
          className="mt-1.5 flex items-start gap-1.5 text-sm font-medium text-red-700"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="mt-0.5 size-4 shrink-0 fill-current"
          >
            <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm-.75 4.5a.75.75 0 0 1 1.5 0v4a.75.75 0 0 1-1.5 0v-4ZM10 14.75a1 1 0 1 1 0-2 1 1 0 0 1 0 2Z" />
          </svg>
          <span>{error}</span>
        </p>
      )}
      <input
        id={name}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`mt-2 block w-full rounded-lg bg-white px-3.5 py-2.5 text-base text-stone-900 shadow-xs ring-1 transition-shadow outline-none ring-inset placeholder:text-stone-400 focus-visible:ring-2 focus-visible:outline-none ${
          error
            ? 'ring-2 ring-red-600 focus-visible:ring-red-700'
            : 'ring-stone-300 focus-visible:ring-blue-600'
        }`}
        {...input}
      />
    </div>
  );
}
