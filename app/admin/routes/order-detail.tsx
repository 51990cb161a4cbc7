import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import {
  orderNoteBody,
  shipOrderBody,
  trackingEventBody,
  type AdminOrderDetail,
  type AdminRefundRow,
} from '../../../server/domains/orders/admin-orders.schemas';
import type { z } from 'zod';
import { adminApi, newIdempotencyKey, requireStaff } from '../lib/admin-api';
import { useCan, useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatDateTime, formatMoney, majorToMinor, minorToMajorText } from '../lib/format';
import {
  ORDER_STATUS_LABELS,
  PAY_STATUS_LABELS,
  PAYMENT_STATE_LABELS,
  REFUND_STATE_LABELS,
  orderStatusTone,
  payStatusTone,
  refundTone,
} from '../lib/order-labels';
import { ConfirmDialog, EmptyState, ErrorNotice, Notice, PageHeader, Pill, useAction, Field } from '../components/ui';
import { AfterSaleOrderCard, orderAfterSales } from '../components/after-sale-order-card';
import { OrderDutiesCard } from '../components/duties-parts';

interface Carrier {
  code: string;
  name: string;
}

export async function clientLoader({ params, request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const [order, carriers, afterSales] = await Promise.all([
    adminApi<AdminOrderDetail>(`/orders/${params.id}`, { signal: request.signal }),
    adminApi<Carrier[]>('/carriers', { signal: request.signal }),
    orderAfterSales(params.id, request.signal),
  ]);
  return { order, carriers, afterSales };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

export default function OrderDetailPage() {
  const { order, carriers, afterSales } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const can = useCan();
  const money = (minor: number) => formatMoney(minor, order.currency, locale);
  const [done, setDone] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const refresh = async (message: string) => {
    setDone(message);
    await revalidator.revalidate();
  };

  return (
    <>
      <nav className="breadcrumbs" aria-label={t('console.breadcrumbs')}>
        <Link to="/admin/orders">{t('console.nav.orders')}</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page" className="mono">
          {order.order_no}
        </span>
      </nav>
      <PageHeader title={t('console.order.title', { number: order.order_no })}>
        <div className="pill-row">
          <Pill tone={orderStatusTone(order.status)}>
            {ORDER_STATUS_LABELS[order.status] ? t(ORDER_STATUS_LABELS[order.status]!) : order.status_text}
          </Pill>
          <Pill tone={payStatusTone(order.pay_status)}>
            {PAY_STATUS_LABELS[order.pay_status] ? t(PAY_STATUS_LABELS[order.pay_status]!) : order.pay_status_text}
          </Pill>
          <span className="muted">{t('console.order.placed', { at: formatDateTime(order.created_at, locale) })}</span>
        </div>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}

      <div className="detail-grid">
        <div className="detail-grid__main">
          <Card title={t('console.order.lines')}>
            <table className="data-table data-table--compact">
              <thead>
                <tr>
                  <th scope="col">{t('console.order.product')}</th>
                  <th scope="col">SKU</th>
                  <th scope="col" className="numeric">
                    {t('console.order.quantity')}
                  </th>
                  <th scope="col" className="numeric">
                    {t('console.order.unitPrice')}
                  </th>
                  <th scope="col" className="numeric">
                    {t('console.order.lineTotal')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {order.lines.map((line) => (
                  <tr key={line.sku_id}>
                    <td>
                      <span className="cell-stack">
                        <span>{line.name}</span>
                        {line.properties ? <span className="muted">{line.properties}</span> : null}
                      </span>
                    </td>
                    <td className="mono">{line.sku_code}</td>
                    <td className="numeric">{line.quantity}</td>
                    <td className="numeric">{money(line.unit_price_minor)}</td>
                    <td className="numeric">{money(line.line_total_minor)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <dl className="totals">
              <dt>{t('console.order.goods')}</dt>
              <dd>{money(order.goods_minor)}</dd>
              <dt>{t('console.order.shipping')}</dt>
              <dd>{money(order.shipping_fee_minor)}</dd>
              {order.discount_minor ? (
                <>
                  <dt>{t('console.order.discount', { code: order.coupon_code ?? '' })}</dt>
                  <dd>−{money(order.discount_minor)}</dd>
                </>
              ) : null}
              {order.duties_minor ? (
                <>
                  <dt>{t('console.duties.total')}</dt>
                  <dd>{money(order.duties_minor)}</dd>
                </>
              ) : null}
              <dt className="totals__grand">{t('console.order.total')}</dt>
              <dd className="totals__grand">{money(order.total_minor)}</dd>
              {order.refunded_minor ? (
                <>
                  <dt>{t('console.order.refundedTotal')}</dt>
                  <dd>−{money(order.refunded_minor)}</dd>
                </>
              ) : null}
            </dl>
            {order.buyer_notes ? (
              <p className="buyer-note">
                <strong>{t('console.order.buyerNote')}</strong> {order.buyer_notes}
              </p>
            ) : null}
          </Card>

          <OrderDutiesCard order={order} />

          <Card title={t('console.order.payments')}>
            {order.payments.length === 0 ? (
              <p className="muted">{t('console.order.noPayments')}</p>
            ) : (
              <table className="data-table data-table--compact">
                <thead>
                  <tr>
                    <th scope="col">{t('console.order.provider')}</th>
                    <th scope="col">{t('console.order.reference')}</th>
                    <th scope="col">{t('console.orders.col.status')}</th>
                    <th scope="col" className="numeric">
                      {t('console.order.amount')}
                    </th>
                    <th scope="col" className="numeric">
                      {t('console.order.refundable')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {order.payments.map((payment) => (
                    <tr key={payment.id}>
                      <td>{payment.provider}</td>
                      <td className="mono">{payment.charge_ref ?? payment.provider_ref ?? '—'}</td>
                      <td>
                        <Pill
                          tone={
                            payment.status === 'succeeded'
                              ? 'success'
                              : payment.status === 'failed'
                                ? 'danger'
                                : 'neutral'
                          }
                        >
                          {PAYMENT_STATE_LABELS[payment.status]
                            ? t(PAYMENT_STATE_LABELS[payment.status]!)
                            : payment.status}
                        </Pill>
                      </td>
                      <td className="numeric">
                        {formatMoney(payment.amount_minor, payment.currency, locale)}
                        {payment.charged_currency === payment.currency ? null : (
                          <span className="muted" data-testid="payment-charged">
                            {' '}
                            ·{' '}
                            {t('console.order.charged', {
                              amount: formatMoney(payment.charged_amount_minor, payment.charged_currency, locale),
                            })}
                          </span>
                        )}
                      </td>
                      <td className="numeric">{formatMoney(payment.refundable_minor, payment.currency, locale)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h3 className="card__subtitle">{t('console.order.refunds')}</h3>
            {order.refunds.length === 0 ? (
              <p className="muted">{t('console.order.noRefunds')}</p>
            ) : (
              <ul className="refund-list">
                {order.refunds.map((refund) => (
                  <RefundItem key={refund.id} refund={refund} onChanged={refresh} />
                ))}
              </ul>
            )}
          </Card>

          <Card title={t('console.order.timeline')}>
            {order.timeline.length === 0 ? <p className="muted">{t('console.order.noTimeline')}</p> : null}
            <ol className="timeline">
              {order.timeline.map((entry, index) => (
                <li key={index} className={`timeline__item timeline__item--${entry.kind}`}>
                  <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time>
                  <span className="timeline__title">{entry.title}</span>
                  {entry.detail ? <span className="timeline__detail">{entry.detail}</span> : null}
                  <span className="timeline__actor muted">{entry.actor}</span>
                </li>
              ))}
            </ol>
          </Card>

          <Notes order={order} onChanged={refresh} />
        </div>

        <div className="detail-grid__side">
          <Actions order={order} carriers={carriers} onChanged={refresh} />
          {afterSales ? <AfterSaleOrderCard cases={afterSales} /> : null}
          <Card title={t('console.order.buyer')}>
            <p className="cell-stack">
              <strong>{order.buyer.username}</strong>
              <span>{order.buyer.email}</span>
            </p>
            {can('customers:read') ? (
              <Link className="text-link" to={`/admin/customers/${order.buyer.id}`}>
                {t('console.order.viewCustomer')}
              </Link>
            ) : null}
          </Card>
          <Card title={t('console.order.address')}>
            <address className="address">
              {order.address.contact_name}
              <br />
              {order.address.contact_phone}
              <br />
              {order.address.detail}
              <br />
              {[order.address.region, order.address.postal_code].filter(Boolean).join(' ')}
              <br />
              {order.address.country} ({order.address.country_code})
            </address>
          </Card>
          {order.shipment ? (
            <Card title={t('console.order.shipment')}>
              <dl className="facts">
                <dt>{t('console.ship.carrier')}</dt>
                <dd>{order.shipment.carrier_name}</dd>
                <dt>{t('console.ship.tracking')}</dt>
                <dd className="mono">{order.shipment.tracking_no}</dd>
                <dt>{t('console.order.shippedAt')}</dt>
                <dd>{formatDateTime(order.shipment.shipped_at, locale)}</dd>
                <dt>{t('console.order.deliveredAt')}</dt>
                <dd>{formatDateTime(order.shipment.delivered_at, locale)}</dd>
              </dl>
            </Card>
          ) : null}
        </div>
      </div>
    </>
  );
}

function Card({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  const headingId = `${id ?? title.replace(/\W+/g, '-').toLowerCase()}-title`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 className="card__title" id={headingId}>
        {title}
      </h2>
      {children}
    </section>
  );
}

type Changed = (message: string) => Promise<void>;

/** What the member may do to the order now: the order's state allows it and their role grants it. */
function Actions({ order, carriers, onChanged }: { order: AdminOrderDetail; carriers: Carrier[]; onChanged: Changed }) {
  const t = useConsoleT();
  const can = useCan();
  const showShip = order.can.ship && can('orders:fulfil');
  const showTracking = order.can.add_tracking && can('orders:fulfil');
  const showDeliver = order.can.deliver && can('orders:fulfil');
  const showCancel = order.can.cancel && can('orders:cancel');
  const showRefund = order.can.refund && can('payments:refund') && order.refundable_minor > 0;
  if (!showShip && !showTracking && !showDeliver && !showCancel && !showRefund) return null;
  return (
    <section className="card card--actions" aria-labelledby="order-actions-title">
      <h2 className="card__title" id="order-actions-title">
        {t('console.order.actions')}
      </h2>
      {showShip ? <ShipForm order={order} carriers={carriers} onChanged={onChanged} /> : null}
      {showTracking ? <TrackingForm order={order} onChanged={onChanged} /> : null}
      {showDeliver || showCancel ? (
        <div className="button-row">
          {showDeliver ? <DeliverButton order={order} onChanged={onChanged} /> : null}
          {showCancel ? <CancelButton order={order} onChanged={onChanged} /> : null}
        </div>
      ) : null}
      {showRefund ? <RefundForm order={order} onChanged={onChanged} /> : null}
    </section>
  );
}

function ShipForm({
  order,
  carriers,
  onChanged,
}: {
  order: AdminOrderDetail;
  carriers: Carrier[];
  onChanged: Changed;
}) {
  const t = useConsoleT();
  const form = useForm<z.input<typeof shipOrderBody>, unknown, z.output<typeof shipOrderBody>>({
    resolver: zodResolver(shipOrderBody),
    defaultValues: { carrier_code: carriers[0]?.code ?? '', tracking_no: '' },
  });
  const ship = useAction(async (body: z.output<typeof shipOrderBody>) => {
    await adminApi(`/orders/${order.id}/ship`, { body });
    await onChanged(t('console.ship.done'));
  });
  const errors = form.formState.errors;
  return (
    <form className="stack" onSubmit={form.handleSubmit((body) => ship.act(body))} noValidate>
      <h3 className="card__subtitle">{t('console.ship.title')}</h3>
      <div className="field">
        <label htmlFor="ship-carrier">{t('console.ship.carrier')}</label>
        <select id="ship-carrier" {...form.register('carrier_code')}>
          {carriers.map((carrier) => (
            <option key={carrier.code} value={carrier.code}>
              {carrier.name}
            </option>
          ))}
        </select>
      </div>
      <div className={`field${errors.tracking_no ? ' field--invalid' : ''}`}>
        <label htmlFor="ship-tracking">{t('console.ship.tracking')}</label>
        <input
          id="ship-tracking"
          className="mono"
          autoComplete="off"
          aria-invalid={errors.tracking_no ? true : undefined}
          aria-describedby={errors.tracking_no ? 'ship-tracking-error' : undefined}
          {...form.register('tracking_no')}
        />
        {errors.tracking_no ? (
          <p className="field__error" id="ship-tracking-error" role="alert">
            {t('console.ship.trackingInvalid')}
          </p>
        ) : null}
      </div>
      <ErrorNotice error={ship.error} />
      <button type="submit" className="button button--primary" disabled={ship.busy}>
        {t('console.ship.submit')}
      </button>
    </form>
  );
}

function TrackingForm({ order, onChanged }: { order: AdminOrderDetail; onChanged: Changed }) {
  const t = useConsoleT();
  const form = useForm<z.input<typeof trackingEventBody>, unknown, z.output<typeof trackingEventBody>>({
    resolver: zodResolver(trackingEventBody),
    defaultValues: { description: '' },
  });
  const add = useAction(async (body: z.output<typeof trackingEventBody>) => {
    await adminApi(`/orders/${order.id}/tracking`, { body });
    form.reset();
    await onChanged(t('console.tracking.done'));
  });
  return (
    <form className="stack" onSubmit={form.handleSubmit((body) => add.act(body))} noValidate>
      <h3 className="card__subtitle">{t('console.tracking.title')}</h3>
      <Field
        id="tracking-description"
        label={t('console.tracking.description')}
        error={form.formState.errors.description ? t('console.form.required') : undefined}
      >
        <input id="tracking-description" autoComplete="off" {...form.register('description')} />
      </Field>
      <ErrorNotice error={add.error} />
      <button type="submit" className="button" disabled={add.busy}>
        {t('console.tracking.submit')}
      </button>
    </form>
  );
}

function DeliverButton({ order, onChanged }: { order: AdminOrderDetail; onChanged: Changed }) {
  const t = useConsoleT();
  const [open, setOpen] = useState(false);
  const deliver = useAction(async () => {
    await adminApi(`/orders/${order.id}/deliver`, { body: {} });
    setOpen(false);
    await onChanged(t('console.deliver.done'));
  });
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        {t('console.deliver.button')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('console.deliver.confirm', { number: order.order_no })}
        confirmLabel={t('console.deliver.button')}
        onConfirm={() => void deliver.act()}
        onClose={() => setOpen(false)}
        busy={deliver.busy}
        error={deliver.error}
      />
    </>
  );
}

function CancelButton({ order, onChanged }: { order: AdminOrderDetail; onChanged: Changed }) {
  const t = useConsoleT();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const cancel = useAction(async () => {
    await adminApi(`/orders/${order.id}/cancel`, { body: { reason } });
    setOpen(false);
    await onChanged(t('console.cancel.done'));
  });
  return (
    <>
      <button type="button" className="button button--danger-ghost" onClick={() => setOpen(true)}>
        {t('console.cancel.button')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('console.cancel.confirm', { number: order.order_no })}
        confirmLabel={t('console.cancel.button')}
        onConfirm={() => void cancel.act()}
        onClose={() => setOpen(false)}
        busy={cancel.busy}
        error={cancel.error}
      >
        <div className="field">
          <label htmlFor="cancel-reason">{t('console.cancel.reason')}</label>
          <input id="cancel-reason" value={reason} onChange={(event) => setReason(event.target.value)} />
        </div>
      </ConfirmDialog>
    </>
  );
}

/**
 * Refund all or part: the member types an amount in major units of the order's currency
 * (what they read on the page), sent as minor units; never more than what is refundable.
 * One idempotency key per refund they mean, so a double click or a retry refunds once.
 */
function RefundForm({ order, onChanged }: { order: AdminOrderDetail; onChanged: Changed }) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const [amount, setAmount] = useState(minorToMajorText(order.refundable_minor, order.currency));
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [open, setOpen] = useState(false);
  const minor = majorToMinor(amount, order.currency);
  const amountProblem =
    minor === null || minor < 1
      ? t('console.refund.amountInvalid')
      : minor > order.refundable_minor
        ? t('console.refund.amountTooHigh', { max: formatMoney(order.refundable_minor, order.currency, locale) })
        : null;
  const [touched, setTouched] = useState(false);
  const refund = useAction(async () => {
    const answer = await adminApi<AdminRefundRow>(`/orders/${order.id}/refunds`, {
      body: { amount_minor: minor, reason: reason.trim(), idempotency_key: key },
    });
    setOpen(false);
    setKey(newIdempotencyKey());
    setReason('');
    await onChanged(answer.status === 'awaiting_approval' ? t('console.refund.awaiting') : t('console.refund.done'));
  });
  return (
    <>
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (!amountProblem && reason.trim()) setOpen(true);
        }}
      >
        <h3 className="card__subtitle">{t('console.refund.title')}</h3>
        <p className="muted">
          {t('console.refund.refundable', { amount: formatMoney(order.refundable_minor, order.currency, locale) })}
        </p>
        <div className={`field${touched && amountProblem ? ' field--invalid' : ''}`}>
          <label htmlFor="refund-amount">{t('console.refund.amount', { currency: order.currency })}</label>
          <input
            id="refund-amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            aria-invalid={touched && amountProblem ? true : undefined}
            onChange={(event) => setAmount(event.target.value)}
          />
          {touched && amountProblem ? (
            <p className="field__error" role="alert">
              {amountProblem}
            </p>
          ) : null}
        </div>
        <Field
          id="refund-reason"
          label={t('console.refund.reason')}
          error={touched && !reason.trim() ? t('console.form.required') : undefined}
        >
          <input id="refund-reason" value={reason} onChange={(event) => setReason(event.target.value)} />
        </Field>
        <button type="submit" className="button button--danger-ghost">
          {t('console.refund.submit')}
        </button>
      </form>
      <ConfirmDialog
        open={open}
        title={t('console.refund.confirm', {
          amount: minor === null ? '' : formatMoney(minor, order.currency, locale),
          number: order.order_no,
        })}
        confirmLabel={t('console.refund.submit')}
        onConfirm={() => void refund.act()}
        onClose={() => setOpen(false)}
        busy={refund.busy}
        error={refund.error}
      />
    </>
  );
}

function RefundItem({ refund, onChanged }: { refund: AdminRefundRow; onChanged: Changed }) {
  const t = useConsoleT();
  const { locale, staff } = useConsole();
  const can = useCan();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const approve = useAction(async () => {
    await adminApi(`/refunds/${refund.id}/approve`, { body: {} });
    await onChanged(t('console.refund.approved'));
  });
  const reject = useAction(async () => {
    await adminApi(`/refunds/${refund.id}/reject`, { body: { reason } });
    setRejecting(false);
    await onChanged(t('console.refund.rejected'));
  });
  const mayDecide =
    refund.status === 'awaiting_approval' && can('payments:refund') && refund.requested_by?.id !== staff?.id;
  return (
    <li className="refund-item">
      <div className="refund-item__head">
        <strong>{formatMoney(refund.amount_minor, refund.currency, locale)}</strong>
        {refund.charged_currency === refund.currency ? null : (
          <span className="muted">
            {t('console.order.charged', {
              amount: formatMoney(refund.charged_amount_minor, refund.charged_currency, locale),
            })}
          </span>
        )}
        <Pill tone={refundTone(refund.status)}>
          {REFUND_STATE_LABELS[refund.status] ? t(REFUND_STATE_LABELS[refund.status]!) : refund.status}
        </Pill>
        <span className="muted">{formatDateTime(refund.created_at, locale)}</span>
      </div>
      <p className="refund-item__meta">
        {refund.reason}
        {refund.requested_by ? ` · ${t('console.refund.by', { who: refund.requested_by.email })}` : ''}
        {refund.made_in !== 'shop' ? t(`console.refund.madeIn.${refund.made_in}`) : ''}
        {refund.provider_refund_ref ? (
          <>
            {' · '}
            <span className="mono">{refund.provider_refund_ref}</span>
          </>
        ) : null}
      </p>
      {refund.last_error ? <p className="notice notice--error">{refund.last_error}</p> : null}
      {mayDecide ? (
        <div className="button-row">
          <button
            type="button"
            className="button button--primary"
            disabled={approve.busy}
            onClick={() => void approve.act()}
          >
            {t('console.refund.approve')}
          </button>
          <button type="button" className="button" onClick={() => setRejecting(true)}>
            {t('console.refund.reject')}
          </button>
        </div>
      ) : null}
      <ErrorNotice error={approve.error} />
      <ConfirmDialog
        open={rejecting}
        title={t('console.refund.rejectConfirm')}
        confirmLabel={t('console.refund.reject')}
        onConfirm={() => void reject.act()}
        onClose={() => setRejecting(false)}
        ready={reason.trim().length > 0}
        busy={reject.busy}
        error={reject.error}
      >
        <div className="field">
          <label htmlFor={`reject-reason-${refund.id}`}>{t('console.refund.reason')}</label>
          <input id={`reject-reason-${refund.id}`} value={reason} onChange={(event) => setReason(event.target.value)} />
        </div>
      </ConfirmDialog>
    </li>
  );
}

function Notes({ order, onChanged }: { order: AdminOrderDetail; onChanged: Changed }) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const can = useCan();
  const form = useForm<z.input<typeof orderNoteBody>, unknown, z.output<typeof orderNoteBody>>({
    resolver: zodResolver(orderNoteBody),
    defaultValues: { body: '' },
  });
  const add = useAction(async (body: z.output<typeof orderNoteBody>) => {
    await adminApi(`/orders/${order.id}/notes`, { body });
    form.reset();
    await onChanged(t('console.notes.done'));
  });
  return (
    <Card title={t('console.notes.title')}>
      <p className="muted">{t('console.notes.hint')}</p>
      {order.notes.length === 0 ? null : (
        <ul className="notes">
          {order.notes.map((note) => (
            <li key={note.id}>
              <p>{note.body}</p>
              <span className="muted">
                {note.staff?.email ?? '—'} · {formatDateTime(note.created_at, locale)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {can('orders:note') ? (
        <form className="stack" onSubmit={form.handleSubmit((body) => add.act(body))} noValidate>
          <div className="field">
            <label htmlFor="note-body">{t('console.notes.add')}</label>
            <textarea id="note-body" rows={2} {...form.register('body')} />
          </div>
          <ErrorNotice error={add.error} />
          <button type="submit" className="button" disabled={add.busy}>
            {t('console.notes.submit')}
          </button>
        </form>
      ) : order.notes.length === 0 ? (
        <EmptyState title={t('console.notes.empty')} />
      ) : null}
    </Card>
  );
}
