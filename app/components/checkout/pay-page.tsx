import { useEffect } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { OrderDetail } from '../../../server/domains/orders/orders.schemas';
import type { PayMethodOption } from '../../../server/domains/payments/payments.schemas';
import { formatPrice, type Currency } from '../../../server/shared/money';
import { ORDER_STATUS } from '../../../server/shared/order-status';
import { priceStyleFor } from '~/lib/currency';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { useToast } from '../account/toast';
import { formatDate } from '~/lib/dates';
import { AmountText, PriceRows } from './order-summary';
import { ClockIcon, LockSmallIcon } from './icons';
import { BusyButton } from '../ui/busy-button';
import { PaymentMethodChoice } from './payment-methods';

/** /{locale}/order/pay?order_id=: what is being paid, how to pay it, and the button to the payment page. */
export function PayPage({
  order,
  methods,
  error,
}: {
  order: OrderDetail;
  methods: readonly PayMethodOption[];
  error?: string;
}) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const payable = order.status === ORDER_STATUS.pendingPayment;
  const detail = localePath(locale, `/my/order/${order.id}`);
  // What each method takes: the display amount where it charges the buyer's currency (ADR 0144).
  const charged = (currency: Currency) =>
    formatPrice(
      {
        amountMinor: currency === order.currency ? order.total.amount_minor : order.total.display_amount_minor,
        currency,
      },
      priceStyleFor(locale),
    );
  const shown = formatPrice(
    { amountMinor: order.total.display_amount_minor, currency: order.display_currency },
    priceStyleFor(locale),
  );
  const chargeLine = (currency: Currency): string | null => {
    if (order.display_currency === order.currency) return null;
    if (currency === order.display_currency)
      return t('pay.charge.yours', { code: currency, amount: charged(currency) });
    return t('pay.charge.other', { code: currency, amount: charged(currency), approx: shown });
  };
  const currencies = new Set(methods.map((option) => option.charge_currency));
  const [only] = currencies;
  const button = currencies.size === 1 && only ? t('pay.button', { amount: charged(only) }) : t('pay.continue');
  // Every method offered charges the buyer's own currency: the amount due is exact, not a guide.
  const exactIn = only !== undefined && currencies.size === 1 && only === order.display_currency ? only : null;

  useEffect(() => {
    if (error) toast.show(error, 'error');
  }, [error, toast]);

  return (
    <div className="container checkout-page">
      <section className="checkout-card pay-card" aria-labelledby="pay-title">
        <h1 className="checkout-title" id="pay-title">
          {t('pay.title')}
        </h1>
        <p className="checkout-summary__note">{t('pay.amount')}</p>
        <p className="pay-card__amount" data-testid="pay-amount">
          {exactIn && exactIn !== order.currency ? (
            <>
              <strong className="money money--strong">{charged(exactIn)}</strong>
              <span className="amount-note">{t('pay.amountSettles', { amount: charged(order.currency) })}</span>
            </>
          ) : (
            <AmountText amount={order.total} view={order} strong />
          )}
        </p>
        <dl className="summary-list">
          <div>
            <dt>{t('pay.orderNo')}</dt>
            <dd data-testid="pay-order-no">{order.order_no}</dd>
          </div>
          <PriceRows price={order.price} view={order} duties={order.duties} />
          <div>
            <dt>{t('order.detail.contact')}</dt>
            <dd>
              {order.contact.name} · {order.country}
            </dd>
          </div>
        </dl>
        {payable && methods.length === 0 ? (
          <p className="notice notice--warning" role="status" data-testid="pay-no-method">
            {t('pay.noMethod')}
          </p>
        ) : payable ? (
          <>
            <Form method="post" reloadDocument={false} className="pay-form">
              <PaymentMethodChoice
                methods={methods.map((option) => ({
                  method: option.method,
                  chargeLine: chargeLine(option.charge_currency),
                }))}
              />
              <BusyButton
                type="submit"
                className="button button--primary button--large button--block"
                busy={busy}
                data-testid="pay-button"
              >
                <LockSmallIcon size={18} />
                {busy ? t('pay.redirecting') : button}
              </BusyButton>
            </Form>
            <p className="secure-note">
              <LockSmallIcon size={14} />
              {t('pay.note')}
            </p>
            {order.payment_deadline ? (
              <p className="secure-note">
                <ClockIcon size={14} />
                {t('order.detail.payBy', { time: formatDate(order.payment_deadline, locale) })}
              </p>
            ) : null}
          </>
        ) : (
          <p className="notice notice--warning" role="status">
            {t('pay.notPayable')} {order.status_text}
          </p>
        )}
        <Link to={detail} className="checkout-summary__back">
          {t('pay.viewOrder')}
        </Link>
      </section>
    </div>
  );
}
