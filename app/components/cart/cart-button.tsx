import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { api } from '~/lib/api-client';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { CartIcon } from '../ui/icons';
import { badgeText, onCartCount } from './cart-count';

export const CART_PATH = '/cart';

/**
 * The header cart link with its item count. The server renders it without a number (the
 * page may be a cached anonymous copy shared by every visitor); the browser asks
 * `GET /v1/cart/count` after hydration and again after each navigation, and listens for
 * counts announced by add-to-cart and the cart page.
 */
export function CartButton() {
  const t = useT();
  const locale = useLocale();
  const { pathname } = useLocation();
  const [count, setCount] = useState<number | null>(null);

  useEffect(() => onCartCount(setCount), []);
  useEffect(() => {
    const controller = new AbortController();
    api<{ count: number }>('/cart/count', { locale, signal: controller.signal })
      .then((answer) => setCount(answer.count))
      .catch(() => undefined);
    return () => controller.abort();
  }, [locale, pathname]);

  const label = count ? t('cart.header.labelCount', { count }) : t('cart.header.label');
  return (
    <Link to={localePath(locale, CART_PATH)} className="cart-button" aria-label={label} data-testid="header-cart">
      <CartIcon size={22} />
      {count ? (
        <span className="cart-button__badge" data-testid="header-cart-count" aria-hidden="true">
          {badgeText(count)}
        </span>
      ) : null}
    </Link>
  );
}
