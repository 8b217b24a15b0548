'use client';

import { formatMessage, type TMessages } from '@kubejourney/content';
import { PASSWORD_MIN_LENGTH, ZUserResponse, type TLocale } from '@kubejourney/contracts';
import Link from 'next/link';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { callApi, type TApiFailure } from '@/lib/api-client.util';
import { describeFailure, type TFormErrors } from '@/lib/form-errors.util';
import { rememberLocale } from '@/lib/locale-cookie.util';
import { ErrorSummary } from './error-summary';
import { FormField } from './form-field';

type TMode = 'signup' | 'login';
type TProps = { mode: TMode; locale: TLocale; messages: TMessages; next: string };

const FIELDS: Record<TMode, readonly string[]> = {
  signup: ['displayName', 'email', 'password'],
  login: ['email', 'password'],
};

/**
 * Sign-up and log-in share one form: the API validates (one set of rules, libs/contracts), and
 * this form shows what it says next to each field, in the page's language.
 */
export function AuthFormClient({ mode, locale, messages, next }: TProps) {
  const { auth } = messages;
  const [errors, setErrors] = useState<(TFormErrors & { code?: string }) | null>(null);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (errors) summaryRef.current?.focus();
  }, [errors]);

  const labels: Record<string, string> = {
    displayName: auth.displayName,
    email: auth.email,
    password: auth.password,
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSubmitting) return;
    const form = new FormData(event.currentTarget);
    const values = Object.fromEntries(
      FIELDS[mode].map((field) => [field, String(form.get(field) ?? '')]),
    );
    setIsSubmitting(true);
    const result = await callApi(mode === 'signup' ? '/api/auth/signup' : '/api/auth/login', {
      method: 'POST',
      body: mode === 'signup' ? { ...values, locale } : values,
      schema: ZUserResponse,
    });
    if (result.ok) {
      // The account's language wins from now on; keep this browser's cookie in step with it.
      rememberLocale(result.data.user.locale);
      // A full navigation: every server component (header included) renders with the session.
      window.location.assign(next);
      return;
    }
    setErrors({ ...describeFailure(result.error, values, messages), code: codeOf(result.error) });
    setIsSubmitting(false);
  }

  const summaryItems = errors
    ? [
        ...FIELDS[mode].filter((field) => errors.fields[field]),
        ...Object.keys(errors.fields).filter((field) => !FIELDS[mode].includes(field)),
      ].map((field) => ({
        field,
        isLinked: FIELDS[mode].includes(field),
        text: FIELDS[mode].includes(field)
          ? formatMessage(auth.fieldError, { field: labels[field], message: errors.fields[field] })
          : errors.fields[field],
      }))
    : [];

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {errors && (
        <ErrorSummary
          ref={summaryRef}
          title={auth.errorSummaryTitle}
          summary={errors.summary}
          items={summaryItems}
        >
          {errors.code === 'EMAIL_TAKEN' && (
            <p className="mt-2 text-sm">
              <Link
                href="/login"
                className="font-semibold text-red-900 underline underline-offset-2"
              >
                {messages.header.login}
              </Link>
            </p>
          )}
        </ErrorSummary>
      )}

      {mode === 'signup' && (
        <FormField
          name="displayName"
          label={auth.displayName}
          hint={auth.displayNameHint}
          error={errors?.fields.displayName}
          type="text"
          autoComplete="nickname"
          required
          maxLength={80}
        />
      )}
      <FormField
        name="email"
        label={auth.email}
        error={errors?.fields.email}
        type="email"
        autoComplete="email"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        required
      />
      <FormField
        name="password"
        label={auth.password}
        hint={
          mode === 'signup'
            ? formatMessage(auth.passwordHint, { min: PASSWORD_MIN_LENGTH })
            : undefined
        }
        error={errors?.fields.password}
        type="password"
        autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
        required
      />

      <button
        type="submit"
        disabled={isSubmitting}
        aria-busy={isSubmitting}
        className="flex w-full items-center justify-center gap-2 rounded-full bg-stone-900 px-5 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-stone-700 disabled:cursor-progress disabled:bg-stone-700"
      >
        {isSubmitting && (
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-5 motion-safe:animate-spin"
            fill="none"
          >
            <circle
              cx="12"
              cy="12"
              r="9"
              stroke="currentColor"
              strokeOpacity="0.3"
              strokeWidth="3"
            />
            <path
              d="M21 12a9 9 0 0 0-9-9"
              stroke="currentColor"
              strokeWidth="3"
              strokeLinecap="round"
            />
          </svg>
        )}
        {mode === 'signup'
          ? isSubmitting
            ? auth.signupSubmitting
            : auth.signupSubmit
          : isSubmitting
            ? auth.loginSubmitting
            : auth.loginSubmit}
      </button>
    </form>
  );
}

function codeOf(failure: TApiFailure): string | undefined {
  return failure.kind === 'api' ? failure.code : undefined;
}
