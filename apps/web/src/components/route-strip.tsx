import type { TColourFamily } from '@kubejourney/content';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';

export type TRouteStripItem = {
  key: string;
  label: string;
  sublabel?: string;
  colour: TColourFamily;
  /** the stop is a terminal (hall or terminus): drawn as a filled interchange marker */
  isTerminal?: boolean;
  href?: string;
};

/**
 * A metro line drawn as a strip: horizontal from md up, vertical on narrow screens, so the names
 * never shrink below reading size. It is an ordered list, so the order is announced too.
 */
export function RouteStrip({ items, label }: { items: TRouteStripItem[]; label: string }) {
  const columns = items.length === 9 ? 'md:grid-cols-9' : 'md:grid-cols-7';
  return (
    <div className="relative">
      <div
        aria-hidden="true"
        className="absolute top-3 bottom-3 left-[10px] w-1 rounded bg-stone-800 md:hidden"
      />
      <div
        aria-hidden="true"
        className="absolute top-[10px] hidden h-1 rounded bg-stone-800 md:block"
        style={{ left: `${50 / items.length}%`, right: `${50 / items.length}%` }}
      />
      <ol aria-label={label} className={`relative flex flex-col gap-3 md:grid md:gap-0 ${columns}`}>
        {items.map((item) => {
          const colours = COLOUR_CLASSES[item.colour];
          const marker = item.isTerminal ? (
            <span className="relative grid size-6 shrink-0 place-items-center rounded-full bg-stone-900 ring-4 ring-paper">
              <span className="size-2 rounded-full bg-white" />
            </span>
          ) : (
            <span
              className={`relative size-6 shrink-0 rounded-full border-[5px] bg-white ring-4 ring-paper ${colours.marker}`}
            />
          );
          const text = (
            <span className="flex min-w-0 flex-col md:items-center">
              <span
                className={`text-sm font-medium text-stone-900 ${item.isTerminal ? '' : 'font-mono md:text-[0.8rem]'}`}
              >
                {item.label}
              </span>
              {item.sublabel && <span className="text-xs text-stone-600">{item.sublabel}</span>}
            </span>
          );
          const body = (
            <>
              {marker}
              {text}
            </>
          );
          const layout = 'relative flex items-center gap-3 md:flex-col md:gap-2 md:text-center';
          return (
            <li key={item.key}>
              {item.href ? (
                <a
                  href={item.href}
                  className={`${layout} rounded-lg px-0 py-0.5 md:px-1 md:pb-2 ${colours.hover}`}
                >
                  {body}
                </a>
              ) : (
                <div className={layout}>{body}</div>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
