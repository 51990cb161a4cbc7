import type { Locale } from '../../i18n/locales';
import { api } from './api-client';

/** The account calls of SPEC section 7, typed for the storefront. */

export interface AccountUser {
  uid?: number;
  id?: number;
  email: string;
  username: string;
  avatar: string | null;
  sex: number;
  mobile?: string | null;
}

export interface LoginAnswer {
  access_token: string;
  access_sign: string;
  expires_at: string;
  user: AccountUser;
}

export interface CaptchaAnswer {
  /** The captcha id (SPEC's `key`). */
  key: string;
  /** What the visitor read in the picture (SPEC's `dots`). */
  dots: string;
}

export interface RegistrationInput {
  username: string;
  mobile: string;
  email: string;
  password: string;
  avatar?: string;
  sex?: number;
}

export const accountApi = {
  captcha: (locale: Locale) =>
    api<{ id: string; data: string }>('/captcha', { method: 'POST', body: { captcha_type: 'digit' }, locale }),
  login: (locale: Locale, input: { email: string; password: string } & CaptchaAnswer) =>
    api<LoginAnswer>('/user/login', { method: 'POST', body: { ...input }, locale }),
  register: (locale: Locale, input: RegistrationInput & CaptchaAnswer) =>
    api<LoginAnswer>('/user/registe', { method: 'POST', body: { ...input }, locale }),
  sendCode: (locale: Locale, input: { email: string } & CaptchaAnswer) =>
    api<{ resend_after?: number }>('/user/sendCode', { method: 'POST', body: { ...input }, locale }),
  loginByCode: (locale: Locale, input: { email: string; code: string }) =>
    api<LoginAnswer>('/user/loginByCode', { method: 'POST', body: { ...input }, locale }),
  googleUrl: (locale: Locale, redirect: string) =>
    api<{ auth_url: string }>('/user/login/platform', { method: 'POST', body: { platform: 3, redirect }, locale }),
  logout: (locale: Locale, all = false) => api<unknown>('/user/logout', { method: 'POST', body: { all }, locale }),
  updateInfo: (locale: Locale, input: { username?: string; avatar?: string; sex?: number }) =>
    api<AccountUser>('/user/info', { method: 'PUT', body: input, locale }),
  changePassword: (locale: Locale, input: { old_password?: string; new_password: string }) =>
    api<unknown>('/user/password', { method: 'PUT', body: input, locale }),
};
