import { Link, useLocation, useRouteLoaderData } from 'react-router';
import type { OrderCounts } from '../../../server/domains/orders/orders.schemas';
import { badgeText } from '~/lib/cart-count';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { ORDER_TABS, ORDER_TAB_COUNT, orderTabHref } from '~/lib/order-tabs';
import { LogOutIcon } from './account-icons';
import { useAccount } from './account-context';

/** What routes/account-area.tsx loads for the pages inside it. */
export interface AccountAreaData {
  counts: OrderCounts;
}

/** The order counts of the account area, for a page inside it (My Orders shows them on its tabs). */
export function useAccountAreaCounts(): OrderCounts | null {
  return useRouteLoaderData<AccountAreaData>('routes/account-area')?.counts ?? null;
}

/**
 * The account area's navigation: My Orders with SPEC section 2's status tabs and their counts,
 * the address book, the profile, and Log out. One list for every place it shows: the side of
 * the account pages (`page`: a column on wide screens, a row of chips on phones, where the
 * orders page has its own tabs), the header's account menu and the phone menu (`menu`).
 * `counts` is null while they load.
 */
export function AccountNav({ counts, variant }: { counts: OrderCounts | null; variant: 'page' | 'menu' }) {
  const t = useT();
  const locale = useLocale();
  const { logout } = useAccount();
  const { pathname, search } = useLocation();
  const status = new URLSearchParams(search).get('status');
  const ordersPath = localePath(locale, '/my/order');
  const at = (path: string) => (pathname === localePath(locale, path) ? 'page' : undefined);

  return (
    <nav className={`account-nav account-nav--${variant}`} aria-label={t('account.nav.label')}>
      <ul className="account-nav__list" role="list">
        <li>
          <Link
            to={ordersPath}
            className="account-nav__link"
            aria-current={pathname === ordersPath && !status ? 'page' : undefined}
          >
            {t('orders.title')}
          </Link>
          <ul className="account-nav__statuses" role="list">
            {ORDER_TABS.filter((tab) => tab !== 'all').map((tab) => {
              const count = counts?.[ORDER_TAB_COUNT[tab]] ?? 0;
              return (
                <li key={tab}>
                  <Link
                    to={orderTabHref(ordersPath, tab)}
                    className="account-nav__link account-nav__link--status"
                    aria-current={pathname === ordersPath && status === tab ? 'page' : undefined}
                    data-testid={`account-nav-${tab}`}
                  >
                    {t(`orders.tab.${tab}`)}
                    {count > 0 ? <span className="account-nav__count">{badgeText(count)}</span> : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </li>
        <li>
          <Link to={localePath(locale, '/my/address')} className="account-nav__link" aria-current={at('/my/address')}>
            {t('addressBook.title')}
          </Link>
        </li>
        <li>
          <Link to={localePath(locale, '/my/account')} className="account-nav__link" aria-current={at('/my/account')}>
            {t('account.nav.profile')}
          </Link>
        </li>
        <li>
          <button type="button" className="account-nav__link account-nav__logout" onClick={() => void logout()}>
            <LogOutIcon size={18} />
            {t('account.logout')}
          </button>
        </li>
      </ul>
    </nav>
  );
}
