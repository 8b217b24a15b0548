import { GeistMono } from 'geist/font/mono';
import { GeistSans } from 'geist/font/sans';
import type { Metadata, Viewport } from 'next';
import { SiteHeader } from '@/components/site-header';
import { getRequestContext } from '@/server/request-context.server';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const { messages } = await getRequestContext();
  return {
    title: { default: messages.meta.title, template: `%s · ${messages.meta.title}` },
    description: messages.meta.description,
  };
}

export const viewport: Viewport = { themeColor: '#f7f6f2' };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const { user, locale, messages } = await getRequestContext();
  return (
    <html lang={locale} className={`${GeistSans.variable} ${GeistMono.variable}`}>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-lg bg-stone-900 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          {messages.header.skipToContent}
        </a>
        <SiteHeader user={user} locale={locale} messages={messages} />
        <main id="main" tabIndex={-1} className="flex-1 outline-none">
          {children}
        </main>
        <footer className="border-t border-stone-200 bg-white/60">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-6 text-sm text-stone-600 sm:px-6">
            <p className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-2">
              <span className="font-semibold text-stone-800">KubeJourney</span>
              <span aria-hidden="true" className="hidden sm:inline">
                ·
              </span>
              <span>{messages.meta.description}</span>
            </p>
          </div>
        </footer>
      </body>
    </html>
  );
}
