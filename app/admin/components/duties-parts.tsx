import { Link } from 'react-router';
import type { AdminOrderDetail } from '../../../server/domains/orders/admin-orders.schemas';
import { adminApi, consoleSession } from '../lib/admin-api';
import { useConsole, useConsoleT } from '../lib/console-context';
import { formatMoney } from '../lib/format';
import { Pill } from './ui';

/** A rate in basis points as a percentage: 1900 -> '19%', 1650 -> '16.5%'. */
function percent(bps: number): string {
  return `${Number((bps / 100).toFixed(2))}%`;
}

/**
 * The order's duties as snapshotted when it was placed: the incoterm, what was paid with the
 * order and what is left for the carrier, and per line the HS code, origin, customs value, duty,
 * VAT/GST and fee in the destination's currency. Links to the parcel's commercial invoice.
 */
export function OrderDutiesCard({ order }: { order: AdminOrderDetail }) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const duties = order.duties;
  const invoice = (
    <Link className="button" to={`/admin/orders/${order.id}/invoice`} data-testid="commercial-invoice-link">
      {t('console.duties.invoice')}
    </Link>
  );
  if (!duties) {
    return (
      <section className="card" aria-labelledby="duties-title">
        <h2 className="card__title" id="duties-title">
          {t('console.duties.title')}
        </h2>
        <p className="muted">{t('console.invoice.noDuties')}</p>
        {invoice}
      </section>
    );
  }
  const local = (minor: number) => formatMoney(minor, duties.currency, locale);
  const settled = (minor: number) => formatMoney(minor, order.currency, locale);
  const names = new Map(order.lines.map((line) => [line.sku_id, line.name]));
  return (
    <section className="card" aria-labelledby="duties-title" data-testid="order-duties">
      <h2 className="card__title" id="duties-title">
        {t('console.duties.title')}
      </h2>
      <div className="pill-row">
        <Pill tone={duties.incoterm === 'DDP' ? 'success' : 'info'}>
          {t(duties.incoterm === 'DDP' ? 'console.duties.ddp' : 'console.duties.ddu')}
        </Pill>
        {duties.estimate_hidden ? <Pill tone="warning">{t('console.duties.hidden')}</Pill> : null}
      </div>
      <dl className="facts">
        <dt>{t('console.duties.charged')}</dt>
        <dd>{settled(duties.charged.amount_minor)}</dd>
        {duties.estimate && duties.estimate.amount_minor > 0 ? (
          <>
            <dt>{t('console.duties.estimate')}</dt>
            <dd>{settled(duties.estimate.amount_minor)}</dd>
          </>
        ) : null}
      </dl>
      {duties.estimate_hidden ? null : (
        <div className="duties-scroll">
          <table className="data-table data-table--compact">
            <thead>
              <tr>
                <th scope="col">{t('console.order.product')}</th>
                <th scope="col">{t('console.duties.hsCode')}</th>
                <th scope="col">{t('console.duties.origin')}</th>
                <th scope="col" className="numeric">
                  {t('console.duties.customsValue')}
                </th>
                <th scope="col" className="numeric">
                  {t('console.duties.duty')}
                </th>
                <th scope="col" className="numeric">
                  {t('console.duties.tax')}
                </th>
                <th scope="col" className="numeric">
                  {t('console.duties.fee')}
                </th>
              </tr>
            </thead>
            <tbody>
              {duties.lines.map((line) => (
                <tr key={line.sku_id}>
                  <td>{names.get(line.sku_id) ?? line.sku_id}</td>
                  <td className="mono">{line.hs_code ?? '—'}</td>
                  <td>{line.origin_country ?? '—'}</td>
                  <td className="numeric">{local(line.customs_value_minor)}</td>
                  <td className="numeric">
                    {local(line.duty_minor)}
                    {line.duty_rate_bps ? <span className="muted"> ({percent(line.duty_rate_bps)})</span> : null}
                  </td>
                  <td className="numeric">
                    {local(line.tax_minor)}
                    {line.tax_rate_bps ? <span className="muted"> ({percent(line.tax_rate_bps)})</span> : null}
                  </td>
                  <td className="numeric">{local(line.fee_minor)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">
        {t('console.duties.rules', { version: duties.rules_version, currency: duties.currency, rate: duties.rate })}
      </p>
      {invoice}
    </section>
  );
}

export interface UnclassifiedSkus {
  records: Array<{ sku_id: number; sku_code: string; product_id: number; name: string }>;
  more: boolean;
}

/** Home's list of SKUs without an HS code; null for a member who may not read orders, or when the call fails. */
export async function loadUnclassifiedSkus(signal: AbortSignal): Promise<UnclassifiedSkus | null> {
  try {
    const { staff } = await consoleSession();
    if (!staff?.permissions.includes('orders:read')) return null;
    return await adminApi<UnclassifiedSkus>('/duties/unclassified-skus', { signal });
  } catch {
    return null;
  }
}

export function UnclassifiedSkusCard({ list }: { list: UnclassifiedSkus }) {
  const t = useConsoleT();
  return (
    <section className="card" aria-labelledby="unclassified-title" data-testid="unclassified-skus">
      <h2 className="card__title" id="unclassified-title">
        {t('console.duties.unclassified')}
      </h2>
      {list.records.length === 0 ? (
        <p className="muted">{t('console.duties.allClassified')}</p>
      ) : (
        <>
          <p className="muted">{t('console.duties.unclassifiedHint')}</p>
          <ul className="plain-list">
            {list.records.map((sku) => (
              <li key={sku.sku_id}>
                {sku.name} <span className="mono muted">{sku.sku_code}</span>
              </li>
            ))}
            {list.more ? <li className="muted">{t('console.duties.more')}</li> : null}
          </ul>
        </>
      )}
    </section>
  );
}
