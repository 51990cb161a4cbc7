import { useEffect, useRef, useState } from 'react';
import { Link, useRevalidator } from 'react-router';
import { api } from '~/lib/api-client';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { AlertCircleIcon, CheckCircleIcon, ClockIcon } from './icons';
import { DutiesNote } from './duties-row';
import { AmountText } from './order-summary';
import { paidAmountText } from './money';
import type { OrderDetail } from '../../../server/domains/orders/orders.schemas';
import type { PaymentStatusView as PayStatus } from '../../../server/domains/payments/payments.schemas';
import { ORDER_STATUS, PAY_STATUS } from '../../../server/shared/order-status';

const POLL_MS = 1500;
/** After this long without a settled answer the page says so instead of spinning on. */
const POLL_LIMIT_MS = 60_000;

type Outcome = 'checking' | 'success' | 'fail' | 'pending' | 'cancelled';

/** Settled when the order is paid or cancelled, or the attempt failed; the fail page (the gateway's decline) settles at once. */
function outcomeOf(status: PayStatus, expected: 'success' | 'fail'): Outcome {
  if (status.pay_status === PAY_STATUS.paid) return 'success';
  if (status.order_status === ORDER_STATUS.cancelled) return 'cancelled';
  if (
    status.payment_status === 'failed' ||
    status.payment_status === 'refunded' ||
    status.payment_status === 'refund_pending'
  )
    return 'fail';
  if (expected === 'fail') return 'fail';
  return 'checking';
}

/**
 * /{locale}/result/success and /result/fail, where the payment page sends the buyer back.
 * The gateway's webhook may arrive a moment later, so the page polls
 * `GET /v1/pay/PayStatus/{id}` until the order is paid or the attempt failed; a failure
 * offers to try again.
 */
export function ResultPage({
  order,
  initial,
  expected,
}: {
  order: OrderDetail;
  initial: PayStatus;
  expected: 'success' | 'fail';
}) {
  const t = useT();
  const locale = useLocale();
  const [outcome, setOutcome] = useState<Outcome>(() => outcomeOf(initial, expected));
  const { revalidate } = useRevalidator();
  const reloaded = useRef(false);
  // Paid while the page polled: load the order once more for what the gateway charged (once:
  // an order marked paid without a payment row has none to show).
  const paidUnseen = outcome === 'success' && order.paid_with === null;
  useEffect(() => {
    if (!paidUnseen || reloaded.current) return;
    reloaded.current = true;
    void revalidate();
  }, [paidUnseen, revalidate]);

  useEffect(() => {
    if (outcome !== 'checking') return;
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout>;
    let stopped = false;
    const poll = async () => {
      try {
        const status = await api<PayStatus>(`/pay/PayStatus/${order.id}`, { locale });
        const next = outcomeOf(status, expected);
        if (next !== 'checking') return setOutcome(next);
      } catch {
        // A dropped request is retried on the next tick.
      }
      if (stopped) return;
      if (Date.now() - started > POLL_LIMIT_MS) return setOutcome('pending');
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [outcome, order.id, locale, expected]);

  const detail = localePath(locale, `/my/order/${order.id}`);
  const retry = `${localePath(locale, '/order/pay')}?order_id=${order.id}`;
  const view = {
    checking: {
      icon: <span className="spinner" aria-hidden="true" />,
      title: t('result.checking'),
      text: t('result.checkingHint'),
    },
    success: {
      icon: <CheckCircleIcon size={44} />,
      title: t('result.successTitle'),
      text: t('result.successText', { orderNo: order.order_no }),
    },
    fail: {
      icon: <AlertCircleIcon size={44} />,
      title: t('result.failTitle'),
      text: t('result.failText', { orderNo: order.order_no }),
    },
    pending: { icon: <ClockIcon size={44} />, title: t('result.pendingTitle'), text: t('result.pendingText') },
    cancelled: { icon: <AlertCircleIcon size={44} />, title: t('result.failTitle'), text: t('result.cancelledText') },
  }[outcome];
  const tone = outcome === 'success' ? 'success' : outcome === 'fail' || outcome === 'cancelled' ? 'fail' : 'waiting';

  return (
    <div className="container checkout-page">
      <section
        className={`checkout-card result-card result-card--${tone}`}
        aria-live="polite"
        data-testid="payment-result"
        data-outcome={outcome}
      >
        <span className="result-card__icon">{view.icon}</span>
        <h1 className="result-card__title">{view.title}</h1>
        <p className="result-card__text">{view.text}</p>
        {outcome === 'success' && order.paid_with ? (
          <p className="pay-card__amount" data-testid="result-paid-with">
            <strong className="money money--strong">{paidAmountText(order.paid_with, locale)}</strong>
            <span className="amount-note">{t('result.paidWith', { method: order.paid_with.method_name })}</span>
          </p>
        ) : outcome === 'success' ? (
          <p className="pay-card__amount">
            <AmountText amount={order.total} view={order} strong />
          </p>
        ) : null}
        {order.duties ? <DutiesNote duties={order.duties} view={order} /> : null}
        <div className="result-card__actions">
          {outcome === 'fail' ? (
            <Link className="button button--primary" to={retry} data-testid="result-retry">
              {t('result.retry')}
            </Link>
          ) : null}
          <Link
            className={`button ${outcome === 'success' ? 'button--primary' : 'button--secondary'}`}
            to={detail}
            data-testid="result-order"
          >
            {t('result.viewOrder')}
          </Link>
          <Link className="button button--secondary" to={localePath(locale, '/')}>
            {t('result.continue')}
          </Link>
        </div>
      </section>
    </div>
  );
}
