import type { Env } from './env';

/**
 * The shop's own origin for links that leave the page (payment return and notify addresses,
 * mail, sitemap, Google's redirect). PUBLIC_URL is required in production; only a developer's
 * or a test's server without one falls back to the origin the request came to.
 */
export function siteOrigin(env: Pick<Env, 'PUBLIC_URL'>, requestOrigin: string): string {
  return (env.PUBLIC_URL ?? requestOrigin).replace(/\/+$/, '');
}

/** Buyers reach the shop over https: PUBLIC_URL says so. Decides HSTS. */
export function servedOverHttps(env: Pick<Env, 'PUBLIC_URL'>): boolean {
  return env.PUBLIC_URL?.startsWith('https:') ?? false;
}

/**
 * Every cookie the shop sets is `Secure` when it is served over https in production; a
 * developer's or a test's http://localhost server must still get its cookies back.
 */
export function secureCookies(env: Pick<Env, 'NODE_ENV' | 'PUBLIC_URL'>): boolean {
  return env.NODE_ENV === 'production' && servedOverHttps(env);
}
