import { formatMessage, type TMessages } from '@kubejourney/content';
import type { TLocale, TUser } from '@kubejourney/contracts';
import Link from 'next/link';
import { BrandMark } from './brand-mark';
import { LanguageSwitchClient } from './language-switch-client';
import { LogoutButtonClient } from './logout-button-client';
import { NavLinkClient } from './nav-link-client';

type TProps = { user: TUser | null; locale: TLocale; messages: TMessages };

export function SiteHeader({ user, locale, messages }: TProps) {
  const { header, language, roles } = messages;
  return (
    <header className="sticky top-0 z-30 border-b border-stone-200 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3 sm:px-6">
        <Link
          href="/"
          aria-label={header.home}
          className="flex items-center gap-2.5 rounded-lg text-[1.05rem] font-semibold tracking-tight text-stone-900"
        >
          <BrandMark />
          <span aria-hidden="true">KubeJourney</span>
        </Link>

        {user && (
          <nav aria-label={header.primaryNav} className="hidden sm:ml-4 sm:block">
            <NavLinkClient href="/learn">{header.learn}</NavLinkClient>
            <NavLinkClient href="/labs">{header.labs}</NavLinkClient>
          </nav>
        )}

        <div className="ml-auto">
          <LanguageSwitchClient
            locale={locale}
            isLoggedIn={user !== null}
            labels={{
              label: language.label,
              saveFailed: language.saveFailed,
              'zh-TW': language['zh-TW'],
              en: language.en,
            }}
          />
        </div>

        {user ? (
          <div className="order-last flex w-full items-center gap-3 border-t border-stone-100 pt-2 sm:order-none sm:w-auto sm:border-0 sm:pt-0">
            <nav
              aria-label={header.primaryNav}
              className="flex shrink-0 whitespace-nowrap sm:hidden"
            >
              <NavLinkClient href="/learn">{header.learn}</NavLinkClient>
              <NavLinkClient href="/labs">{header.labs}</NavLinkClient>
            </nav>
            <p
              className="ml-auto flex min-w-0 items-center gap-2 sm:ml-0"
              title={formatMessage(header.account, {
                name: user.displayName,
                role: roles[user.role],
              })}
            >
              <span
                aria-hidden="true"
                className="grid size-8 shrink-0 place-items-center rounded-full bg-stone-900 text-sm font-semibold text-white"
              >
                {Array.from(user.displayName.trim())[0]?.toUpperCase() ?? '?'}
              </span>
              <span className="sr-only">
                {formatMessage(header.account, { name: user.displayName, role: roles[user.role] })}
              </span>
              <span aria-hidden="true" className="flex min-w-0 flex-col leading-tight">
                <span
                  data-testid="account-name"
                  className="max-w-[12rem] truncate text-sm font-semibold text-stone-900"
                >
                  {user.displayName}
                </span>
                <span data-testid="account-role" className="text-xs text-stone-600">
                  {roles[user.role]}
                </span>
              </span>
            </p>
            <LogoutButtonClient
              labels={{
                logout: header.logout,
                loggingOut: header.loggingOut,
                logoutFailed: header.logoutFailed,
              }}
            />
          </div>
        ) : (
          <div className="flex items-center gap-2">
            <Link
              href="/login"
              className="rounded-full px-3 py-1.5 text-sm font-medium text-stone-700 hover:bg-stone-100 hover:text-stone-900"
            >
              {header.login}
            </Link>
            <Link
              href="/signup"
              className="rounded-full bg-stone-900 px-3.5 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-stone-700"
            >
              {header.signup}
            </Link>
          </div>
        )}
      </div>
    </header>
  );
}
