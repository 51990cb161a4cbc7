export const LOCALES = ['zh-cn', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-cn';
/** The UI falls back to English for any locale that is not Chinese (SPEC section 4). */
export const FALLBACK_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Maps a free-form language tag ('zh', 'zh-CN', 'en-US', 'zh-cn') to one of ours.
 * Returns undefined for tags we do not serve so callers can try the next source.
 */
export function normalizeLocale(tag: string | undefined | null): Locale | undefined {
  if (!tag) return undefined;
  const lower = tag.trim().toLowerCase();
  if (lower.startsWith('zh')) return 'zh-cn';
  if (lower.startsWith('en')) return 'en';
  return undefined;
}

/** Picks the first supported language from an Accept-Language header, by q-weight. */
export function localeFromAcceptLanguage(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, weight: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.weight - a.weight);
  for (const { tag } of ranked) {
    const locale = normalizeLocale(tag);
    if (locale) return locale;
  }
  return undefined;
}

export type LocalizedText = Record<Locale, string>;

export function pickText(text: LocalizedText | null | undefined, locale: Locale): string {
  if (!text) return '';
  return text[locale] || text[FALLBACK_LOCALE] || text[DEFAULT_LOCALE] || '';
}
