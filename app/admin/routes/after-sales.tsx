import { useMemo } from 'react';
import {
  isRouteErrorResponse,
  Link,
  useNavigation,
  useSearchParams,
  type ClientLoaderFunctionArgs,
} from 'react-router';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { AFTER_SALE_QUEUES } from '../../../server/domains/after-sales/after-sales.schemas';
import { AFTER_SALE_TYPES } from '../../../server/shared/order-status';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText, formatDateTime, formatMoney } from '../lib/format';
import { EmptyState, ErrorNotice, PageHeader, SkeletonRows } from '../components/ui';
import { columnClass, DataTableRows } from '../components/data-table';
import { Pager } from '../components/pager';
import {
  CASE_TYPE_LABELS,
  CaseStatePill,
  QUEUE_LABELS,
  TimeLeft,
  type AfterSalePage,
  type AfterSaleQueue,
  type AfterSaleRow,
} from '../components/after-sale-parts';
import { listQuery } from '../lib/list-query';

/**
 * The after-sale desk's queue (docs/console.md, "After-sale desk"): one tab per queue with its
 * count, the cases nearest their deadline first, the queue, type and page kept in the URL.
 */
const LIST_PARAMS = ['queue', 'type', 'page'] as const;
const PAGE_SIZE = 25;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const search = new URL(request.url).searchParams;
  const page = await adminApi<AfterSalePage>('/after-sales', {
    query: { ...listQuery(search, LIST_PARAMS), page_size: PAGE_SIZE },
    signal: request.signal,
  });
  return { page };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

const column = createColumnHelper<AfterSaleRow>();

export default function AfterSalesPage() {
  const { page } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const navigation = useNavigation();
  const [search, setSearch] = useSearchParams();
  const queue: AfterSaleQueue = AFTER_SALE_QUEUES.find((name) => name === search.get('queue')) ?? 'open';
  const type = search.get('type') ?? '';

  const columns = useMemo(
    () => [
      column.accessor('case_no', {
        header: () => t('console.afterSales.col.case'),
        cell: (info) => (
          <span className="cell-stack">
            <Link className="table-link mono desk-row-link" to={`/admin/after-sales/${info.row.original.id}`}>
              {info.getValue()}
            </Link>
            <span className="muted desk-narrow-only">{t(CASE_TYPE_LABELS[info.row.original.type])}</span>
          </span>
        ),
      }),
      column.accessor('order_no', {
        header: () => t('console.afterSales.col.order'),
        meta: { wideOnly: true },
        cell: (info) => (
          <Link className="table-link mono desk-over-row" to={`/admin/orders/${info.row.original.order_id}`}>
            {info.getValue()}
          </Link>
        ),
      }),
      column.accessor((row) => row.buyer.username, {
        id: 'buyer',
        header: () => t('console.afterSales.col.buyer'),
        cell: (info) => (
          <span className="cell-stack cell-stack--clip desk-buyer">
            <span title={info.getValue()}>{info.getValue()}</span>
            <span className="muted" title={info.row.original.buyer.email}>
              {info.row.original.buyer.email}
            </span>
          </span>
        ),
      }),
      column.accessor('country_code', {
        header: () => t('console.afterSales.col.country'),
        meta: { wideOnly: true },
      }),
      column.accessor('type', {
        header: () => t('console.afterSales.col.type'),
        meta: { wideOnly: true },
        cell: (info) => <span className="nowrap">{t(CASE_TYPE_LABELS[info.getValue()])}</span>,
      }),
      column.accessor('state', {
        header: () => t('console.afterSales.col.state'),
        cell: (info) => <CaseStatePill state={info.getValue()} />,
      }),
      column.accessor('unit_count', {
        header: () => t('console.afterSales.col.units'),
        meta: { numeric: true, wideOnly: true },
      }),
      column.accessor('estimate', {
        header: () => t('console.afterSales.col.estimate'),
        meta: { numeric: true },
        cell: (info) =>
          info.row.original.type === 30 ? (
            <span className="muted">—</span>
          ) : (
            <span className="nowrap">
              {formatMoney(info.getValue().amount_minor, info.row.original.currency, locale)}
            </span>
          ),
      }),
      column.accessor('created_at', {
        header: () => t('console.afterSales.col.created'),
        meta: { wideOnly: true },
        cell: (info) => <span className="nowrap">{formatDateTime(info.getValue(), locale)}</span>,
      }),
      column.accessor('time_left_ms', {
        header: () => t('console.afterSales.col.timeLeft'),
        cell: (info) => (
          <TimeLeft
            ms={info.getValue()}
            title={
              info.row.original.deadline
                ? t('console.afterSales.dueAt', { at: formatDateTime(info.row.original.deadline, locale) })
                : undefined
            }
          />
        ),
      }),
    ],
    [locale, t],
  );

  const table = useReactTable({
    data: page.records,
    columns,
    manualPagination: true,
    pageCount: Math.max(1, Math.ceil(page.total / PAGE_SIZE)),
    getCoreRowModel: getCoreRowModel(),
  });

  /** The list's URL with one parameter changed (and back to the first page). */
  const withParam = (name: 'queue' | 'type', value: string) => {
    const params = new URLSearchParams(search);
    if (value && !(name === 'queue' && value === 'open')) params.set(name, value);
    else params.delete(name);
    params.delete('page');
    return params;
  };
  const pages = Math.max(1, Math.ceil(page.total / PAGE_SIZE));
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/admin/after-sales';

  return (
    <>
      <PageHeader
        title={t('console.afterSales.title')}
        actions={
          <label className="desk-queue__filter">
            <span>{t('console.afterSales.filter.type')}</span>
            <select value={type} onChange={(event) => setSearch(withParam('type', event.target.value))}>
              <option value="">{t('console.filter.any')}</option>
              {AFTER_SALE_TYPES.map((value) => (
                <option key={value} value={value}>
                  {t(CASE_TYPE_LABELS[value])}
                </option>
              ))}
            </select>
          </label>
        }
      >
        <p className="muted">{countText(t, 'console.afterSales.count', page.total)}</p>
      </PageHeader>

      <div className="desk-queue">
        <div className="desk-queue__bar">
          <nav className="desk-tabs" aria-label={t('console.afterSales.queues')}>
            {/* `all` serves one order's cases (its console page), not the desk's work queues. */}
            {AFTER_SALE_QUEUES.filter((name) => name !== 'all').map((name) => {
              const count = page.counts[name];
              return (
                <Link
                  key={name}
                  className="desk-tabs__tab"
                  to={`?${withParam('queue', name)}`}
                  aria-current={name === queue ? 'page' : undefined}
                >
                  {t(QUEUE_LABELS[name])}
                  {count === undefined ? null : (
                    <span
                      className={`desk-tabs__count${name === 'requested' && count > 0 ? ' desk-tabs__count--due' : ''}`}
                    >
                      {count}
                    </span>
                  )}
                </Link>
              );
            })}
          </nav>
        </div>

        <div className={`table-wrap desk-queue__table${loading ? ' table-wrap--loading' : ''}`} aria-busy={loading}>
          {page.records.length === 0 ? (
            <EmptyState title={t('console.afterSales.empty')}>{t('console.afterSales.emptyHint')}</EmptyState>
          ) : (
            <table className="data-table desk-rows">
              <caption className="sr-only">{t(QUEUE_LABELS[queue])}</caption>
              <thead>
                {table.getHeaderGroups().map((group) => (
                  <tr key={group.id}>
                    {group.headers.map((header) => (
                      <th key={header.id} scope="col" className={columnClass(header.column)}>
                        {flexRender(header.column.columnDef.header, header.getContext())}
                      </th>
                    ))}
                  </tr>
                ))}
              </thead>
              <DataTableRows table={table} />
            </table>
          )}
        </div>
      </div>

      <Pager page={page.page} pages={pages} />
    </>
  );
}

/** A queue the API refused (a bad filter in a hand-written URL): its words, and the way back. */
export function ErrorBoundary({ error }: { error: unknown }) {
  const t = useConsoleT();
  return (
    <>
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
