import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DutiesView } from '../../../server/domains/duties/duties.schemas';
import type { AmountView } from '../../../server/shared/money.schemas';
import type { Currency } from '../../../server/shared/money';
import { PAY_STATUS } from '../../../server/shared/order-status';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { imageAt } from '../catalog/image';
import { DutiesRow } from './duties-row';
import { Money } from './money';

/** Which currencies a server view (confirm quote or placed order) is in. */
type CurrencyView = { currency: Currency; display_currency: Currency };

export function AmountText({ amount, view, strong }: { amount: AmountView; view: CurrencyView; strong?: boolean }) {
  return (
    <Money
      amountMinor={amount.amount_minor}
      currency={view.currency}
      display={{ amountMinor: amount.display_amount_minor, currency: view.display_currency }}
      strong={strong}
    />
  );
}

interface SummaryLine {
  sku_id: number;
  product_id: number;
  name: string;
  properties: string | null;
  image: string | null;
  quantity: number;
  unit_price: AmountView;
  line_total: AmountView;
}

/** The lines of a quote or an order: picture, name, properties, unit price, quantity and line total. */
export function OrderLines({ lines, view, testId }: { lines: SummaryLine[]; view: CurrencyView; testId?: string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <ul className="line-list">
      {lines.map((line) => (
        <li className="line" key={line.sku_id} data-testid={testId}>
          <span className="line__image">
            {line.image ? (
              <img src={imageAt(line.image, 160)} alt="" width={88} height={88} loading="lazy" decoding="async" />
            ) : null}
          </span>
          <div className="line__body">
            <Link className="line__name" to={localePath(locale, `/product/${line.product_id}`)}>
              {line.name}
            </Link>
            {line.properties ? <p className="line__props">{line.properties}</p> : null}
            <p className="line__unit">
              <AmountText amount={line.unit_price} view={view} />
            </p>
          </div>
          <div className="line__controls">
            <span className="line__qty">{t('confirm.qty', { count: line.quantity })}</span>
            <p className="line__total">
              <AmountText amount={line.line_total} view={view} strong />
            </p>
          </div>
        </li>
      ))}
    </ul>
  );
}

type PriceView = { product_price: AmountView; shipping_fee: AmountView; discount: AmountView };

/**
 * SPEC section 2's order info rows (product price, shipping fee, discount) inside a
 * `summary-list`; the discount row is there even when there is none (0). A parcel abroad adds
 * the duties row (`duties`). `shippingNote` replaces the fee while it cannot be known yet (no
 * address chosen).
 */
export function PriceRows({
  price,
  view,
  shippingNote,
  duties,
}: {
  price: PriceView;
  view: CurrencyView;
  shippingNote?: ReactNode;
  duties?: DutiesView | null;
}) {
  const t = useT();
  return (
    <>
      <div>
        <dt>{t('confirm.productPrice')}</dt>
        <dd data-testid="order-product-price">
          <AmountText amount={price.product_price} view={view} />
        </dd>
      </div>
      <div>
        <dt>{t('confirm.shippingFee')}</dt>
        <dd data-testid="order-shipping-fee">
          {shippingNote ??
            (price.shipping_fee.amount_minor === 0 ? (
              <span className="money__charged">{t('confirm.free')}</span>
            ) : (
              <AmountText amount={price.shipping_fee} view={view} />
            ))}
        </dd>
      </div>
      <div className={price.discount.amount_minor > 0 ? 'summary-list__discount' : undefined}>
        <dt>{t('confirm.discount')}</dt>
        <dd data-testid="order-discount">
          {price.discount.amount_minor > 0 ? (
            <span className="summary-list__minus" aria-hidden="true">
              −
            </span>
          ) : null}
          <AmountText amount={price.discount} view={view} />
        </dd>
      </div>
      {duties ? <DutiesRow duties={duties} view={view} /> : null}
    </>
  );
}

/**
 * What an order's total is called: 'Total paid' only once the buyer paid it, 'Amount due' while
 * the order waits for the payment, and plain 'Total' before the order exists (`payStatus`
 * undefined) or after it was cancelled unpaid.
 */
export function totalLabel(payStatus: number | undefined) {
  if (payStatus === PAY_STATUS.paid) return 'confirm.totalPaid';
  return payStatus === PAY_STATUS.pending ? 'confirm.totalDue' : 'confirm.total';
}

/**
 * SPEC section 2's four order info lines: product price, shipping fee, discount and the total,
 * named by `totalLabel` from the order's pay status (none for a quote).
 */
export function OrderInfo({
  price,
  view,
  payStatus,
  shippingNote,
  duties,
}: {
  price: PriceView & { total: AmountView };
  view: CurrencyView;
  payStatus?: number;
  shippingNote?: ReactNode;
  duties?: DutiesView | null;
}) {
  const t = useT();
  return (
    <dl className="summary-list" data-testid="order-info">
      <PriceRows price={price} view={view} shippingNote={shippingNote} duties={duties} />
      <div className="summary-list__total">
        <dt>{t(totalLabel(payStatus))}</dt>
        <dd data-testid="order-total">
          <AmountText amount={price.total} view={view} strong />
        </dd>
      </div>
    </dl>
  );
}
