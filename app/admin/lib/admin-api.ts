import type { Locale } from '../../../i18n/locales';
import { redirect } from 'react-router';
import type { z } from 'zod';
import type { staffSessionState } from '../../../server/domains/staff/staff.schemas';
import { readBrowserCookie } from '~/lib/api-client';

/**
 * The console's client for the admin API (`/v1/admin`, docs/console.md). The staff session
 * rides in its httpOnly cookie; every write echoes the readable `csrf_token` cookie in
 * `x-csrf-token`; every call says the member's language in `lang`, so the server's `msg`
 * arrives translated and can be shown as it is. A code-200 envelope resolves with `data`;
 * anything else rejects with an AdminApiError. A lost session (HTTP 401) sends the member to
 * the sign-in page with the way back in `next`.
 */

const CSRF_COOKIE = 'csrf_token';

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

let currentLocale: Locale = 'en';

/** The language every call asks for; the console sets it from the member's profile (or the cookie before sign-in). */
export function setApiLocale(locale: Locale): void {
  currentLocale = locale;
}

type Query = Record<string, string | number | boolean | null | undefined>;

interface AdminCallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Query;
  signal?: AbortSignal;
  /** Sign-in and setup pages handle 401 themselves instead of being sent to the sign-in page. */
  keepOn401?: boolean;
}

/** `/orders` -> `/v1/admin/orders?...`, with the empty query values left out. */
export function adminUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return `/v1/admin${path}${params.size ? `?${params}` : ''}`;
}

export async function adminApi<T>(path: string, options: AdminCallOptions = {}): Promise<T> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { accept: 'application/json', lang: currentLocale };
  if (method !== 'GET') {
    headers['content-type'] = 'application/json';
    const csrf = readBrowserCookie(CSRF_COOKIE);
    if (csrf) headers['x-csrf-token'] = csrf;
  }
  const response = await fetch(adminUrl(path, options.query), {
    method,
    headers,
    body: method === 'GET' ? undefined : JSON.stringify(options.body ?? {}),
    credentials: 'same-origin',
    signal: options.signal,
  });
  let envelope: { code?: unknown; msg?: unknown; data?: unknown };
  try {
    envelope = (await response.json()) as typeof envelope;
  } catch {
    envelope = { code: response.status, msg: response.statusText };
  }
  if (envelope.code === 200) return envelope.data as T;
  const error = new AdminApiError(
    response.status,
    typeof envelope.code === 'number' ? envelope.code : response.status,
    typeof envelope.msg === 'string' && envelope.msg ? envelope.msg : response.statusText,
    envelope.data,
  );
  if (response.status === 401 && !options.keepOn401) sendToSignIn();
  throw error;
}

/** The sign-in page, remembering where the member was. */
export function signInPath(next = currentConsolePath()): string {
  return next && next !== '/admin' ? `/admin/sign-in?next=${encodeURIComponent(next)}` : '/admin/sign-in';
}

function currentConsolePath(): string {
  if (typeof window === 'undefined') return '/admin';
  return window.location.pathname + window.location.search;
}

function sendToSignIn(): void {
  if (typeof window === 'undefined' || window.location.pathname === '/admin/sign-in') return;
  window.location.assign(signInPath());
}

/** Where `next` may send the member after sign-in: console paths only, never another site. */
export function safeNext(next: string | null): string {
  return next && /^\/admin(?:[/?#]|$)/.test(next) && !next.startsWith('//') ? next : '/admin';
}

/** A fresh idempotency key for one refund the member means (a repeat of the same click reuses it). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

type SessionState = z.infer<typeof staffSessionState>;
let session: Promise<SessionState> | undefined;

/**
 * Who is signed in, asked once per page load: the console's root and every page's loader run
 * at the same time, and share this one answer. (Signing in or out and changing the language
 * load the page anew.)
 */
export function consoleSession(): Promise<SessionState> {
  session ??= adminApi<SessionState>('/session', { keepOn401: true });
  session.catch(() => (session = undefined));
  return session;
}

/**
 * A signed-in page's loader starts with this: a visitor goes to sign in (and comes back),
 * a member who must first set up two-step sign-in goes there; the API is not asked anything
 * it would refuse.
 */
export async function requireStaff(request: Request): Promise<void> {
  const { staff } = await consoleSession();
  const url = new URL(request.url);
  if (!staff) throw redirect(signInPath(url.pathname + url.search));
  const mustEnrol = staff.second_factor.required && !staff.second_factor.enabled;
  if (mustEnrol && url.pathname !== '/admin/two-step') throw redirect('/admin/two-step');
}
