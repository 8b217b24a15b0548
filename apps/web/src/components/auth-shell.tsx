import { COMPONENT_COLOURS, JOURNEY_COMPONENTS } from '@kubejourney/content';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';

/** The frame of the sign-up and log-in pages: a card topped by the line's seven colours. */
export function AuthShell({
  title,
  lede,
  children,
  footer,
}: {
  title: string;
  lede: string;
  children: React.ReactNode;
  footer: React.ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <div className="overflow-hidden rounded-2xl bg-white shadow-xl ring-1 shadow-stone-900/5 ring-stone-200">
        <div aria-hidden="true" className="flex h-1.5">
          {JOURNEY_COMPONENTS.map((component) => (
            <span
              key={component}
              className={`flex-1 ${COLOUR_CLASSES[COMPONENT_COLOURS[component]].accent}`}
            />
          ))}
        </div>
        <div className="px-6 py-8 sm:px-8">
          <h1 className="text-2xl font-semibold tracking-tight text-stone-950">{title}</h1>
          <p className="mt-2 text-stone-700">{lede}</p>
          <div className="mt-8">{children}</div>
        </div>
      </div>
      <p className="mt-6 text-center text-sm text-stone-700">{footer}</p>
    </div>
  );
}
