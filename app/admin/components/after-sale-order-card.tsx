import { Link } from 'react-router';
import { adminApi, consoleSession } from '../lib/admin-api';
import { useConsole, useConsoleT } from '../lib/console-context';
import { formatMoney } from '../lib/format';
import {
  AfterSaleCard,
  CASE_TYPE_LABELS,
  CaseStatePill,
  TimeLeft,
  type AfterSalePage,
  type AfterSaleRow,
} from './after-sale-parts';

/**
 * The order page's "After-sale cases" card: every case of the order, open and finished, oldest
 * first. Null for a
 * member whose role may not read after-sales: the card is left out.
 */
export async function orderAfterSales(
  orderId: string | undefined,
  signal: AbortSignal,
): Promise<AfterSaleRow[] | null> {
  const { staff } = await consoleSession();
  if (!orderId || !staff?.permissions.includes('aftersales:read')) return null;
  const page = await adminApi<AfterSalePage>('/after-sales', {
    query: { order_id: orderId, queue: 'all', page_size: 100 },
    signal,
  });
  return [...page.records].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
}

export function AfterSaleOrderCard({ cases }: { cases: readonly AfterSaleRow[] }) {
  const t = useConsoleT();
  const { locale } = useConsole();
  return (
    <AfterSaleCard title={t('console.afterSales.orderCard.title')}>
      {cases.length === 0 ? (
        <p className="muted">{t('console.afterSales.orderCard.none')}</p>
      ) : (
        <ul className="plain-list desk-case-list">
          {cases.map((row) => (
            <li key={row.id}>
              <span className="desk-case-list__head">
                <Link className="table-link mono" to={`/admin/after-sales/${row.id}`}>
                  {row.case_no}
                </Link>
                <CaseStatePill state={row.state} />
              </span>
              <span className="muted">
                {t(CASE_TYPE_LABELS[row.type])}
                {row.type === 30 ? null : ` · ${formatMoney(row.estimate.amount_minor, row.currency, locale)}`}
              </span>
              {row.time_left_ms === null ? null : <TimeLeft ms={row.time_left_ms} />}
            </li>
          ))}
        </ul>
      )}
    </AfterSaleCard>
  );
}
