import { displayPrice, useDisplayCurrency } from '~/lib/currency';
import { useLocale } from '~/lib/i18n';

/**
 * A settlement-currency amount in the buyer's display currency, '≈' when converted.
 * Stand-in with the props of the shared catalogue Price (components/catalog/price.tsx)
 * until that one is committed; then this file goes and the import switches.
 */
export function Price({ amountMinor }: { amountMinor: number; size?: 'sm' | 'md' | 'lg' }) {
  const { text, approximate } = displayPrice(amountMinor, useDisplayCurrency(), useLocale());
  return (
    <span className="price">
      {approximate ? <span className="price__approx">≈</span> : null}
      {text}
    </span>
  );
}
