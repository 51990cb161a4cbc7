import { useMemo, useState } from 'react';
import { Form, Link, useNavigation, useSearchParams, type ClientLoaderFunctionArgs } from 'react-router';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import type {
  AdminOrderPage,
  AdminOrderRow,
  BulkShipReport,
} from '../../../server/domains/orders/admin-orders.schemas';
import { ORDER_STATUSES, PAY_STATUSES } from '../../../server/shared/order-status';
import { adminApi, adminUrl, requireStaff } from '../lib/admin-api';
import { useCan, useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText, formatDateTime, formatMoney } from '../lib/format';
import { ORDER_STATUS_LABELS, PAY_STATUS_LABELS, orderStatusTone, payStatusTone } from '../lib/order-labels';
import { EmptyState, ErrorNotice, PageHeader, Pill, SkeletonRows, useAction } from '../components/ui';
import { Icon } from '../components/icon';
import { columnClass, DataTableRows } from '../components/data-table';
import { Pager } from '../components/pager';
import { listQuery } from '../lib/list-query';
import { FilterApply, FilterSelect, SearchBox } from '../components/page-parts';

/** The list's filters, as they sit in the page's URL and go to the API unchanged (the server validates them). */
const FILTERS = ['status', 'pay_status', 'from', 'to', 'country', 'q'] as const;
const LIST_PARAMS = [...FILTERS, 'sort', 'dir', 'page'] as const;
const PAGE_SIZE = 25;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const search = new URL(request.url).searchParams;
  const page = await adminApi<AdminOrderPage>('/orders', {
    query: { ...listQuery(search, LIST_PARAMS), page_size: PAGE_SIZE },
    signal: request.signal,
  });
  return { page };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

const column = createColumnHelper<AdminOrderRow>();

export default function OrdersPage() {
  const { page } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const can = useCan();
  const navigation = useNavigation();
  const [search, setSearch] = useSearchParams();
  const [bulkOpen, setBulkOpen] = useState(false);

  const sorting: SortingState = [
    { id: search.get('sort') ?? 'created_at', desc: (search.get('dir') ?? 'desc') === 'desc' },
  ];
  const columns = useMemo(
    () => [
      column.accessor('order_no', {
        header: () => t('console.orders.col.number'),
        enableSorting: false,
        cell: (info) => (
          <Link className="table-link mono" to={`/admin/orders/${info.row.original.id}`}>
            {info.getValue()}
          </Link>
        ),
      }),
      column.accessor('created_at', {
        header: () => t('console.orders.col.placed'),
        cell: (info) => <span className="nowrap">{formatDateTime(info.getValue(), locale)}</span>,
      }),
      column.accessor('contact_name', {
        header: () => t('console.orders.col.buyer'),
        enableSorting: false,
        cell: (info) => (
          <span className="cell-stack cell-stack--clip">
            <span title={info.getValue()}>{info.getValue()}</span>
            <span className="muted" title={info.row.original.buyer_email}>
              {info.row.original.buyer_email}
            </span>
          </span>
        ),
      }),
      column.accessor('country_code', {
        header: () => t('console.orders.col.country'),
        enableSorting: false,
        meta: { wideOnly: true },
      }),
      column.accessor('status', {
        header: () => t('console.orders.col.status'),
        cell: (info) => (
          <Pill tone={orderStatusTone(info.getValue())}>
            {ORDER_STATUS_LABELS[info.getValue()]
              ? t(ORDER_STATUS_LABELS[info.getValue()]!)
              : info.row.original.status_text}
          </Pill>
        ),
      }),
      column.accessor('pay_status', {
        header: () => t('console.orders.col.payment'),
        enableSorting: false,
        cell: (info) => (
          <Pill tone={payStatusTone(info.getValue())}>
            {PAY_STATUS_LABELS[info.getValue()]
              ? t(PAY_STATUS_LABELS[info.getValue()]!)
              : info.row.original.pay_status_text}
          </Pill>
        ),
      }),
      column.accessor('item_count', {
        header: () => t('console.orders.col.items'),
        enableSorting: false,
        meta: { numeric: true, wideOnly: true },
      }),
      column.accessor('total_minor', {
        id: 'total',
        header: () => t('console.orders.col.total'),
        meta: { numeric: true },
        cell: (info) => (
          <span className="cell-stack cell-stack--end">
            <span>{formatMoney(info.getValue(), info.row.original.currency, locale)}</span>
            {info.row.original.refunded_minor > 0 ? (
              <span className="muted">
                {t('console.orders.refunded', {
                  amount: formatMoney(info.row.original.refunded_minor, info.row.original.currency, locale),
                })}
              </span>
            ) : null}
          </span>
        ),
      }),
    ],
    [locale, t],
  );

  const table = useReactTable({
    data: page.records,
    columns,
    state: { sorting },
    manualSorting: true,
    manualPagination: true,
    pageCount: Math.max(1, Math.ceil(page.total / PAGE_SIZE)),
    getCoreRowModel: getCoreRowModel(),
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      setSearch((params) => {
        const copy = new URLSearchParams(params);
        if (first) {
          copy.set('sort', first.id);
          copy.set('dir', first.desc ? 'desc' : 'asc');
        } else {
          copy.delete('sort');
          copy.delete('dir');
        }
        copy.delete('page');
        return copy;
      });
    },
  });

  const filters = listQuery(search, LIST_PARAMS);
  const exportQuery = Object.fromEntries(Object.entries(filters).filter(([name]) => name !== 'page'));
  const pages = Math.max(1, Math.ceil(page.total / PAGE_SIZE));
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/admin/orders';

  return (
    <>
      <PageHeader
        title={t('console.orders.title')}
        actions={
          <>
            {can('orders:export') ? (
              <a className="button" href={adminUrl('/orders/export', exportQuery)} download>
                <Icon name="download" />
                {t('console.orders.export')}
              </a>
            ) : null}
            {can('orders:fulfil') ? (
              <button
                type="button"
                className="button"
                aria-expanded={bulkOpen}
                onClick={() => setBulkOpen((open) => !open)}
              >
                <Icon name="upload" />
                {t('console.orders.bulkShip')}
              </button>
            ) : null}
          </>
        }
      >
        <p className="muted">{countText(t, 'console.orders.count', page.total)}</p>
      </PageHeader>

      {bulkOpen ? <BulkShip /> : null}

      <Form method="get" className="filter-bar" aria-label={t('console.orders.filters')}>
        <SearchBox
          id="orders-q"
          label={t('console.orders.search')}
          placeholder={t('console.orders.searchPlaceholder')}
          value={filters.q}
        />
        <FilterSelect
          name="status"
          label={t('console.orders.col.status')}
          value={filters.status}
          options={ORDER_STATUSES.map((status) => ({ value: status, label: t(ORDER_STATUS_LABELS[status]!) }))}
        />
        <FilterSelect
          name="pay_status"
          label={t('console.orders.col.payment')}
          value={filters.pay_status}
          options={PAY_STATUSES.map((status) => ({ value: status, label: t(PAY_STATUS_LABELS[status]!) }))}
        />
        <label className="filter">
          <span>{t('console.filter.from')}</span>
          <input type="date" name="from" defaultValue={filters.from ?? ''} />
        </label>
        <label className="filter">
          <span>{t('console.filter.to')}</span>
          <input type="date" name="to" defaultValue={filters.to ?? ''} />
        </label>
        <label className="filter filter--narrow">
          <span>{t('console.orders.col.country')}</span>
          <input
            name="country"
            defaultValue={filters.country ?? ''}
            maxLength={2}
            placeholder="US"
            autoComplete="off"
          />
        </label>
        {filters.sort ? <input type="hidden" name="sort" value={filters.sort} /> : null}
        {filters.dir ? <input type="hidden" name="dir" value={filters.dir} /> : null}
        <FilterApply>
          {FILTERS.some((name) => filters[name]) ? (
            <Link className="button button--ghost" to="/admin/orders">
              {t('console.filter.clear')}
            </Link>
          ) : null}
        </FilterApply>
      </Form>

      <div className={`table-wrap${loading ? ' table-wrap--loading' : ''}`} aria-busy={loading}>
        {page.records.length === 0 ? (
          <EmptyState title={t('console.orders.empty')}>{t('console.orders.emptyHint')}</EmptyState>
        ) : (
          <table className="data-table">
            <caption className="sr-only">{t('console.orders.title')}</caption>
            <thead>
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const sorted = header.column.getIsSorted();
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        className={columnClass(header.column)}
                        aria-sort={sorted ? (sorted === 'desc' ? 'descending' : 'ascending') : undefined}
                      >
                        {header.column.getCanSort() ? (
                          <button
                            type="button"
                            className="sort-button"
                            onClick={() => header.column.toggleSorting(sorted ? sorted === 'asc' : true)}
                          >
                            {flexRender(header.column.columnDef.header, header.getContext())}
                            <span aria-hidden="true" className="sort-button__mark">
                              {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                            </span>
                          </button>
                        ) : (
                          flexRender(header.column.columnDef.header, header.getContext())
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <DataTableRows table={table} />
          </table>
        )}
      </div>

      <Pager page={page.page} pages={pages} />
    </>
  );
}

/** Ship several orders from a CSV (order_no,carrier,tracking_no), pasted or chosen as a file; the server reports per row. */
function BulkShip() {
  const t = useConsoleT();
  const [csv, setCsv] = useState('order_no,carrier,tracking_no\n');
  const [report, setReport] = useState<BulkShipReport | null>(null);
  const send = useAction(async () => {
    setReport(await adminApi<BulkShipReport>('/orders/bulk-ship', { body: { csv } }));
  });
  return (
    <section className="panel" aria-labelledby="bulk-ship-title">
      <h2 id="bulk-ship-title">{t('console.bulk.title')}</h2>
      <p className="muted">{t('console.bulk.hint')}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void send.act();
        }}
      >
        <label className="field">
          <span>{t('console.bulk.csv')}</span>
          <textarea className="mono" rows={6} value={csv} onChange={(event) => setCsv(event.target.value)} />
        </label>
        <label className="field">
          <span>{t('console.bulk.file')}</span>
          <input
            type="file"
            accept=".csv,text/csv"
            onChange={async (event) => {
              const file = event.target.files?.[0];
              if (file) setCsv(await file.text());
            }}
          />
        </label>
        <ErrorNotice error={send.error} />
        <button type="submit" className="button button--primary" disabled={send.busy}>
          {t('console.bulk.submit')}
        </button>
      </form>
      {report ? (
        <div className="bulk-report">
          <p role="status">{t('console.bulk.result', { shipped: report.shipped, failed: report.failed })}</p>
          <table className="data-table data-table--compact">
            <thead>
              <tr>
                <th scope="col">{t('console.bulk.row')}</th>
                <th scope="col">{t('console.orders.col.number')}</th>
                <th scope="col">{t('console.bulk.outcome')}</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((row) => (
                <tr key={row.row}>
                  <td>{row.row}</td>
                  <td className="mono">{row.order_no}</td>
                  <td>
                    {row.ok ? (
                      <Pill tone="success">{t('console.bulk.shipped')}</Pill>
                    ) : (
                      <Pill tone="danger">{row.error}</Pill>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
