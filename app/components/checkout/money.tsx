import type { PaidWithView } from '../../../server/domains/orders/orders.schemas';
import type { Locale } from '../../../i18n/locales';
import { formatPrice, type Currency } from '../../../server/shared/money';
import { displayPrice, priceStyleFor, useDisplayCurrency } from '~/lib/currency';
import { useLocale, useT } from '~/lib/i18n';

/**
 * An amount as checkout shows it: what is charged (the settlement currency) first, then,
 * when the buyer picked another display currency, the converted guide marked '≈'.
 * `display` is the server's frozen conversion (confirm and order views); without it the
 * page's current rates are used.
 */
export function Money({
  amountMinor,
  currency,
  display,
  className = '',
  strong = false,
}: {
  amountMinor: number;
  currency?: Currency;
  display?: { amountMinor: number; currency: Currency } | null;
  className?: string;
  strong?: boolean;
}) {
  const locale = useLocale();
  const t = useT();
  const site = useDisplayCurrency();
  const settlement = currency ?? site.settlement;
  const style = priceStyleFor(locale);
  const charged = formatPrice({ amountMinor, currency: settlement }, style);
  let guide: string | null = null;
  if (display && display.currency !== settlement) guide = formatPrice(display, style);
  else if (!display && site.currency !== settlement) guide = displayPrice(amountMinor, site, locale).text;
  return (
    <span className={`money${strong ? ' money--strong' : ''} ${className}`.trim()}>
      <span className="money__charged">{charged}</span>
      {guide ? (
        <span className="money__guide">
          <span aria-hidden="true">≈ </span>
          <span className="sr-only">{t('price.approximately')} </span>
          {guide}
        </span>
      ) : null}
    </span>
  );
}

/** What the gateway took for an order, in the page's price style ('$9.86', '9.86美元'). */
export function paidAmountText(paid: PaidWithView, locale: Locale): string {
  return formatPrice(
    { amountMinor: paid.charged_amount_minor, currency: paid.charged_currency },
    priceStyleFor(locale),
  );
}
