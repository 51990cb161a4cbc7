export const COLOR_MODES = ['light', 'dark', 'system'] as const;
export type ColorMode = (typeof COLOR_MODES)[number];
export const COLOR_MODE_COOKIE = 'color_mode';

export function parseColorMode(value: string | undefined): ColorMode {
  return (COLOR_MODES as readonly string[]).includes(value ?? '') ? (value as ColorMode) : 'system';
}
