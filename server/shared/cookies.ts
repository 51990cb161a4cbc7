import { parse } from 'cookie';

/** The visitor's cart id (server/http/guest-cart.ts); merged into the account once they sign in. */
export const GUEST_CART_COOKIE = 'cart_id';

/** A request's cookies by name; a name sent twice keeps its first value, as browsers order them. */
export type CookieJar = Readonly<Record<string, string | undefined>>;

const NO_COOKIES: CookieJar = Object.freeze({});

/**
 * The one reading of a Cookie header, for every part of the shop that asks who a visitor is
 * or what they chose: the response cache's keys, the language, the session, the storefront's
 * loaders. It is the `cookie` package that @fastify/cookie uses for `request.cookies` (the
 * same version, deduplicated in package-lock.json), so a name written `access_token =x` or
 * `\taccess_token=x` means the same to the cache as to the sign-in. A value that is not valid
 * percent-encoding is kept as sent, and then fails the reader's own check like any bad value.
 */
export function parseCookies(header: string | null | undefined): CookieJar {
  return header ? parse(header) : NO_COOKIES;
}
