import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { z } from 'zod';
import { safeRedirectPath } from '../../shared/safe-redirect';
import { singleLine } from '../../shared/text';
import { mixesScripts } from './usernames';

/**
 * One set of field rules for the API and the storefront forms. Messages are i18n keys;
 * the HTTP layer (and the form helpers) translate them in the visitor's language.
 */

/** SPEC section 5: a Chinese mobile number is 11 digits, 1 then 3-9. */
export const CHINESE_MOBILE = /^1[3-9]\d{9}$/;

/**
 * A mobile number as stored: Chinese numbers as their 11 digits, international numbers
 * (starting with +) in E.164 after libphonenumber's full validation. Null when invalid.
 */
export function normalizeMobile(value: string): string | null {
  const compact = value.replace(/[\s()-]/g, '');
  if (compact.startsWith('+')) {
    if (!isValidPhoneNumber(compact)) return null;
    return parsePhoneNumberFromString(compact)?.number ?? null;
  }
  return CHINESE_MOBILE.test(compact) ? compact : null;
}

/** SPEC section 9: the middle four digits are hidden ('138****5678'). */
export function maskMobile(mobile: string | null): string {
  if (!mobile) return '';
  const digits = [...mobile].flatMap((char, index) => (/\d/.test(char) ? [index] : []));
  if (digits.length < 6) return mobile;
  const start = Math.floor((digits.length - 4) / 2);
  const hidden = new Set(digits.slice(start, start + 4));
  return [...mobile].map((char, index) => (hidden.has(index) ? '*' : char)).join('');
}

/** A message key for a missing value only; other problems keep their own messages. */
const whenMissing = (key: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? key : undefined),
});

/** Numbers sent by older clients are read as text. */
const text = (schema: z.ZodString) =>
  z.preprocess((value) => (typeof value === 'number' ? String(value) : value), schema);

export const emailField = z
  .string(whenMissing('accounts.email.required'))
  .trim()
  .min(1, 'accounts.email.required')
  .max(320)
  .email()
  .transform((value) => value.toLowerCase());

export const newPasswordField = z.string(whenMissing('accounts.password.required')).min(8).max(128);
export const passwordField = z
  .string(whenMissing('accounts.password.required'))
  .min(1, 'accounts.password.required')
  .max(128);

export const usernameField = z
  .string()
  .trim()
  .min(2)
  .max(32)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u, 'accounts.username.invalid')
  .refine((name) => !mixesScripts(name), 'accounts.username.mixedScripts');

export const mobileField = z
  .string(whenMissing('accounts.mobile.required'))
  .trim()
  .min(1, 'accounts.mobile.required')
  .max(32)
  .transform((value, context) => {
    const mobile = normalizeMobile(value);
    if (mobile) return mobile;
    context.issues.push({ code: 'custom', message: 'accounts.mobile.invalid', input: value });
    return z.NEVER;
  });

/** 1 male, 2 female (SPEC section 3); 0 means not given. */
export const sexField = z.literal([0, 1, 2]);

/** An image from POST /v1/upload, or an https address (a Google profile picture). */
export const avatarField = z
  .string()
  .trim()
  .max(2048)
  .check(singleLine)
  .refine(
    (value) => value === '' || /^\/uploads\/[\w./-]+$/.test(value) || /^https:\/\/[^\s"'<>]+$/.test(value),
    'accounts.avatar.invalid',
  );

export const captchaFields = {
  dots: text(z.string(whenMissing('accounts.captcha.required')).trim().min(1, 'accounts.captcha.required').max(12)),
  key: z.string(whenMissing('accounts.captcha.required')).min(1, 'accounts.captcha.required').max(64),
};

export const codeField = text(
  z
    .string(whenMissing('accounts.code.required'))
    .trim()
    .min(1, 'accounts.code.required')
    .regex(/^\d{6}$/, 'accounts.code.invalid'),
);

export const registerSchema = z.object({
  username: usernameField,
  mobile: mobileField,
  email: emailField,
  password: newPasswordField,
  avatar: avatarField.optional(),
  sex: sexField.optional(),
  ...captchaFields,
});

/** What the visitor read in the captcha picture (`dots`) and the captcha's id (`key`). */
export const captchaAnswer = z.object(captchaFields);
export type CaptchaAnswer = z.infer<typeof captchaAnswer>;

export const loginSchema = z.object({ email: emailField, password: passwordField, ...captchaFields });
export const sendCodeSchema = z.object({ email: emailField, ...captchaFields });
export const loginByCodeSchema = z.object({ email: emailField, code: codeField });

export const updateProfileSchema = z.object({
  username: usernameField.optional(),
  avatar: avatarField.optional(),
  sex: sexField.optional(),
});

export const changePasswordSchema = z.object({
  old_password: z.string().max(128).optional(),
  new_password: newPasswordField,
});

export const logoutBody = z.object({ all: z.boolean().optional() }).optional();

/** SPEC section 3: platform 3 (of `POST /user/login/platform`) is Google. */
const GOOGLE_PLATFORM = 3;

/**
 * A path on this site (starting with `/`) to come back to after Google sign-in; never another
 * origin. Only paths are taken, so any origin stands in for ours (server/shared/safe-redirect.ts).
 */
const sameSitePath = z
  .string()
  .max(2048)
  .transform((value, context) => {
    const path = value.startsWith('/') ? safeRedirectPath(value, 'http://shop.invalid') : null;
    if (path !== null) return path;
    context.issues.push({ code: 'custom', message: 'accounts.redirect.invalid', input: value });
    return z.NEVER;
  });

export const platformLoginSchema = z.object({
  platform: z.union([z.literal(GOOGLE_PLATFORM), z.literal(String(GOOGLE_PLATFORM))]),
  redirect: sameSitePath.default('/'),
  id_token: z.string().min(1).max(8192).optional(),
});

export type RegisterInput = z.infer<typeof registerSchema>;
export type LoginInput = z.infer<typeof loginSchema>;
export type SendCodeInput = z.infer<typeof sendCodeSchema>;
export type LoginByCodeInput = z.infer<typeof loginByCodeSchema>;
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

// Answers of the account endpoints.

/** The signed-in user as `GET /user/info` and every login answer give it. */
export const userView = z.object({
  uid: z.number().int(),
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  mobile: z.string().describe("masked ('138****5678'); empty when not given"),
  avatar: z.string().describe('empty when not set'),
  sex: sexField.describe('0 not given, 1 male, 2 female'),
  has_password: z.boolean().describe('false for accounts opened by emailed code or Google'),
  created_at: z.string(),
});
export type UserView = z.infer<typeof userView>;

/**
 * What the header shows of whoever is looking: their name and picture when signed in, and
 * the cart's item count. Catalogue pages are one cached document for everyone, so the
 * browser fills these in from `GET /v1/visitor` (docs/decisions/0092).
 */
export const visitorView = z.object({
  user: z.object({ username: z.string(), avatar: z.string().nullable() }).nullable(),
  cart_count: z.number().int(),
});
export type VisitorView = z.infer<typeof visitorView>;

export const loginAnswerSchema = z.object({
  access_token: z.string(),
  access_sign: z.string(),
  expires_at: z.string(),
  user: userView,
});
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

export const codeSentAnswer = z.object({
  resend_after: z.number().int().describe('seconds until another code may be sent'),
});
export type CodeSentAnswer = z.infer<typeof codeSentAnswer>;

/** Where to send the browser for Google's code flow. */
export const googleAuthUrl = z.object({ auth_url: z.string() });
export type GoogleAuthUrl = z.infer<typeof googleAuthUrl>;
