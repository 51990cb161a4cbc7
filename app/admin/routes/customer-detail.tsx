import { useState } from 'react';
import { Link, useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import type {
  CustomerActionResult,
  CustomerDetail,
  EraseCustomerResult,
} from '../../../server/domains/customers/admin-customers.schemas';
import { adminApi, adminUrl, requireStaff } from '../lib/admin-api';
import { useCan, useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText, formatDateTime, formatMoney } from '../lib/format';
import { CUSTOMER_STATUS_LABELS, customerTone } from '../lib/customer-labels';
import { ORDER_STATUS_LABELS, orderStatusTone } from '../lib/order-labels';
import { ConfirmDialog, EmptyState, ErrorNotice, Notice, PageHeader, Pill, useAction } from '../components/ui';
import { AuditChanges } from '../components/audit-changes';

export async function clientLoader({ params, request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { customer: await adminApi<CustomerDetail>(`/customers/${params.id}`, { signal: request.signal }) };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

type Pending = 'disable' | 'signOut' | 'erase' | null;

export default function CustomerDetailPage() {
  const { customer } = usePageData<typeof clientLoader>();
  const { profile, spending } = customer;
  const { locale } = useConsole();
  const t = useConsoleT();
  const can = useCan();
  const revalidator = useRevalidator();
  const [pending, setPending] = useState<Pending>(null);
  const [reason, setReason] = useState('');
  const [typedEmail, setTypedEmail] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const finish = async (message: string) => {
    setPending(null);
    setDone(message);
    await revalidator.revalidate();
  };
  const disable = useAction(async () => {
    await adminApi<CustomerActionResult>(`/customers/${profile.id}/disable`, { body: { reason } });
    await finish(t('console.customer.disabled'));
  });
  const enable = useAction(async () => {
    await adminApi<CustomerActionResult>(`/customers/${profile.id}/enable`, { body: {} });
    await finish(t('console.customer.enabled'));
  });
  const signOut = useAction(async () => {
    const result = await adminApi<CustomerActionResult>(`/customers/${profile.id}/sign-out`, { body: {} });
    await finish(countText(t, 'console.customer.signedOut', result.sessions_revoked));
  });
  const erase = useAction(async () => {
    await adminApi<EraseCustomerResult>(`/customers/${profile.id}/erase`, { body: { confirm_email: typedEmail } });
    await finish(t('console.customer.erased'));
  });
  const erased = profile.status === 'erased';

  return (
    <>
      <nav className="breadcrumbs" aria-label={t('console.breadcrumbs')}>
        <Link to="/admin/customers">{t('console.nav.customers')}</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{profile.username || profile.email}</span>
      </nav>
      <PageHeader
        title={profile.username || profile.email}
        actions={
          erased ? null : (
            <>
              {can('customers:export') ? (
                <a className="button" href={adminUrl(`/customers/${profile.id}/export`)} download>
                  {t('console.customer.export')}
                </a>
              ) : null}
              {can('customers:write') ? (
                <>
                  <button type="button" className="button" onClick={() => setPending('signOut')}>
                    {t('console.customer.signOut')}
                  </button>
                  {profile.status === 'disabled' ? (
                    <button type="button" className="button" onClick={() => void enable.act()} disabled={enable.busy}>
                      {t('console.customer.enable')}
                    </button>
                  ) : (
                    <button type="button" className="button button--danger-ghost" onClick={() => setPending('disable')}>
                      {t('console.customer.disable')}
                    </button>
                  )}
                </>
              ) : null}
              {can('customers:erase') ? (
                <button type="button" className="button button--danger" onClick={() => setPending('erase')}>
                  {t('console.customer.erase')}
                </button>
              ) : null}
            </>
          )
        }
      >
        <div className="pill-row">
          <Pill tone={customerTone(profile.status)}>{t(CUSTOMER_STATUS_LABELS[profile.status])}</Pill>
          <span className="muted">{profile.email}</span>
          <span className="muted">
            {t('console.customer.joined', { at: formatDateTime(profile.created_at, locale) })}
          </span>
        </div>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorNotice error={enable.error} />

      <div className="tiles tiles--three">
        <div className="tile tile--neutral">
          <span className="tile__label">{t('console.customers.col.orders')}</span>
          <span className="tile__value">{spending.order_count}</span>
        </div>
        <div className="tile tile--neutral">
          <span className="tile__label">{t('console.customers.col.spent')}</span>
          <span className="tile__value">{formatMoney(spending.total_spent_minor, spending.currency, locale)}</span>
        </div>
        <div className="tile tile--neutral">
          <span className="tile__label">{t('console.customers.col.lastOrder')}</span>
          <span className="tile__value tile__value--small">{formatDateTime(spending.last_order_at, locale)}</span>
        </div>
      </div>

      <div className="detail-grid">
        <div className="detail-grid__main">
          <section className="card" aria-labelledby="customer-orders-title">
            <h2 className="card__title" id="customer-orders-title">
              {t('console.nav.orders')}
            </h2>
            {customer.orders.length === 0 ? (
              <EmptyState title={t('console.customer.noOrders')} />
            ) : (
              <table className="data-table data-table--compact">
                <thead>
                  <tr>
                    <th scope="col">{t('console.orders.col.number')}</th>
                    <th scope="col">{t('console.orders.col.placed')}</th>
                    <th scope="col">{t('console.orders.col.status')}</th>
                    <th scope="col" className="numeric">
                      {t('console.orders.col.total')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {customer.orders.map((order) => (
                    <tr key={order.id}>
                      <td>
                        <Link className="table-link mono" to={`/admin/orders/${order.id}`}>
                          {order.order_no}
                        </Link>
                      </td>
                      <td>{formatDateTime(order.created_at, locale)}</td>
                      <td>
                        <Pill tone={orderStatusTone(order.status)}>
                          {ORDER_STATUS_LABELS[order.status] ? t(ORDER_STATUS_LABELS[order.status]!) : order.status}
                        </Pill>
                      </td>
                      <td className="numeric">{formatMoney(order.total_minor, order.currency, locale)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section className="card" aria-labelledby="customer-timeline-title">
            <h2 className="card__title" id="customer-timeline-title">
              {t('console.order.timeline')}
            </h2>
            {customer.timeline.length === 0 ? (
              <p className="muted">{t('console.customer.noEvents')}</p>
            ) : (
              <ol className="timeline">
                {customer.timeline.map((event) => (
                  <li key={event.id} className="timeline__item timeline__item--audit">
                    <time dateTime={event.at}>{formatDateTime(event.at, locale)}</time>
                    <span className="timeline__title mono">{event.action}</span>
                    <span className="timeline__actor muted">{event.actor_label}</span>
                    <AuditChanges changes={event.changes} />
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
        <div className="detail-grid__side">
          <section className="card" aria-labelledby="customer-addresses-title">
            <h2 className="card__title" id="customer-addresses-title">
              {t('console.customer.addresses')}
            </h2>
            {customer.addresses.length === 0 ? (
              <p className="muted">{t('console.customer.noAddresses')}</p>
            ) : (
              <ul className="plain-list">
                {customer.addresses.map((address) => (
                  <li key={address.id}>
                    <address className="address">
                      {address.contact_name} · {address.contact_phone}
                      <br />
                      {address.detail}, {address.city}, {address.province} {address.postal_code} ({address.country_code}
                      )
                    </address>
                    {address.is_default ? <Pill tone="info">{t('console.customer.defaultAddress')}</Pill> : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card" aria-labelledby="customer-sessions-title">
            <h2 className="card__title" id="customer-sessions-title">
              {t('console.sessions.title')}
            </h2>
            {customer.sessions.length === 0 ? (
              <p className="muted">{t('console.sessions.none')}</p>
            ) : (
              <ul className="plain-list">
                {customer.sessions.map((session) => (
                  <li key={session.id}>
                    {t('console.sessions.lastSeen', { at: formatDateTime(session.last_seen_at, locale) })}
                    <span className="muted">
                      {' '}
                      · {t('console.sessions.started', { at: formatDateTime(session.created_at, locale) })}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>

      <ConfirmDialog
        open={pending === 'disable'}
        title={t('console.customer.disableConfirm', { email: profile.email })}
        confirmLabel={t('console.customer.disable')}
        onConfirm={() => void disable.act()}
        onClose={() => setPending(null)}
        ready={reason.trim().length > 0}
        busy={disable.busy}
        error={disable.error}
      >
        <p>{t('console.customer.disableBody')}</p>
        <div className="field">
          <label htmlFor="disable-reason">{t('console.refund.reason')}</label>
          <input id="disable-reason" value={reason} onChange={(event) => setReason(event.target.value)} />
        </div>
      </ConfirmDialog>
      <ConfirmDialog
        open={pending === 'signOut'}
        title={t('console.customer.signOutConfirm', { email: profile.email })}
        confirmLabel={t('console.customer.signOut')}
        onConfirm={() => void signOut.act()}
        onClose={() => setPending(null)}
        busy={signOut.busy}
        error={signOut.error}
      />
      <ConfirmDialog
        open={pending === 'erase'}
        title={t('console.customer.eraseConfirm')}
        confirmLabel={t('console.customer.erase')}
        onConfirm={() => void erase.act()}
        onClose={() => setPending(null)}
        ready={typedEmail.trim().toLowerCase() === profile.email.toLowerCase()}
        busy={erase.busy}
        error={erase.error}
      >
        <p>{t('console.customer.eraseBody')}</p>
        <div className="field">
          <label htmlFor="erase-email">{t('console.customer.typeEmail', { email: profile.email })}</label>
          <input
            id="erase-email"
            autoComplete="off"
            value={typedEmail}
            onChange={(event) => setTypedEmail(event.target.value)}
          />
        </div>
      </ConfirmDialog>
    </>
  );
}
