/**
 * The product page is one cached document for everyone, so it carries a shipping promise for
 * every country (app/components/product/service-notes.tsx) and the browser picks the buyer's.
 * This cookie, readable by the page and holding nothing but a country code, is the country of
 * the signed-in buyer's default address, kept current by `GET /v1/visitor` and cleared with
 * the session. The inline script below turns it into a style before the first paint, so no
 * bundle code is needed: the country's line shows and hides the general one after it.
 * docs/decisions/0119-shipping-promise-from-the-rules.md
 */
export const SHIP_TO_COOKIE = 'ship_to';

export const SHIP_TO_HINT_SCRIPT = `(function(m){if(!m)return;var c='[data-ship-promise="'+m[1]+'"]';var s=document.createElement('style');s.textContent=c+'{display:inline-flex!important}'+c+'~[data-ship-promise="*"]{display:none!important}';document.head.append(s)})(document.cookie.match(/(?:^|; )${SHIP_TO_COOKIE}=([A-Z]{2})(?:;|$)/))`;
