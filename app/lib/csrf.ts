import { readCookie } from './locale';

/** The double-submit cookie the server sets on every visitor (server/http/csrf.ts). */
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';

/**
 * The CSRF token to echo in `x-csrf-token` on cookie-authenticated API writes. Read from the
 * cookie in the browser, never rendered into HTML: pages are cached and shared between visitors.
 */
export function readCsrfToken(): string {
  return typeof document === 'undefined' ? '' : (readCookie(document.cookie, CSRF_COOKIE) ?? '');
}
