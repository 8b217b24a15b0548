import type { TColourFamily } from '@kubejourney/content';

// One colour per component, everywhere (UX.md). Tailwind only ships classes it can find written out
// in full, so every family's classes are spelled out here rather than built from strings.
// Text colours are the -700/-800 shades: they keep WCAG AA contrast on white and on the -50 tints.

export type TColourClasses = {
  /** ring and number of a stop marker on the line */
  marker: string;
  /** small filled dot (legends, overview strip) */
  dot: string;
  /** a chip naming the component */
  chip: string;
  /** a thin accent bar on a card */
  accent: string;
  /** hover/focus tint for something clickable in this colour */
  hover: string;
  /** text on the dark terminal background */
  onDark: string;
};

export const COLOUR_CLASSES: Readonly<Record<TColourFamily, TColourClasses>> = {
  slate: {
    marker: 'border-slate-600 text-slate-800',
    dot: 'bg-slate-600',
    chip: 'bg-slate-100 text-slate-800 ring-slate-300',
    accent: 'bg-slate-600',
    hover: 'hover:bg-slate-50',
    onDark: 'text-slate-300',
  },
  green: {
    marker: 'border-green-600 text-green-800',
    dot: 'bg-green-600',
    chip: 'bg-green-50 text-green-800 ring-green-200',
    accent: 'bg-green-600',
    hover: 'hover:bg-green-50',
    onDark: 'text-green-400',
  },
  amber: {
    marker: 'border-amber-600 text-amber-800',
    dot: 'bg-amber-600',
    chip: 'bg-amber-50 text-amber-800 ring-amber-200',
    accent: 'bg-amber-600',
    hover: 'hover:bg-amber-50',
    onDark: 'text-amber-300',
  },
  violet: {
    marker: 'border-violet-600 text-violet-800',
    dot: 'bg-violet-600',
    chip: 'bg-violet-50 text-violet-800 ring-violet-200',
    accent: 'bg-violet-600',
    hover: 'hover:bg-violet-50',
    onDark: 'text-violet-300',
  },
  blue: {
    marker: 'border-blue-600 text-blue-800',
    dot: 'bg-blue-600',
    chip: 'bg-blue-50 text-blue-800 ring-blue-200',
    accent: 'bg-blue-600',
    hover: 'hover:bg-blue-50',
    onDark: 'text-blue-300',
  },
  teal: {
    marker: 'border-teal-600 text-teal-800',
    dot: 'bg-teal-600',
    chip: 'bg-teal-50 text-teal-800 ring-teal-200',
    accent: 'bg-teal-600',
    hover: 'hover:bg-teal-50',
    onDark: 'text-teal-300',
  },
  rose: {
    marker: 'border-rose-600 text-rose-800',
    dot: 'bg-rose-600',
    chip: 'bg-rose-50 text-rose-800 ring-rose-200',
    accent: 'bg-rose-600',
    hover: 'hover:bg-rose-50',
    onDark: 'text-rose-300',
  },
  stone: {
    marker: 'border-stone-900 text-stone-900',
    dot: 'bg-stone-900',
    chip: 'bg-stone-100 text-stone-800 ring-stone-300',
    accent: 'bg-stone-900',
    hover: 'hover:bg-stone-100',
    onDark: 'text-stone-200',
  },
};
