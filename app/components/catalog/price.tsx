import { formatPrice } from '../../../server/shared/money';
import { displayPrice, priceStyleFor, useDisplayCurrency } from '~/lib/currency';
import { useLocale, useT } from '~/lib/i18n';

export interface PriceProps {
  /** The amount in minor units of the shop's settlement currency (12900 = CN¥129.00 when the shop settles in CNY). */
  amountMinor: number;
  className?: string;
  size?: 'sm' | 'md' | 'lg';
}

/**
 * A settlement-currency amount in the buyer's display currency (SPEC section 9's price
 * display): the symbol form on English pages ('$17.92'), the unit form on Chinese ones
 * ('17.92美元'). A converted amount is only a guide (the buyer is charged in the settlement
 * currency), so it is marked '≈' and says what will actually be charged.
 */
export function Price({ amountMinor, className = '', size = 'md' }: PriceProps) {
  const display = useDisplayCurrency();
  const locale = useLocale();
  const t = useT();
  const { text, approximate } = displayPrice(amountMinor, display, locale);
  const classes = `price price--${size}${approximate ? ' price--approx' : ''} ${className}`.trim();
  if (!approximate) {
    return <span className={classes}>{text}</span>;
  }
  const charged = formatPrice({ amountMinor, currency: display.settlement }, priceStyleFor(locale));
  const title = t('price.approxTitle', {
    currency: t(`currency.name.${display.currency}`),
    code: display.currency,
    amount: charged,
    settlement: display.settlement,
  });
  return (
    <span className={classes} title={title}>
      <span className="price__approx" aria-hidden="true">
        ≈
      </span>
      <span className="sr-only">{t('price.approximately')} </span>
      {text}
    </span>
  );
}
