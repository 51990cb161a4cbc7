import { Link, NavLink, useLocation } from 'react-router';
import type { MessageKey } from '../../../i18n';
import type { Locale } from '../../../i18n/locales';
import { localePath, useLocale, useT } from '~/lib/i18n';

/** The five entries of the top navigation (SPEC section 2), in order. */
export const NAV_ITEMS: readonly { label: MessageKey; path: string }[] = [
  { label: 'nav.shop', path: '/' },
  { label: 'nav.videos', path: '/videos' },
  { label: 'nav.ourStory', path: '/our-story' },
  { label: 'nav.faq', path: '/faq' },
  { label: 'nav.contactUs', path: '/contact-us' },
];

/** 'Shop' covers the home page exactly, search results and every product and category page. */
export function isShopPath(pathname: string, locale: Locale): boolean {
  const rest = pathname.slice(locale.length + 1) || '/';
  return rest === '/' || rest === '/search' || rest === '/product' || rest.startsWith('/product/');
}

/** The top navigation; `variant` only changes the styling (inline bar or drawer list). */
export function MainNav({ variant, id }: { variant: 'bar' | 'drawer'; id?: string }) {
  const t = useT();
  const locale = useLocale();
  const { pathname } = useLocation();
  const linkClass = `nav-link nav-link--${variant}`;
  return (
    <nav className={`main-nav main-nav--${variant}`} aria-label={t('shell.mainNav')} id={id}>
      <ul role="list">
        {NAV_ITEMS.map((item) => (
          <li key={item.path}>
            {item.path === '/' ? (
              <Link
                to={localePath(locale, '/')}
                className={linkClass}
                aria-current={isShopPath(pathname, locale) ? 'page' : undefined}
              >
                {t(item.label)}
              </Link>
            ) : (
              <NavLink
                to={localePath(locale, item.path)}
                className={({ isPending }) => (isPending ? `${linkClass} is-pending` : linkClass)}
              >
                {t(item.label)}
              </NavLink>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
