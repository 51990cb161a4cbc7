import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False on the server and during hydration, true once the page is interactive: controls
 * that only make sense with JavaScript (auto-submitting selects, infinite scroll) switch
 * over then, and their no-JS fallbacks (submit buttons, pagination links) step aside.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
