import { isSingleLineText } from './text';

/**
 * The one rule for following an address a visitor sent (`redirectTo` of the preference forms,
 * `redirect` of Google sign-in): it is read as a URL against our own origin, the way a browser
 * would read the Location header, and followed only when it stays on that origin. A value with
 * control characters is refused before parsing (browsers drop tabs and line breaks, which turns
 * `/<tab>/evil.example` into `//evil.example`). What comes back is the parsed path, query and
 * fragment, so `//evil.example`, `/\evil.example`, `https://evil.example/` and `javascript:`
 * all answer null. docs/decisions/0071-one-rule-for-redirects.md
 */
export function safeRedirectPath(value: unknown, ownOrigin: string): string | null {
  if (typeof value !== 'string' || !isSingleLineText(value)) return null;
  let url: URL;
  try {
    url = new URL(value, ownOrigin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(ownOrigin).origin) return null;
  // `/.//evil.example` parses to the path `//evil.example`, which as a Location is another host.
  return `/${url.pathname.replace(/^\/+/, '')}${url.search}${url.hash}`;
}
