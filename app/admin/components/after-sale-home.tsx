import { Link } from 'react-router';
import { adminApi, consoleSession } from '../lib/admin-api';
import { useConsole, useConsoleT } from '../lib/console-context';
import { formatMoney } from '../lib/format';
import { AfterSaleCard, CASE_TYPE_LABELS, TimeLeft, timeLeftText, type AfterSalePage } from './after-sale-parts';

/**
 * Home's after-sale parts: how many requests wait for an answer, and the few nearest their
 * deadline (the queue answers them in that order). Null for a member whose role may not read
 * after-sales, and when the call fails: home shows the rest anyway.
 */
const URGENT_COUNT = 5;

export async function waitingAfterSales(signal: AbortSignal): Promise<AfterSalePage | null> {
  try {
    const { staff } = await consoleSession();
    if (!staff?.permissions.includes('aftersales:read')) return null;
    return await adminApi<AfterSalePage>('/after-sales', {
      query: { queue: 'requested', page_size: URGENT_COUNT },
      signal,
    });
  } catch {
    return null;
  }
}

/** The tile beside home's others: the count, and the most urgent time left. */
export function AfterSaleTile({ waiting }: { waiting: AfterSalePage }) {
  const t = useConsoleT();
  const count = waiting.counts.requested ?? 0;
  const nearest = waiting.records[0]?.time_left_ms;
  const tone = nearest !== undefined && nearest !== null && nearest < 0 ? 'danger' : count > 0 ? 'warning' : 'neutral';
  return (
    <Link className={`tile tile--${tone}`} to="/admin/after-sales?queue=requested">
      <span className="tile__label">{t('console.afterSales.home.waiting')}</span>
      <span className="tile__value">{count}</span>
      <span className="tile__note">
        {nearest === undefined || nearest === null
          ? t('console.afterSales.home.none')
          : t('console.afterSales.home.nearest', { time: timeLeftText(t, nearest) })}
      </span>
    </Link>
  );
}

/** The most urgent requests, for home's side column. */
export function AfterSaleUrgentList({ waiting }: { waiting: AfterSalePage }) {
  const t = useConsoleT();
  const { locale } = useConsole();
  return (
    <AfterSaleCard
      title={t('console.afterSales.home.urgent')}
      extra={
        <Link className="text-link" to="/admin/after-sales?queue=requested">
          {t('console.afterSales.home.all')}
        </Link>
      }
    >
      {waiting.records.length === 0 ? (
        <p className="muted">{t('console.afterSales.home.allAnswered')}</p>
      ) : (
        <ul className="plain-list desk-case-list">
          {waiting.records.map((row) => (
            <li key={row.id}>
              <span className="desk-case-list__head">
                <Link className="table-link mono" to={`/admin/after-sales/${row.id}`}>
                  {row.case_no}
                </Link>
                <TimeLeft ms={row.time_left_ms} />
              </span>
              <span className="muted">
                {[
                  t(CASE_TYPE_LABELS[row.type]),
                  row.type === 30 ? null : formatMoney(row.estimate.amount_minor, row.currency, locale),
                  row.buyer.username,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </AfterSaleCard>
  );
}
