import { Link, type ClientLoaderFunctionArgs } from 'react-router';
import type { CommercialInvoice } from '../../../server/domains/orders/commercial-invoice.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatMoney } from '../lib/format';

/**
 * /admin/orders/:id/invoice: the commercial invoice that travels with the parcel, on a page of
 * its own so it prints as a plain sheet (no console frame; the buttons do not print).
 */
export async function clientLoader({ params, request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return {
    invoice: await adminApi<CommercialInvoice>(`/orders/${params.id}/commercial-invoice`, { signal: request.signal }),
    orderId: params.id,
  };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

export function meta() {
  return [{ title: 'Commercial invoice' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export default function CommercialInvoicePage() {
  const { invoice, orderId } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const money = (minor: number) => formatMoney(minor, invoice.currency, locale);
  const date = new Intl.DateTimeFormat(locale === 'zh-cn' ? 'zh-CN' : 'en-GB', {
    dateStyle: 'long',
    timeZone: 'UTC',
  }).format(new Date(invoice.invoice_date));
  return (
    <main className="invoice" data-testid="commercial-invoice">
      <div className="invoice__tools">
        <Link className="button" to={`/admin/orders/${orderId}`}>
          {t('console.invoice.back')}
        </Link>
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          {t('console.invoice.print')}
        </button>
      </div>
      <header className="invoice__head">
        <h1>{t('console.invoice.title')}</h1>
        <dl className="invoice__facts">
          <dt>{t('console.invoice.number')}</dt>
          <dd className="mono">{invoice.order_no}</dd>
          <dt>{t('console.invoice.date')}</dt>
          <dd>{date}</dd>
          <dt>{t('console.invoice.terms')}</dt>
          <dd>{invoice.incoterm ?? t('console.invoice.noDuties')}</dd>
          <dt>{t('console.invoice.reason')}</dt>
          <dd>{t('console.invoice.sale')}</dd>
          {invoice.registration ? (
            <>
              <dt>{invoice.registration.scheme === 'IOSS' ? 'IOSS' : 'UK VAT'}</dt>
              <dd className="mono" data-testid="invoice-registration">
                {invoice.registration.number}
              </dd>
            </>
          ) : null}
        </dl>
      </header>
      <div className="invoice__parties">
        <section>
          <h2>{t('console.invoice.exporter')}</h2>
          <p>
            {invoice.exporter.name}
            <br />
            {invoice.exporter.address}
          </p>
        </section>
        <section>
          <h2>{t('console.invoice.consignee')}</h2>
          <p>
            {invoice.consignee.name}
            <br />
            {invoice.consignee.address}
            <br />
            {invoice.consignee.country} ({invoice.consignee.country_code})
            <br />
            {invoice.consignee.phone}
          </p>
        </section>
      </div>
      <table className="invoice__lines">
        <thead>
          <tr>
            <th scope="col">{t('console.invoice.description')}</th>
            <th scope="col">{t('console.duties.hsCode')}</th>
            <th scope="col">{t('console.duties.origin')}</th>
            <th scope="col" className="numeric">
              {t('console.invoice.quantity')}
            </th>
            <th scope="col" className="numeric">
              {t('console.invoice.weight')}
            </th>
            <th scope="col" className="numeric">
              {t('console.invoice.unitValue')}
            </th>
            <th scope="col" className="numeric">
              {t('console.invoice.value')}
            </th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((line) => (
            <tr key={line.sku_code}>
              <td>
                {line.description}
                <br />
                <span className="mono muted">{line.sku_code}</span>
              </td>
              <td className="mono">{line.hs_code ?? t('console.invoice.unclassified')}</td>
              <td>{line.origin_country ?? '—'}</td>
              <td className="numeric">{line.quantity}</td>
              <td className="numeric">{line.weight_grams}</td>
              <td className="numeric">{money(line.unit_value_minor)}</td>
              <td className="numeric">{money(line.value_minor)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="invoice__totals">
        <dt>{t('console.invoice.goods')}</dt>
        <dd>{money(invoice.goods_minor)}</dd>
        <dt>{t('console.invoice.shipping')}</dt>
        <dd>{money(invoice.shipping_minor)}</dd>
        {invoice.duties_minor ? (
          <>
            <dt>{t('console.invoice.duties')}</dt>
            <dd>{money(invoice.duties_minor)}</dd>
          </>
        ) : null}
        <dt className="invoice__grand">{t('console.invoice.total')}</dt>
        <dd className="invoice__grand">{money(invoice.total_minor)}</dd>
      </dl>
      <p className="muted">{t('console.invoice.grossWeight', { grams: invoice.weight_grams })}</p>
      <footer className="invoice__sign">
        <p>{t('console.invoice.declaration')}</p>
        <p className="invoice__signature">{t('console.invoice.signature')}</p>
      </footer>
    </main>
  );
}
