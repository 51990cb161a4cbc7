import { useEffect, useRef, useState } from 'react';
import { isRouteErrorResponse, Link, useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import type { AdminAfterSaleDetail } from '../../../server/domains/after-sales/after-sales.schemas';
import { imageAt } from '~/components/catalog/image';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useCan, useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatDateTime, formatMoney } from '../lib/format';
import { ORDER_STATUS_LABELS, REFUND_STATE_LABELS, orderStatusTone, refundTone } from '../lib/order-labels';
import type { MessageKey } from '../../../i18n';
import { ErrorNotice, Notice, PageHeader, Pill } from '../components/ui';
import { CaseActions, useVisibleMoves } from '../components/after-sale-actions';
import { CasePhotos } from '../components/after-sale-photos';
import { AfterSaleCard, CASE_TYPE_LABELS, CaseStatePill, TimeLeft } from '../components/after-sale-parts';

/**
 * One after-sale case (docs/console.md, "After-sale desk"): what the buyer asked for and why,
 * with their photos; the order and the buyer's other cases; the timeline and refunds; and the
 * moves the case's state and the member's role allow.
 */
export async function clientLoader({ params, request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const detail = await adminApi<AdminAfterSaleDetail>(`/after-sales/${params.id}`, { signal: request.signal });
  return { detail };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

/** While the payment provider has a refund, the page asks again this often (the outbox answers within seconds). */
const REFUND_POLL_MS = 1_500;
const REFUND_POLL_TRIES = 40;

const ACTOR_LABELS: Record<string, MessageKey> = {
  buyer: 'console.afterSales.actor.buyer',
  operator: 'console.afterSales.actor.operator',
  system: 'console.afterSales.actor.system',
  payment: 'console.afterSales.actor.payment',
};

export default function AfterSaleDetailPage() {
  const { detail } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const can = useCan();
  const revalidator = useRevalidator();
  const [done, setDone] = useState<string | null>(null);
  const money = (minor: number) => formatMoney(minor, detail.currency, locale);
  const refresh = async (message: string) => {
    setDone(message);
    await revalidator.revalidate();
  };

  // A refund with the payment provider settles the case within seconds: follow it (not one waiting for a second member).
  const refundPending =
    detail.state === 'refunding' && !detail.refunds.some((refund) => refund.status === 'awaiting_approval');
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (!refundPending) return;
    let tries = 0;
    const timer = window.setInterval(() => {
      tries += 1;
      if (tries > REFUND_POLL_TRIES) window.clearInterval(timer);
      else void revalidate.current();
    }, REFUND_POLL_MS);
    return () => window.clearInterval(timer);
  }, [refundPending, detail.id]);

  const hasWanted = detail.lines.some((line) => line.wanted);
  const hasReceived = detail.lines.some((line) => line.accepted_quantity !== null);
  const refunds = detail.type !== 30;
  const visible = useVisibleMoves(detail);
  const deadline = detail.deadline
    ? t('console.afterSales.dueAt', { at: formatDateTime(detail.deadline, locale) })
    : undefined;

  return (
    <>
      <nav className="breadcrumbs" aria-label={t('console.breadcrumbs')}>
        <Link to="/admin/after-sales">{t('console.nav.afterSales')}</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page" className="mono">
          {detail.case_no}
        </span>
      </nav>
      <PageHeader
        title={t('console.afterSales.case.title', { number: detail.case_no })}
        actions={visible.any ? <CaseActions detail={detail} onChanged={refresh} /> : null}
      >
        <div className="pill-row">
          <Pill>{t(CASE_TYPE_LABELS[detail.type])}</Pill>
          <CaseStatePill state={detail.state} />
          {detail.time_left_ms === null ? null : <TimeLeft ms={detail.time_left_ms} title={deadline} />}
          <span className="muted">
            {t('console.afterSales.case.requested', { at: formatDateTime(detail.created_at, locale) })}
          </span>
        </div>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      <NextStep detail={detail} />

      <div className="detail-grid">
        <div className="detail-grid__main">
          <AfterSaleCard title={t('console.afterSales.case.lines')}>
            <table className="data-table data-table--compact desk-lines">
              <thead>
                <tr>
                  <th scope="col">{t('console.afterSales.case.product')}</th>
                  <th scope="col" className="numeric">
                    {t('console.afterSales.case.quantity')}
                  </th>
                  {hasWanted ? <th scope="col">{t('console.afterSales.case.wanted')}</th> : null}
                  {hasReceived ? <th scope="col">{t('console.afterSales.case.received')}</th> : null}
                  {refunds ? (
                    <th scope="col" className="numeric">
                      {t('console.afterSales.case.refund')}
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {detail.lines.map((line) => (
                  <tr key={line.id}>
                    <td>
                      <span className="desk-product">
                        {line.image ? (
                          <img
                            className="desk-product__image"
                            src={imageAt(line.image, 96)}
                            alt=""
                            width={40}
                            height={40}
                            loading="lazy"
                          />
                        ) : (
                          <span className="desk-product__image" aria-hidden="true" />
                        )}
                        <span className="cell-stack">
                          <span>{line.name}</span>
                          {line.properties ? <span className="muted">{line.properties}</span> : null}
                        </span>
                      </span>
                    </td>
                    <td className="numeric">{line.quantity}</td>
                    {hasWanted ? <td>{line.wanted?.properties ?? '—'}</td> : null}
                    {hasReceived ? (
                      <td>
                        {line.accepted_quantity === null ? (
                          '—'
                        ) : (
                          <span className="cell-stack">
                            <span>
                              {t('console.afterSales.case.receivedCounts', {
                                accepted: line.accepted_quantity,
                                damaged: line.damaged_quantity ?? 0,
                              })}
                            </span>
                            {line.restocked ? (
                              <span className="muted">{t('console.afterSales.case.restocked')}</span>
                            ) : null}
                          </span>
                        )}
                      </td>
                    ) : null}
                    {refunds ? <td className="numeric">{money(line.refund.amount_minor)}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
            {refunds ? (
              <dl className="totals">
                <dt>{t('console.afterSales.case.estimate')}</dt>
                <dd>{money(detail.estimate.amount_minor)}</dd>
                {detail.approved ? (
                  <>
                    <dt className="totals__grand">{t('console.afterSales.case.approved')}</dt>
                    <dd className="totals__grand">{money(detail.approved.amount_minor)}</dd>
                  </>
                ) : null}
              </dl>
            ) : null}
            {detail.includes_shipping || detail.returnless ? (
              <p className="desk-flags">
                {detail.includes_shipping ? (
                  <Pill tone="info">{t('console.afterSales.case.includesShipping')}</Pill>
                ) : null}
                {detail.returnless ? <Pill tone="info">{t('console.afterSales.case.returnless')}</Pill> : null}
              </p>
            ) : null}
          </AfterSaleCard>

          <AfterSaleCard title={t('console.afterSales.case.request')}>
            <dl className="facts desk-request">
              <dt>{t('console.afterSales.case.reason')}</dt>
              <dd>
                <strong>{detail.reason_text}</strong>
              </dd>
              <dt>{t('console.afterSales.case.description')}</dt>
              <dd>
                {detail.description ? (
                  <p className="desk-request__text">{detail.description}</p>
                ) : (
                  <span className="muted">{t('console.afterSales.case.noDescription')}</span>
                )}
              </dd>
              <dt>{t('console.afterSales.case.photos')}</dt>
              <dd>
                {detail.photos.length > 0 ? (
                  <CasePhotos photos={detail.photos} />
                ) : (
                  <span className="muted">{t('console.afterSales.case.noPhotos')}</span>
                )}
              </dd>
              {detail.rejection_text ? (
                <>
                  <dt>{t('console.afterSales.case.rejection')}</dt>
                  <dd>{detail.rejection_text}</dd>
                </>
              ) : null}
              {detail.shop_message ? (
                <>
                  <dt>{t('console.afterSales.case.shopMessage')}</dt>
                  <dd>
                    <p className="desk-request__text">{detail.shop_message}</p>
                  </dd>
                </>
              ) : null}
            </dl>
          </AfterSaleCard>

          {detail.type !== 10 && detail.state !== 'requested' && detail.state !== 'rejected' ? (
            <AfterSaleCard title={t('console.afterSales.case.shipping')}>
              <dl className="facts">
                <dt>{t('console.afterSales.case.returnParcel')}</dt>
                <dd>
                  {detail.return_tracking_no ? (
                    <span>
                      {detail.return_carrier} <span className="mono">{detail.return_tracking_no}</span>
                    </span>
                  ) : detail.state === 'awaiting_parcel' ? (
                    <span className="muted">{t('console.afterSales.case.noReturnParcel')}</span>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </dd>
                {detail.return_address ? (
                  <>
                    <dt>{t('console.afterSales.case.returnAddress')}</dt>
                    <dd>{detail.return_address}</dd>
                  </>
                ) : null}
                {detail.exchange_shipment ? (
                  <>
                    <dt>{t('console.afterSales.case.replacement')}</dt>
                    <dd>
                      {detail.exchange_shipment.carrier_name}{' '}
                      <a
                        className="text-link mono"
                        href={detail.exchange_shipment.tracking_url}
                        target="_blank"
                        rel="noreferrer"
                      >
                        {detail.exchange_shipment.tracking_no}
                      </a>
                    </dd>
                  </>
                ) : null}
              </dl>
            </AfterSaleCard>
          ) : null}

          {detail.refunds.length > 0 ? (
            <AfterSaleCard title={t('console.afterSales.case.refunds')}>
              <ul className="refund-list">
                {detail.refunds.map((refund) => (
                  <li key={refund.id} className="refund-item">
                    <div className="refund-item__head">
                      <strong>{money(refund.amount.amount_minor)}</strong>
                      <Pill tone={refundTone(refund.status)}>
                        {REFUND_STATE_LABELS[refund.status]
                          ? t(REFUND_STATE_LABELS[refund.status]!)
                          : refund.status_text}
                      </Pill>
                      {refund.succeeded_at ? (
                        <span className="muted">
                          {t('console.afterSales.case.refundedAt', { at: formatDateTime(refund.succeeded_at, locale) })}
                        </span>
                      ) : null}
                    </div>
                  </li>
                ))}
              </ul>
            </AfterSaleCard>
          ) : null}

          <AfterSaleCard title={t('console.afterSales.case.timeline')}>
            <ol className="timeline">
              {detail.timeline.map((entry, index) => (
                <li key={index} className="timeline__item timeline__item--status">
                  <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time>
                  <span className="timeline__title">{entry.text}</span>
                  {entry.message ? <span className="timeline__detail desk-quote">{entry.message}</span> : null}
                  <span className="timeline__actor muted">
                    {ACTOR_LABELS[entry.actor] ? t(ACTOR_LABELS[entry.actor]!) : entry.actor}
                  </span>
                </li>
              ))}
            </ol>
          </AfterSaleCard>
        </div>

        <div className="detail-grid__side">
          <AfterSaleCard
            title={t('console.afterSales.case.order')}
            extra={
              can('orders:read') ? (
                <Link className="text-link" to={`/admin/orders/${detail.order_id}`}>
                  {t('console.afterSales.case.viewOrder')}
                </Link>
              ) : null
            }
          >
            <dl className="facts">
              <dt>{t('console.afterSales.col.order')}</dt>
              <dd className="mono">{detail.order_no}</dd>
              <dt>{t('console.afterSales.case.orderStatus')}</dt>
              <dd>
                <Pill tone={orderStatusTone(detail.order_status)}>
                  {ORDER_STATUS_LABELS[detail.order_status]
                    ? t(ORDER_STATUS_LABELS[detail.order_status]!)
                    : detail.order_status_text}
                </Pill>
              </dd>
              <dt>{t('console.afterSales.case.orderTotal')}</dt>
              <dd>{money(detail.order_total.amount_minor)}</dd>
              <dt>{t('console.afterSales.case.shippingFee')}</dt>
              <dd>{money(detail.shipping_fee.amount_minor)}</dd>
              <dt>{t('console.afterSales.case.refundable')}</dt>
              <dd>{money(detail.refundable.amount_minor)}</dd>
              <dt>{t('console.afterSales.case.windowEnds')}</dt>
              <dd>{formatDateTime(detail.window_ends_at, locale)}</dd>
            </dl>
          </AfterSaleCard>

          <AfterSaleCard
            title={t('console.afterSales.case.buyer')}
            extra={
              can('customers:read') ? (
                <Link className="text-link" to={`/admin/customers/${detail.buyer.id}`}>
                  {t('console.afterSales.case.viewCustomer')}
                </Link>
              ) : null
            }
          >
            <p className="cell-stack desk-buyer-card">
              <strong>{detail.buyer.username}</strong>
              <span>{detail.buyer.email}</span>
              <span className="muted">
                {t('console.afterSales.case.country')}: {detail.country_code}
              </span>
            </p>
            <h3 className="card__subtitle">{t('console.afterSales.case.otherCases')}</h3>
            {detail.buyer_cases.length === 0 ? (
              <p className="muted">{t('console.afterSales.case.noOtherCases')}</p>
            ) : (
              <ul className="plain-list desk-case-list">
                {detail.buyer_cases.map((other) => (
                  <li key={other.id}>
                    <Link className="table-link mono" to={`/admin/after-sales/${other.id}`}>
                      {other.case_no}
                    </Link>
                    <span className="muted">
                      {other.type_text} · {other.state_text}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </AfterSaleCard>
        </div>
      </div>
    </>
  );
}

/** What the case waits for, in one line under the header; and, for a member who may only look, that they may only look. */
function NextStep({ detail }: { detail: AdminAfterSaleDetail }) {
  const t = useConsoleT();
  const key = nextStepKey(detail);
  const anyMove = Object.values(detail.operator_can).some(Boolean);
  const visible = useVisibleMoves(detail);
  return (
    <p className={`desk-next${key === 'console.afterSales.next.finished' ? ' desk-next--done' : ''}`} role="note">
      <span>{t(key)}</span>
      {anyMove && !visible.any ? (
        <span className="muted">{t('console.afterSales.next.readOnly')}</span>
      ) : visible.refundByOther ? (
        <span className="muted">{t('console.afterSales.next.refundByOther')}</span>
      ) : null}
    </p>
  );
}

function nextStepKey(detail: AdminAfterSaleDetail): MessageKey {
  switch (detail.state) {
    case 'requested':
    case 'approved':
    case 'awaiting_parcel':
    case 'in_transit':
    case 'exchange_shipped':
      return `console.afterSales.next.${detail.state}`;
    case 'received':
      return detail.type === 30 ? 'console.afterSales.next.receivedExchange' : 'console.afterSales.next.receivedRefund';
    case 'refunding':
      return detail.refunds.some((refund) => refund.status === 'awaiting_approval')
        ? 'console.afterSales.next.awaitingApproval'
        : 'console.afterSales.next.refunding';
    case 'completed':
    case 'rejected':
    case 'cancelled':
    case 'closed':
      return 'console.afterSales.next.finished';
  }
}

/** A case the API refused (unknown, or the role may not read it): its words, and the way back to the queue. */
export function ErrorBoundary({ error }: { error: unknown }) {
  const t = useConsoleT();
  return (
    <>
      <nav className="breadcrumbs" aria-label={t('console.breadcrumbs')}>
        <Link to="/admin/after-sales">{t('console.nav.afterSales')}</Link>
      </nav>
      <PageHeader title={t('console.afterSales.title')} />
      {isRouteErrorResponse(error) ? (
        <p className="notice notice--error" role="alert">
          {error.status} {error.statusText}
        </p>
      ) : (
        <ErrorNotice error={error} />
      )}
      <Link className="button" to="/admin/after-sales">
        {t('console.afterSales.queue.open')}
      </Link>
    </>
  );
}
