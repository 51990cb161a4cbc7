import type { Env } from './env';

/**
 * The shop's own origin for links that leave the page (payment return and notify addresses,
 * mail, sitemap, Google's redirect). PUBLIC_URL is required in production; only a developer's
 * or a test's server without one falls back to the origin the request came to.
 */
export function siteOrigin(env: Pick<Env, 'PUBLIC_URL'>, requestOrigin: string): string {
  return (env.PUBLIC_URL ?? requestOrigin).replace(/\/+$/, '');
}
