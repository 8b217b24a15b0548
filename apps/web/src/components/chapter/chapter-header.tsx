import type { ReactNode } from 'react';
import type { TColourClasses } from '@/lib/colour-classes.util';

type TProps = {
  kicker: string;
  /** the component's name in its colour chip; stations only */
  component?: string;
  title: string;
  lede: string;
  colours: TColourClasses;
  /** h1 on the chapter page, h2 inside the lab view */
  level: 1 | 2;
  children?: ReactNode;
};

/** A chapter's title block: where it sits on the line, the component's colour, the lede. */
export function ChapterHeader({
  kicker,
  component,
  title,
  lede,
  colours,
  level,
  children,
}: TProps) {
  const Heading = level === 1 ? 'h1' : 'h2';
  const isPage = level === 1;
  return (
    <header className={`relative ${isPage ? 'pl-5' : 'pl-4'}`}>
      <span
        aria-hidden="true"
        className={`absolute inset-y-0 left-0 rounded-full ${isPage ? 'w-1.5' : 'w-1'} ${colours.accent}`}
      />
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <span className="text-sm font-medium text-stone-600">{kicker}</span>
        {component && (
          <span
            className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 font-mono text-xs font-medium ring-1 ring-inset ${colours.chip}`}
          >
            <span aria-hidden="true" className={`size-2 rounded-full ${colours.dot}`} />
            {component}
          </span>
        )}
      </div>
      <Heading
        className={`mt-2 font-semibold tracking-tight text-balance text-stone-950 ${isPage ? 'text-3xl sm:text-4xl' : 'text-xl'}`}
      >
        {title}
      </Heading>
      <p
        className={`text-pretty text-stone-700 ${isPage ? 'mt-4 text-lg leading-relaxed' : 'mt-2 leading-relaxed'}`}
      >
        {lede}
      </p>
      {children}
    </header>
  );
}
