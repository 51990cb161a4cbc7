/**
 * Catalogue pages are one cached document for everyone (server/http/cache-keys.ts), so they
 * are rendered signed out and the browser learns who is looking from `GET /v1/visitor`. This
 * cookie, readable by the page and holding nothing but "1", is set and cleared with the session
 * cookie; the inline script below turns it into `data-signed-in` on <html> before the first
 * paint, and the stylesheet keeps the header's login button hidden while it is there, so a
 * signed-in buyer never sees "Log in" flash before their name.
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';

/** The `dataset` key of the attribute: `data-signed-in`, which the stylesheet reads. */
export const SIGNED_IN_HINT_DATA_KEY = 'signedIn';

export const SIGNED_IN_HINT_SCRIPT = `document.cookie.split('; ').includes('${SIGNED_IN_HINT_COOKIE}=1')&&(document.documentElement.dataset.${SIGNED_IN_HINT_DATA_KEY}='')`;
