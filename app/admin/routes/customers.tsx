import { Form, Link, useSearchParams, type ClientLoaderFunctionArgs } from 'react-router';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import {
  CUSTOMER_STATUSES,
  type CustomerPage,
  type CustomerRow,
} from '../../../server/domains/customers/admin-customers.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText, formatDateTime, formatMoney } from '../lib/format';
import { CUSTOMER_STATUS_LABELS, customerTone } from '../lib/customer-labels';
import { EmptyState, PageHeader, Pill, SkeletonRows } from '../components/ui';
import { FilterApply, FilterSelect, SearchBox } from '../components/page-parts';
import { Pager } from '../components/pager';
import { columnClass, DataTableRows } from '../components/data-table';

const PAGE_SIZE = 25;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const search = new URL(request.url).searchParams;
  const page = await adminApi<CustomerPage>('/customers', {
    query: { q: search.get('q'), status: search.get('status'), page: search.get('page'), page_size: PAGE_SIZE },
    signal: request.signal,
  });
  return { page };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

const column = createColumnHelper<CustomerRow>();

export default function CustomersPage() {
  const { page } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const [search] = useSearchParams();
  const columns = [
    column.accessor('email', {
      header: () => t('console.customers.col.customer'),
      cell: (info) => (
        <span className="cell-stack">
          <Link className="table-link" to={`/admin/customers/${info.row.original.id}`}>
            {info.row.original.username || info.getValue()}
          </Link>
          <span className="muted">{info.getValue()}</span>
        </span>
      ),
    }),
    column.accessor('status', {
      header: () => t('console.orders.col.status'),
      cell: (info) => <Pill tone={customerTone(info.getValue())}>{t(CUSTOMER_STATUS_LABELS[info.getValue()])}</Pill>,
    }),
    column.accessor('order_count', { header: () => t('console.customers.col.orders'), meta: { numeric: true } }),
    column.accessor('total_spent_minor', {
      header: () => t('console.customers.col.spent'),
      meta: { numeric: true },
      cell: (info) => formatMoney(info.getValue(), info.row.original.currency, locale),
    }),
    column.accessor('last_order_at', {
      header: () => t('console.customers.col.lastOrder'),
      cell: (info) => formatDateTime(info.getValue(), locale),
    }),
    column.accessor('created_at', {
      header: () => t('console.customers.col.joined'),
      cell: (info) => formatDateTime(info.getValue(), locale),
    }),
  ];
  const table = useReactTable({
    data: page.records,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualPagination: true,
  });
  return (
    <>
      <PageHeader title={t('console.customers.title')}>
        <p className="muted">{countText(t, 'console.customers.count', page.total)}</p>
      </PageHeader>
      <Form method="get" className="filter-bar" aria-label={t('console.orders.filters')}>
        <SearchBox
          id="customers-q"
          label={t('console.customers.search')}
          placeholder={t('console.customers.searchPlaceholder')}
          value={search.get('q')}
        />
        <FilterSelect
          name="status"
          label={t('console.orders.col.status')}
          value={search.get('status')}
          options={CUSTOMER_STATUSES.map((status) => ({ value: status, label: t(CUSTOMER_STATUS_LABELS[status]) }))}
        />
        <FilterApply />
      </Form>
      <div className="table-wrap">
        {page.records.length === 0 ? (
          <EmptyState title={t('console.customers.empty')} />
        ) : (
          <table className="data-table">
            <caption className="sr-only">{t('console.customers.title')}</caption>
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
      <Pager page={page.page} pages={Math.max(1, Math.ceil(page.total / PAGE_SIZE))} />
    </>
  );
}
