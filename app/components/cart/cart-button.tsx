import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { CartIcon } from '../ui/icons';
import { badgeText, onCartCount } from '~/lib/cart-count';

export const CART_PATH = '/cart';

/**
 * The header cart link with its item count. The server renders it without a number (the
 * page may be a cached copy shared by every visitor); the count arrives as an announcement:
 * from the account provider's `GET /v1/visitor` after hydration and each navigation, and
 * from add-to-cart and the cart page.
 */
export function CartButton() {
  const t = useT();
  const locale = useLocale();
  const [count, setCount] = useState<number | null>(null);

  useEffect(() => onCartCount(setCount), []);

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
