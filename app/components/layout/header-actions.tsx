import { CurrencyPicker } from '../catalog/currency-picker';
import { HeaderSearch } from '../catalog/header-search';
import { AccountButton } from '../account/account-button';
import { CartButton } from '../cart/cart-button';

/**
 * The right-hand end of the header: product search and the display currency (on phones the
 * currency moves into the menu drawer) and the cart (count fetched by the browser) and the account button; each should
 * be a compact control at least 44px tall on phones.
 */
export function HeaderActions() {
  return (
    <div className="header-actions">
      <HeaderSearch />
      <CurrencyPicker variant="header" />
      <CartButton />
      <AccountButton />
    </div>
  );
}
