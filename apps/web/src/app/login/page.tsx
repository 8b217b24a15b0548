import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthFormClient } from '@/components/auth-form-client';
import { AuthShell } from '@/components/auth-shell';
import { safeNextPath } from '@/lib/safe-next-path.util';
import { getRequestContext } from '@/server/request-context.server';

export async function generateMetadata(): Promise<Metadata> {
  const { messages } = await getRequestContext();
  return { title: messages.header.login };
}

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [{ user, locale, messages }, params] = await Promise.all([
    getRequestContext(),
    searchParams,
  ]);
  const next = safeNextPath(params.next);
  if (user) redirect(next);

  const signupHref = next === '/learn' ? '/signup' : `/signup?next=${encodeURIComponent(next)}`;
  return (
    <AuthShell
      title={messages.auth.loginTitle}
      lede={messages.auth.loginLede}
      footer={
        <>
          {messages.auth.noAccount}{' '}
          <Link
            href={signupHref}
            className="font-semibold text-stone-950 underline underline-offset-4"
          >
            {messages.header.signup}
          </Link>
        </>
      }
    >
      <AuthFormClient mode="login" locale={locale} messages={messages} next={next} />
    </AuthShell>
  );
}
