import { Form, Link, useSearchParams, type ClientLoaderFunctionArgs } from 'react-router';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import type { z } from 'zod';
import {
  PRODUCT_STATUSES,
  type productPage,
  type ProductRow,
} from '../../../server/domains/catalog/product-editor.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useCan, useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText, formatDateTime, formatMoney } from '../lib/format';
import { EmptyState, PageHeader, Pill, SkeletonRows } from '../components/ui';
import { Pager } from '../components/pager';
import { DataTableHead, DataTableRows } from '../components/data-table';
import { PRODUCT_STATUS_LABELS as STATUS_LABELS, PRODUCT_STATUS_TONES as STATUS_TONES } from '../lib/product-labels';
import '../styles/products.css';
import { FilterApply, FilterSelect, SearchBox } from '../components/page-parts';

const PAGE_SIZE = 25;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const search = new URL(request.url).searchParams;
  const page = await adminApi<z.infer<typeof productPage>>('/products', {
    query: { q: search.get('q'), status: search.get('status'), page: search.get('page'), page_size: PAGE_SIZE },
    signal: request.signal,
  });
  return { page };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

const column = createColumnHelper<ProductRow>();

export default function ProductsPage() {
  const { page } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const [search] = useSearchParams();
  const canWrite = useCan()('catalog:write');
  const columns = [
    column.accessor('cover', {
      header: () => <span className="sr-only">{t('console.products.col.cover')}</span>,
      cell: (info) =>
        info.getValue() ? (
          <img className="product-thumb" src={info.getValue()!} alt="" width={48} height={48} loading="lazy" />
        ) : (
          <span className="product-thumb product-thumb--empty" />
        ),
    }),
    column.accessor('name', {
      header: () => t('console.products.col.name'),
      cell: (info) => (
        <span className="cell-stack">
          <Link className="table-link" to={`/admin/products/${info.row.original.id}`}>
            {info.getValue()[locale] || info.getValue().en || info.getValue()['zh-cn']}
          </Link>
          <span className="muted" lang={locale === 'en' ? 'zh-CN' : 'en'}>
            {info.getValue()[locale === 'en' ? 'zh-cn' : 'en']}
          </span>
          {info.row.original.missing.length ? (
            <span className="translation-missing">
              {t('console.products.missingIn', {
                languages: info.row.original.missing
                  .map((language) => t(language === 'en' ? 'console.products.lang.en' : 'console.products.lang.zh'))
                  .join(', '),
              })}
            </span>
          ) : null}
        </span>
      ),
    }),
    column.accessor('status', {
      header: () => t('console.products.col.status'),
      cell: (info) => <Pill tone={STATUS_TONES[info.getValue()]}>{t(STATUS_LABELS[info.getValue()])}</Pill>,
    }),
    column.accessor('sku_count', { header: () => t('console.products.col.skus'), meta: { numeric: true } }),
    column.accessor('min_price_minor', {
      header: () => t('console.products.col.price'),
      meta: { numeric: true },
      cell: (info) => (info.getValue() === null ? '—' : formatMoney(info.getValue()!, page.currency, locale)),
    }),
    column.accessor('stock', { header: () => t('console.products.col.stock'), meta: { numeric: true } }),
    column.accessor('updated_at', {
      header: () => t('console.products.col.updated'),
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
      <PageHeader
        title={t('console.products.title')}
        actions={
          <>
            <Link className="button" to="/admin/products/csv">
              {t('adminProductCsv.link')}
            </Link>
            {canWrite ? (
              <Link className="button button--primary" to="/admin/products/new">
                {t('console.products.new')}
              </Link>
            ) : null}
          </>
        }
      >
        <p className="muted">{countText(t, 'console.products.count', page.total)}</p>
      </PageHeader>
      <Form method="get" className="filter-bar" aria-label={t('console.products.filters')}>
        <SearchBox
          id="products-q"
          label={t('console.products.search')}
          placeholder={t('console.products.search')}
          value={search.get('q')}
        />
        <FilterSelect
          name="status"
          label={t('console.products.col.status')}
          value={search.get('status')}
          options={PRODUCT_STATUSES.map((status) => ({ value: status, label: t(STATUS_LABELS[status]) }))}
        />
        <FilterApply />
      </Form>
      <div className="table-wrap">
        {page.records.length === 0 ? (
          <EmptyState title={t('console.products.empty')} />
        ) : (
          <table className="data-table">
            <caption className="sr-only">{t('console.products.title')}</caption>
            <DataTableHead table={table} />
            <DataTableRows table={table} />
          </table>
        )}
      </div>
      <Pager page={page.page} pages={Math.max(1, Math.ceil(page.total / PAGE_SIZE))} />
    </>
  );
}
