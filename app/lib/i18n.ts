import { useRouteLoaderData } from 'react-router';
import { translator, type Translate } from '../../i18n';
import { DEFAULT_LOCALE, type Locale } from '../../i18n/locales';

/** The locale of the page being shown, from the root loader. */
export function useLocale(): Locale {
  const data = useRouteLoaderData('root') as { locale?: Locale } | undefined;
  return data?.locale ?? DEFAULT_LOCALE;
}

export function useT(): Translate {
  return translator(useLocale());
}

/** Prefixes an app path with the current locale: localePath('en', '/faq') -> '/en/faq'. */
export function localePath(locale: Locale, path: string): string {
  return `/${locale}${path === '/' ? '/' : path}`;
}
