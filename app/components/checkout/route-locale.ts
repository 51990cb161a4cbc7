import type { Locale } from '../../../i18n/locales';

/** The locale of a `/:locale/...` route (the locale layout has already refused others). */
export function routeLocale(params: { locale?: string }): Locale {
  return params.locale === 'en' ? 'en' : 'zh-cn';
}
