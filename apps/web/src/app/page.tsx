import {
  COMPONENT_COLOURS,
  listStations,
  METRO_LINE,
  type TJourneyComponent,
} from '@kubejourney/content';
import Link from 'next/link';
import { RouteStrip } from '@/components/route-strip';
import { COLOUR_CLASSES } from '@/lib/colour-classes.util';
import { getRequestContext } from '@/server/request-context.server';

/** What happens after the reply, one line per component: the journey the course follows. */
const TRACE_PREVIEW: { component: Exclude<TJourneyComponent, 'kubectl'>; detail: string }[] = [
  { component: 'kube-apiserver', detail: 'authn → authz → admission → 201 Created' },
  { component: 'etcd', detail: 'put /registry/deployments/default/my-app' },
  { component: 'kube-controller-manager', detail: 'ReplicaSet → 3 Pods (Pending)' },
  { component: 'kube-scheduler', detail: 'filter → score → nodeName: node-2' },
  { component: 'kubelet', detail: 'CNI → volumes → image → CRI → Running' },
  { component: 'kube-proxy', detail: 'Endpoints → iptables rules' },
];

/** Sets the command in the headline in monospace, and keeps it on one line. */
function HighlightCommand({ text }: { text: string }) {
  const command = 'kubectl apply';
  const at = text.indexOf(command);
  if (at < 0) return text;
  return (
    <>
      {text.slice(0, at)}
      <code className="font-mono font-semibold tracking-tighter whitespace-nowrap">{command}</code>
      {text.slice(at + command.length)}
    </>
  );
}

export default async function LandingPage() {
  const { user, locale, messages } = await getRequestContext();
  const { landing } = messages;
  const stations = listStations();

  const points = [
    { title: landing.pointOwnClusterTitle, body: landing.pointOwnClusterBody, dot: 'bg-slate-600' },
    { title: landing.pointWatchTitle, body: landing.pointWatchBody, dot: 'bg-green-600' },
    { title: landing.pointPaceTitle, body: landing.pointPaceBody, dot: 'bg-amber-600' },
  ];

  return (
    <>
      <section className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-12 pb-16 sm:px-6 lg:grid-cols-2 lg:pt-20 lg:pb-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-stone-700 ring-1 ring-stone-200">
            <span aria-hidden="true" className="size-2 rounded-full bg-green-600" />
            {landing.eyebrow}
          </p>
          <h1 className="mt-5 text-4xl leading-tight font-semibold tracking-tight text-balance text-stone-950 sm:text-5xl sm:leading-[1.1]">
            <HighlightCommand text={landing.headline} />
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-pretty text-stone-700">
            {landing.lede}
          </p>
          <div className="mt-8 flex flex-wrap items-center gap-3">
            {user ? (
              <Link
                href="/learn"
                className="rounded-full bg-stone-900 px-5 py-3 text-base font-semibold text-white shadow-sm hover:bg-stone-700"
              >
                {landing.ctaLearn} <span aria-hidden="true">→</span>
              </Link>
            ) : (
              <>
                <Link
                  href="/signup"
                  className="rounded-full bg-stone-900 px-5 py-3 text-base font-semibold text-white shadow-sm hover:bg-stone-700"
                >
                  {landing.ctaSignup} <span aria-hidden="true">→</span>
                </Link>
                <Link
                  href="/login"
                  className="rounded-full bg-white px-5 py-3 text-base font-semibold text-stone-900 ring-1 ring-stone-300 ring-inset hover:bg-stone-50"
                >
                  {landing.ctaLogin}
                </Link>
              </>
            )}
          </div>
        </div>

        <figure className="w-full">
          <div
            role="img"
            aria-label={`${landing.terminalLabel}: kubectl apply -f deployment.yaml → deployment.apps/my-app created`}
            className="overflow-hidden rounded-2xl bg-stone-950 shadow-2xl ring-1 shadow-stone-900/20 ring-stone-900"
          >
            <div
              aria-hidden="true"
              className="flex items-center gap-2 border-b border-white/10 px-4 py-3"
            >
              <span className="size-3 rounded-full bg-stone-700" />
              <span className="size-3 rounded-full bg-stone-700" />
              <span className="size-3 rounded-full bg-stone-700" />
              <span className="ml-3 font-mono text-xs text-stone-400">~/my-app</span>
            </div>
            <pre
              aria-hidden="true"
              className="overflow-x-auto px-5 py-5 font-mono text-[0.85rem] leading-7 text-stone-100"
            >
              <span className="text-stone-500">$ </span>kubectl apply -f deployment.yaml{'\n'}
              deployment.apps/my-app created{'\n'}
              <span className="text-stone-500">$ </span>
              <span className="inline-block h-4 w-2 translate-y-0.5 bg-stone-300 motion-safe:animate-pulse" />
            </pre>
          </div>
          <div className="mt-3 rounded-2xl bg-stone-900 px-5 py-4 ring-1 ring-stone-800">
            <p className="text-xs font-medium text-stone-300">{landing.traceTitle}</p>
            <ol className="mt-3 space-y-1.5 font-mono text-[0.78rem] leading-5">
              {TRACE_PREVIEW.map((row) => (
                <li
                  key={row.component}
                  className="grid grid-cols-[10.5rem_1fr] gap-3 max-sm:grid-cols-1 max-sm:gap-0"
                >
                  <span
                    className={`flex items-center gap-2 ${COLOUR_CLASSES[COMPONENT_COLOURS[row.component]].onDark}`}
                  >
                    <span
                      aria-hidden="true"
                      className={`size-1.5 rounded-full ${COLOUR_CLASSES[COMPONENT_COLOURS[row.component]].dot}`}
                    />
                    {row.component.replace('kube-controller-manager', 'controller-manager')}
                  </span>
                  <span className="break-words text-stone-300 max-sm:pl-3.5 [overflow-wrap:anywhere]">
                    {row.detail}
                  </span>
                </li>
              ))}
            </ol>
          </div>
          <figcaption className="mt-4 text-sm leading-relaxed text-stone-600">
            {landing.terminalNote}
          </figcaption>
        </figure>
      </section>

      <section aria-labelledby="route-title" className="border-y border-stone-200 bg-white">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
          <div className="mb-8 flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="route-title" className="text-2xl font-semibold tracking-tight text-stone-950">
              {landing.routeTitle}
            </h2>
            <p className="text-sm text-stone-600">{METRO_LINE.name[locale]}</p>
          </div>
          <RouteStrip
            label={landing.routeTitle}
            items={stations.map((station) => ({
              key: station.id,
              label: station.slug,
              sublabel: METRO_LINE.zones[station.zone][locale],
              colour: station.colour,
            }))}
          />
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <ul className="grid gap-6 md:grid-cols-3">
          {points.map((point) => (
            <li key={point.title} className="rounded-2xl bg-white p-6 ring-1 ring-stone-200">
              <span aria-hidden="true" className={`block h-1 w-10 rounded-full ${point.dot}`} />
              <h3 className="mt-4 text-lg font-semibold text-stone-950">{point.title}</h3>
              <p className="mt-2 leading-relaxed text-stone-700">{point.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
