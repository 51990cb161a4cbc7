import { useSyncExternalStore } from 'react';

export const COLOR_MODES = ['light', 'dark', 'system'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];
export const COLOR_MODE_COOKIE = 'color_mode';
export const COLOR_MODE_MAX_AGE = 365 * 24 * 60 * 60;

export function parseColorMode(value: string | undefined | null): ColorMode {
  return (COLOR_MODES as readonly string[]).includes(value ?? '') ? (value as ColorMode) : 'system';
}

/** The `Set-Cookie` value that remembers a colour mode for a year (SameSite=Lax, whole site). */
export function colorModeCookie(mode: ColorMode): string {
  return `${COLOR_MODE_COOKIE}=${mode}; Max-Age=${COLOR_MODE_MAX_AGE}; Path=/; SameSite=Lax`;
}

/** `<meta name="color-scheme">` for a mode: lets the browser pick matching scrollbars and form controls. */
export function colorSchemeFor(mode: ColorMode): string {
  return mode === 'system' ? 'light dark' : mode;
}

const listeners = new Set<() => void>();

/**
 * Switches the mode on the client at once: the `data-color-mode` attribute (the CSS does the
 * rest), the color-scheme meta and the cookie the next server render reads.
 */
export function applyColorMode(mode: ColorMode): void {
  const root = document.documentElement;
  root.dataset.colorMode = mode;
  document.querySelector('meta[name="color-scheme"]')?.setAttribute('content', colorSchemeFor(mode));
  document.cookie = colorModeCookie(mode);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The mode in force: the server's (from the cookie) while rendering, the document's afterwards. */
export function useColorMode(serverMode: ColorMode): ColorMode {
  return useSyncExternalStore(
    subscribe,
    () => parseColorMode(document.documentElement.dataset.colorMode),
    () => serverMode,
  );
}
