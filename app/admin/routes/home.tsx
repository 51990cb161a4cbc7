import { Link, type ClientLoaderFunctionArgs } from 'react-router';
import type { AdminDashboard } from '../../../server/domains/orders/admin-orders.schemas';
import { AdminApiError, adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText, formatDateTime, formatDay, formatMoney } from '../lib/format';
import { EmptyState, PageHeader, Pill } from '../components/ui';
import { AfterSaleTile, AfterSaleUrgentList, waitingAfterSales } from '../components/after-sale-home';
import { loadUnclassifiedSkus, UnclassifiedSkusCard } from '../components/duties-parts';
import { loadLowStock, LowStockCard } from '../components/low-stock-parts';
import { loadStaleRates, StaleRatesCard } from '../components/currency-parts';

/** Home: what needs doing now, and how sales go. A member without `orders:read` sees a greeting only. */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const afterSales = waitingAfterSales(request.signal);
  const unclassified = loadUnclassifiedSkus(request.signal);
  const lowStock = loadLowStock(request.signal);
  const staleRates = loadStaleRates(request.signal);
  try {
    return {
      dashboard: await adminApi<AdminDashboard>('/dashboard', { signal: request.signal }),
      afterSales: await afterSales,
      unclassified: await unclassified,
      lowStock: await lowStock,
      staleRates: await staleRates,
    };
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 403)
      return {
        dashboard: null,
        afterSales: await afterSales,
        unclassified: null,
        lowStock: await lowStock,
        staleRates: await staleRates,
      };
    throw error;
  }
}

export function HydrateFallback() {
  return (
    <div className="tiles" aria-hidden="true">
      {[0, 1, 2, 3].map((index) => (
        <div key={index} className="skeleton skeleton--tile" />
      ))}
    </div>
  );
}

export default function HomePage() {
  const { dashboard, afterSales, unclassified, lowStock, staleRates } = usePageData<typeof clientLoader>();
  const { staff, locale } = useConsole();
  const t = useConsoleT();
  const greeting = t('console.home.greeting', { name: staff?.name ?? '' });
  if (!dashboard) {
    return (
      <>
        <PageHeader title={greeting}>
          <p className="muted">{t('console.home.noOrders')}</p>
        </PageHeader>
        {afterSales ? <AfterSaleUrgentList waiting={afterSales} /> : null}
        {lowStock ? <LowStockCard list={lowStock} /> : null}
        {staleRates ? <StaleRatesCard stale={staleRates} /> : null}
      </>
    );
  }
  const money = (minor: number, currency = dashboard.currency) => formatMoney(minor, currency, locale);
  return (
    <>
      <PageHeader title={greeting}>
        <p className="muted">{t('console.home.intro')}</p>
      </PageHeader>
      <div className="tiles">
        <Tile
          label={t('console.home.toShip')}
          value={dashboard.to_ship.count}
          note={
            dashboard.to_ship.oldest_waiting_hours === null
              ? t('console.home.nothingWaiting')
              : t('console.home.oldestWaiting', { hours: dashboard.to_ship.oldest_waiting_hours })
          }
          to="/admin/orders?status=10&sort=created_at&dir=asc"
          tone={dashboard.to_ship.count ? 'info' : 'neutral'}
        />
        <Tile
          label={t('console.home.expiring')}
          value={dashboard.expiring_unpaid.count}
          note={t('console.home.expiringNote')}
          to="/admin/orders?status=1"
          tone={dashboard.expiring_unpaid.count ? 'warning' : 'neutral'}
        />
        <Tile
          label={t('console.home.awaitingApproval')}
          value={dashboard.refunds_awaiting_approval.count}
          note={t('console.home.awaitingNote')}
          tone={dashboard.refunds_awaiting_approval.count ? 'danger' : 'neutral'}
        />
        <Tile
          label={t('console.home.lowStock')}
          value={dashboard.low_stock.count}
          note={t('console.home.lowStockNote')}
          tone={dashboard.low_stock.count ? 'warning' : 'neutral'}
        />
        {afterSales ? <AfterSaleTile waiting={afterSales} /> : null}
      </div>

      <div className="detail-grid">
        <div className="detail-grid__main">
          <section className="card" aria-labelledby="sales-title">
            <h2 className="card__title" id="sales-title">
              {t('console.home.sales')}
            </h2>
            <div className="sales-figures">
              <div>
                <span className="muted">{t('console.home.today')}</span>
                <strong className="figure">{money(dashboard.sales.today_minor)}</strong>
                <span className="muted">{countText(t, 'console.home.orders', dashboard.sales.today_orders)}</span>
              </div>
              <div>
                <span className="muted">{t('console.home.week')}</span>
                <strong className="figure">{money(dashboard.sales.week_minor)}</strong>
                <span className="muted">{countText(t, 'console.home.orders', dashboard.sales.week_orders)}</span>
              </div>
            </div>
            <SalesChart days={dashboard.sales.daily} currency={dashboard.currency} />
          </section>

          <section className="card" aria-labelledby="to-ship-title">
            <h2 className="card__title" id="to-ship-title">
              {t('console.home.toShipList')}
            </h2>
            {dashboard.to_ship.orders.length === 0 ? (
              <EmptyState title={t('console.home.allShipped')} />
            ) : (
              <table className="data-table data-table--compact">
                <thead>
                  <tr>
                    <th scope="col">{t('console.orders.col.number')}</th>
                    <th scope="col">{t('console.orders.col.buyer')}</th>
                    <th scope="col">{t('console.orders.col.country')}</th>
                    <th scope="col">{t('console.home.waiting')}</th>
                    <th scope="col" className="numeric">
                      {t('console.orders.col.total')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {dashboard.to_ship.orders.map((order) => (
                    <tr key={order.id}>
                      <td>
                        <Link className="table-link mono" to={`/admin/orders/${order.id}`}>
                          {order.order_no}
                        </Link>
                      </td>
                      <td>{order.contact_name}</td>
                      <td>{order.country_code}</td>
                      <td>
                        <Pill
                          tone={
                            order.waiting_hours >= 48 ? 'danger' : order.waiting_hours >= 24 ? 'warning' : 'neutral'
                          }
                        >
                          {t('console.home.hours', { hours: order.waiting_hours })}
                        </Pill>
                      </td>
                      <td className="numeric">{money(order.total_minor, order.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </div>
        <div className="detail-grid__side">
          {afterSales ? <AfterSaleUrgentList waiting={afterSales} /> : null}
          {staleRates ? <StaleRatesCard stale={staleRates} /> : null}
          <section className="card" aria-labelledby="refunds-title">
            <h2 className="card__title" id="refunds-title">
              {t('console.home.awaitingApproval')}
            </h2>
            {dashboard.refunds_awaiting_approval.refunds.length === 0 ? (
              <p className="muted">{t('console.home.noneAwaiting')}</p>
            ) : (
              <ul className="plain-list">
                {dashboard.refunds_awaiting_approval.refunds.map((refund) => (
                  <li key={refund.id}>
                    <Link className="table-link mono" to={`/admin/orders/${refund.order_id}`}>
                      {refund.order_no}
                    </Link>{' '}
                    {money(refund.amount_minor, refund.currency)}
                    <span className="muted"> · {refund.requested_by?.email ?? ''}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card" aria-labelledby="expiring-title">
            <h2 className="card__title" id="expiring-title">
              {t('console.home.expiring')}
            </h2>
            {dashboard.expiring_unpaid.orders.length === 0 ? (
              <p className="muted">{t('console.home.noneExpiring')}</p>
            ) : (
              <ul className="plain-list">
                {dashboard.expiring_unpaid.orders.map((order) => (
                  <li key={order.id}>
                    <Link className="table-link mono" to={`/admin/orders/${order.id}`}>
                      {order.order_no}
                    </Link>
                    <span className="muted"> · {formatDateTime(order.payment_deadline, locale)}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {/* The inventory's alert card says the same with each SKU's threshold; this list is for members who cannot see the inventory. */}
          {lowStock ? null : (
            <section className="card" aria-labelledby="stock-title">
              <h2 className="card__title" id="stock-title">
                {t('console.home.lowStock')}
              </h2>
              {dashboard.low_stock.skus.length === 0 ? (
                <p className="muted">{t('console.home.stockFine')}</p>
              ) : (
                <ul className="plain-list">
                  {dashboard.low_stock.skus.map((sku) => (
                    <li key={sku.sku_id}>
                      {sku.product_name} <span className="mono muted">{sku.sku_code}</span>{' '}
                      <Pill tone={sku.stock === 0 ? 'danger' : 'warning'}>
                        {t('console.home.inStock', { count: sku.stock })}
                      </Pill>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          )}
          {unclassified ? <UnclassifiedSkusCard list={unclassified} /> : null}
          {lowStock ? <LowStockCard list={lowStock} /> : null}
        </div>
      </div>
    </>
  );
}

function Tile({
  label,
  value,
  note,
  to,
  tone,
}: {
  label: string;
  value: number;
  note: string;
  to?: string;
  tone: 'neutral' | 'info' | 'warning' | 'danger';
}) {
  const body = (
    <>
      <span className="tile__label">{label}</span>
      <span className="tile__value">{value}</span>
      <span className="tile__note">{note}</span>
    </>
  );
  return to ? (
    <Link className={`tile tile--${tone}`} to={to}>
      {body}
    </Link>
  ) : (
    <div className={`tile tile--${tone}`}>{body}</div>
  );
}

/** Fourteen days of sales as bars: inline SVG, one <title> per bar, and the figures as a table for screen readers. */
function SalesChart({ days, currency }: { days: AdminDashboard['sales']['daily']; currency: string }) {
  const { locale } = useConsole();
  const t = useConsoleT();
  const max = Math.max(1, ...days.map((day) => day.amount_minor));
  const width = 560;
  const height = 140;
  const gap = 6;
  const bar = days.length ? (width - gap * (days.length - 1)) / days.length : 0;
  return (
    <figure className="sales-chart">
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-labelledby="sales-chart-title">
        <title id="sales-chart-title">{t('console.home.chartTitle')}</title>
        {days.map((day, index) => {
          const barHeight = Math.max(2, (day.amount_minor / max) * height);
          const x = index * (bar + gap);
          return (
            <g key={day.day}>
              <rect
                x={x}
                y={height - barHeight}
                width={bar}
                height={barHeight}
                rx={3}
                className={index === days.length - 1 ? 'sales-chart__bar sales-chart__bar--today' : 'sales-chart__bar'}
              >
                <title>
                  {formatDay(day.day, locale)}: {formatMoney(day.amount_minor, currency, locale)}
                </title>
              </rect>
              {index % 2 === days.length % 2 ? null : (
                <text x={x + bar / 2} y={height + 15} textAnchor="middle" className="sales-chart__label">
                  {formatDay(day.day, locale)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
