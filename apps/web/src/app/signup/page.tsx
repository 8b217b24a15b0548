import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthFormClient } from '@/components/auth-form-client';
import { AuthShell } from '@/components/auth-shell';
import { safeNextPath } from '@/lib/safe-next-path.util';
import { getRequestContext } from '@/server/request-context.server';

export async function generateMetadata(): Promise<Metadata> {
  const { messages } = await getRequestContext();
  return { title: messages.auth.signupTitle };
}

export default async function SignupPage({
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

  const loginHref = next === '/learn' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
  return (
    <AuthShell
      title={messages.auth.signupTitle}
      lede={messages.auth.signupLede}
      footer={
        <>
          {messages.auth.haveAccount}{' '}
          <Link
            href={loginHref}
            className="font-semibold text-stone-950 underline underline-offset-4"
          >
            {messages.header.login}
          </Link>
        </>
      }
    >
      <AuthFormClient mode="signup" locale={locale} messages={messages} next={next} />
    </AuthShell>
  );
}
