import type { z } from 'zod';
import type { Locale } from '../../i18n/locales';
import type { IssuedCaptcha } from '../../server/domains/captcha/captcha.schemas';
import type {
  changePasswordSchema,
  CodeSentAnswer,
  GoogleAuthUrl,
  LoginAnswer,
  loginByCodeSchema,
  loginSchema,
  platformLoginSchema,
  registerSchema,
  sendCodeSchema,
  updateProfileSchema,
  UserView,
} from '../../server/domains/customers/accounts.schemas';
import { api } from './api-client';

/**
 * The account calls of SPEC section 7; requests and answers are typed by the server's schemas.
 * They load with the login modal and the account page (vite.config.ts); logging out, which any
 * page's account menu offers, is the account state's own call (account-context.tsx).
 */
export const accountApi = {
  captcha: (locale: Locale) =>
    api<IssuedCaptcha>('/captcha', { method: 'POST', body: { captcha_type: 'digit' }, locale }),
  login: (locale: Locale, input: z.input<typeof loginSchema>) =>
    api<LoginAnswer>('/user/login', { method: 'POST', body: { ...input }, locale }),
  register: (locale: Locale, input: z.input<typeof registerSchema>) =>
    api<LoginAnswer>('/user/registe', { method: 'POST', body: { ...input }, locale }),
  sendCode: (locale: Locale, input: z.input<typeof sendCodeSchema>) =>
    api<CodeSentAnswer>('/user/sendCode', { method: 'POST', body: { ...input }, locale }),
  loginByCode: (locale: Locale, input: z.input<typeof loginByCodeSchema>) =>
    api<LoginAnswer>('/user/loginByCode', { method: 'POST', body: { ...input }, locale }),
  googleUrl: (locale: Locale, redirect: string) =>
    api<GoogleAuthUrl>('/user/login/platform', {
      method: 'POST',
      body: { platform: 3, redirect } satisfies z.input<typeof platformLoginSchema>,
      locale,
    }),
  updateInfo: (locale: Locale, input: z.input<typeof updateProfileSchema>) =>
    api<UserView>('/user/info', { method: 'PUT', body: input, locale }),
  changePassword: (locale: Locale, input: z.input<typeof changePasswordSchema>) =>
    api<null>('/user/password', { method: 'PUT', body: input, locale }),
};
