import { Link } from 'react-router';
import type { AfterSaleSummary } from '../../../server/domains/after-sales/after-sales.schemas';
import type { OrderDetail, OrderExpress } from '../../../server/domains/orders/orders.schemas';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { OrderInfo, OrderLines } from '../checkout/order-summary';
import { ClockIcon, PackageIcon } from '../checkout/icons';
import { OrderActions } from './order-actions';
import { formatDate } from '~/lib/dates';
import { CheckoutCard } from '../checkout/checkout-card';
import { paidAmountText } from '../checkout/money';
import { OrderCases } from '../after-sales/case-list';

export type TrackingEvent = OrderExpress['events'][number];

/**
 * /{locale}/my/order/{id}: status and actions (Request after-sale among them), the order's
 * after-sale requests, address, items, price details, dates, notes, shipment with tracking, history.
 */
export function OrderDetailPage({
  order,
  events,
  canRequestAfterSale,
  cases,
}: {
  order: OrderDetail;
  events: TrackingEvent[];
  canRequestAfterSale: boolean;
  cases: AfterSaleSummary[];
}) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="container checkout-page">
      <Link to={localePath(locale, '/my/order')} className="order-back">
        ← {t('orders.back')}
      </Link>
      <header className="order-hero">
        <div>
          <h1 className="checkout-title">{t('order.detail.title')}</h1>
          <p className="checkout-head__intro">
            {t('order.detail.orderNo')} <span data-testid="detail-order-no">{order.order_no}</span>
          </p>
        </div>
        <span className={`order-status order-status--${order.status} order-status--large`} data-testid="detail-status">
          {order.status_text}
        </span>
      </header>
      {order.payment_deadline ? (
        <p className="notice notice--warning">
          <ClockIcon size={18} />
          {t('order.detail.payBy', { time: formatDate(order.payment_deadline, locale) })}
        </p>
      ) : null}
      <OrderActions order={order} canRequestAfterSale={canRequestAfterSale} />

      <div className="checkout-layout order-detail">
        <div className="checkout-main">
          {cases.length > 0 ? (
            <CheckoutCard id="detail-after-sales" title={t('afterSaleUi.order.casesTitle')}>
              <OrderCases cases={cases} />
            </CheckoutCard>
          ) : null}
          <CheckoutCard id="detail-address" title={t('confirm.address')}>
            <dl className="detail-list">
              <div>
                <dt>{t('order.detail.contact')}</dt>
                <dd>
                  {order.contact.name} <span className="address-summary__phone">{order.contact.phone}</span>
                </dd>
              </div>
              <div>
                <dt>{t('order.detail.country')}</dt>
                <dd>{order.country}</dd>
              </div>
              <div>
                <dt>{t('order.detail.address')}</dt>
                <dd>
                  {[order.region, order.address, order.postal_code]
                    .filter(Boolean)
                    .join(locale === 'zh-cn' ? ' ' : ', ')}
                </dd>
              </div>
            </dl>
          </CheckoutCard>

          <CheckoutCard id="detail-shipment" title={t('order.detail.shipment')} testId="detail-shipment">
            {order.shipment ? (
              <>
                <dl className="detail-list">
                  <div>
                    <dt>{t('order.detail.carrier')}</dt>
                    <dd>{order.shipment.carrier_name}</dd>
                  </div>
                  <div>
                    <dt>{t('order.detail.tracking')}</dt>
                    <dd>
                      {order.shipment.tracking_url ? (
                        <a href={order.shipment.tracking_url} target="_blank" rel="noreferrer noopener">
                          {order.shipment.tracking_no}
                        </a>
                      ) : (
                        order.shipment.tracking_no
                      )}
                    </dd>
                  </div>
                </dl>
                {events.length ? (
                  <ol className="timeline" data-testid="tracking-events">
                    {events.map((event, index) => (
                      <li
                        key={`${event.at}-${index}`}
                        className={`timeline__item${index === 0 ? ' timeline__item--current' : ''}`}
                      >
                        <span className="timeline__text">{event.description}</span>
                        <time className="timeline__time" dateTime={event.at}>
                          {formatDate(event.at, locale)}
                        </time>
                      </li>
                    ))}
                  </ol>
                ) : (
                  <p className="checkout-summary__note">{t('order.detail.noTracking')}</p>
                )}
              </>
            ) : (
              <p className="order-waiting">
                <PackageIcon size={20} />
                {t('order.detail.notShipped')}
              </p>
            )}
          </CheckoutCard>

          <CheckoutCard id="detail-items" title={t('order.detail.items')}>
            <OrderLines lines={order.items} view={order} />
          </CheckoutCard>
        </div>

        <aside className="checkout-main">
          <CheckoutCard id="detail-price" title={t('order.detail.priceDetails')}>
            <OrderInfo price={order.price} view={order} payStatus={order.pay_status} duties={order.duties} />
            {order.refunds.length > 0 ? (
              <ul className="order-refunds" data-testid="detail-refunds">
                {order.refunds.map((refund, index) => (
                  <li key={`${refund.refunded_at}-${index}`}>
                    {t('order.refundedOn', {
                      amount: refund.amount_text,
                      date: formatDate(refund.refunded_at, locale),
                    })}
                  </li>
                ))}
              </ul>
            ) : null}
          </CheckoutCard>
          <CheckoutCard id="detail-info" title={t('confirm.orderInfo')}>
            <dl className="detail-list detail-list--stacked">
              <div>
                <dt>{t('order.detail.orderDate')}</dt>
                <dd>{formatDate(order.created_at, locale)}</dd>
              </div>
              {order.paid_with ? (
                <div>
                  <dt>{t('order.detail.paidWith')}</dt>
                  <dd data-testid="detail-paid-with">
                    {t('order.detail.paidWithValue', {
                      amount: paidAmountText(order.paid_with, locale),
                      method: order.paid_with.method_name,
                    })}
                  </dd>
                </div>
              ) : null}
              <div>
                <dt>{t('order.detail.notes')}</dt>
                <dd data-testid="detail-notes">{order.notes || t('order.detail.noNotes')}</dd>
              </div>
            </dl>
          </CheckoutCard>
          <CheckoutCard id="detail-history" title={t('order.detail.history')}>
            <ol className="timeline" data-testid="status-history">
              {[...order.history].reverse().map((entry, index) => (
                <li
                  key={`${entry.at}-${index}`}
                  className={`timeline__item${index === 0 ? ' timeline__item--current' : ''}`}
                >
                  <span className="timeline__text">
                    {entry.status_text}
                    {entry.note && entry.note !== entry.status_text ? (
                      <span className="timeline__note"> · {entry.note}</span>
                    ) : null}
                  </span>
                  <time className="timeline__time" dateTime={entry.at}>
                    {formatDate(entry.at, locale)}
                  </time>
                </li>
              ))}
            </ol>
          </CheckoutCard>
        </aside>
      </div>
    </div>
  );
}
