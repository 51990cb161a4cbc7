/**
 * The header badge's count lives in the browser only (anonymous pages are cached and shared,
 * server/http/response-cache.ts), so whatever changes the cart announces the new count with
 * this event and the badge listens.
 */
const CART_COUNT_EVENT = 'shop:cart-count';

/** Called from effects and event handlers only, so always in the browser. */
export function announceCartCount(count: number): void {
  window.dispatchEvent(new CustomEvent(CART_COUNT_EVENT, { detail: count }));
}

export function onCartCount(listener: (count: number) => void): () => void {
  const handle = (event: Event) => listener(Number((event as CustomEvent<number>).detail) || 0);
  window.addEventListener(CART_COUNT_EVENT, handle);
  return () => window.removeEventListener(CART_COUNT_EVENT, handle);
}

/** SPEC section 9: badges show at most 99, then '99+'. */
export function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}
