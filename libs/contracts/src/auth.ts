import { z } from 'zod';

// The HTTP contract of accounts, shared by apps/api (validation at the edge) and apps/web (forms).

export const LOCALES = ['zh-TW', 'en'] as const;
export const ZLocale = z.enum(LOCALES);
export type TLocale = z.infer<typeof ZLocale>;

export const ROLES = ['LEARNER', 'INSTRUCTOR', 'ADMIN'] as const;
export const ZRole = z.enum(ROLES);
export type TRole = z.infer<typeof ZRole>;

export const PASSWORD_MIN_LENGTH = 10;

/** Each rule is stated to the user by its message, so a 400 names the rule that failed. */
export const ZPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
  .max(200, 'Password must be at most 200 characters long')
  .regex(/[A-Za-z]/, 'Password must contain at least one letter')
  .regex(/[0-9]/, 'Password must contain at least one digit');

export const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Email must be at most 254 characters long')
  .pipe(z.email('Enter a valid email address'));

export const ZSignupRequest = z.object({
  email: ZEmail,
  password: ZPassword,
  displayName: z
    .string()
    .trim()
    .min(1, 'Display name is required')
    .max(80, 'Display name must be at most 80 characters long'),
  locale: ZLocale.optional(),
});
export type TSignupRequest = z.infer<typeof ZSignupRequest>;

export const ZLoginRequest = z.object({
  email: ZEmail,
  password: z.string().min(1, 'Password is required').max(200),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZUpdateMeRequest = z.object({ locale: ZLocale });
export type TUpdateMeRequest = z.infer<typeof ZUpdateMeRequest>;

export const ZUser = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: ZRole,
  locale: ZLocale,
});
export type TUser = z.infer<typeof ZUser>;

export const ZUserResponse = z.object({ user: ZUser });
export type TUserResponse = z.infer<typeof ZUserResponse>;

/** Name of the httpOnly session cookie. */
export const SESSION_COOKIE = 'kj_session';
/** Name of the (readable) language cookie, remembered for visitors who are not logged in. */
export const LOCALE_COOKIE = 'kj_locale';
