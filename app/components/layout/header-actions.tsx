import { CurrencyPicker } from '../catalog/currency-picker';
import { HeaderSearch } from '../catalog/header-search';
import { AccountButton } from '../account/account-button';

/**
 * The right-hand end of the header: product search and the display currency (on phones the
 * currency moves into the menu drawer) and the account button. The cart joins later; each should
 * be a compact control at least 44px tall on phones.
 */
export function HeaderActions() {
  return (
    <div className="header-actions">
      <HeaderSearch />
      <CurrencyPicker variant="header" />
      <AccountButton />
    </div>
  );
}
