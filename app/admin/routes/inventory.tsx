import { useEffect, useRef, useState } from 'react';
import { Form, useRevalidator, useSearchParams, type ClientLoaderFunctionArgs } from 'react-router';
import {
  adjustmentBody,
  inventoryReasons,
  type AdjustmentHistory,
  type InventoryPage,
  type InventoryReason,
  type InventorySku,
} from '../../../server/domains/catalog/inventory.schemas';
import type { MessageKey } from '../../../i18n';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { formatDateTime } from '../lib/format';
import { EmptyState, ErrorNotice, Notice, PageHeader, Pill, SkeletonRows, useAction } from '../components/ui';
import { FilterApply, PanelHead, SearchBox, submitWith } from '../components/page-parts';
import { Pager } from '../components/pager';
import { skuLabel } from '../components/low-stock-parts';
import '../styles/groups-inventory.css';

const PAGE_SIZE = 25;

const REASON_LABELS: Record<InventoryReason, MessageKey> = {
  received: 'console.inventory.reason.received',
  counted: 'console.inventory.reason.counted',
  damaged: 'console.inventory.reason.damaged',
  returned: 'console.inventory.reason.returned',
  other: 'console.inventory.reason.other',
};

/** Inventory (catalog:write; docs/console.md): find SKUs, adjust their stock with a reason, set their alert, read their history. */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const search = new URL(request.url).searchParams;
  const page = await adminApi<InventoryPage>('/inventory', {
    query: { q: search.get('q'), low: search.get('low'), page: search.get('page'), page_size: PAGE_SIZE },
    signal: request.signal,
  });
  return { page };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

export default function InventoryPage() {
  const { page } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const [search] = useSearchParams();
  const revalidator = useRevalidator();
  const [selected, setSelected] = useState<InventorySku | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <>
      <PageHeader title={t('console.inventory.title')}>
        <p className="muted">{t('console.inventory.intro')}</p>
      </PageHeader>
      <Form method="get" className="filter-bar" aria-label={t('console.inventory.search')}>
        <SearchBox
          id="inventory-q"
          label={t('console.inventory.search')}
          placeholder={t('console.inventory.search')}
          value={search.get('q')}
        />
        <label className="check">
          <input type="checkbox" name="low" value="true" defaultChecked={search.get('low') === 'true'} />
          <span>{t('console.inventory.lowOnly')}</span>
        </label>
        <FilterApply />
      </Form>
      {done ? <Notice>{done}</Notice> : null}
      <div className={selected ? 'detail-grid' : undefined}>
        <div className={selected ? 'detail-grid__main' : undefined}>
          <div className="table-wrap">
            {page.records.length === 0 ? (
              <EmptyState title={t('console.inventory.none')} />
            ) : (
              <table className="data-table">
                <caption className="sr-only">{t('console.inventory.title')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('console.inventory.col.product')}</th>
                    <th scope="col" className="numeric">
                      {t('console.inventory.col.stock')}
                    </th>
                    <th scope="col" className="numeric">
                      {t('console.inventory.col.threshold')}
                    </th>
                    <th scope="col">
                      <span className="sr-only">{t('console.inventory.adjust')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {page.records.map((sku) => (
                    <tr key={sku.sku_id} className={selected?.sku_id === sku.sku_id ? 'is-selected' : undefined}>
                      <td>
                        <span className="cell-stack">
                          <span>{skuLabel(sku, locale)}</span>
                          <span className="mono muted">{sku.code}</span>
                        </span>
                      </td>
                      <td className="numeric">
                        {sku.low ? <Pill tone={sku.stock === 0 ? 'danger' : 'warning'}>{sku.stock}</Pill> : sku.stock}
                      </td>
                      <td className="numeric">
                        {sku.low_stock_threshold ?? <span className="muted">{t('console.inventory.notWatched')}</span>}
                      </td>
                      <td className="numeric">
                        <button
                          type="button"
                          className="button button--small"
                          aria-label={`${t('console.inventory.adjust')} ${sku.code}`}
                          onClick={() => {
                            setDone(null);
                            setSelected(sku);
                          }}
                        >
                          {t('console.inventory.adjust')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
          <Pager page={page.page} pages={Math.max(1, Math.ceil(page.total / PAGE_SIZE))} />
        </div>
        {selected ? (
          <div className="detail-grid__side">
            <SkuPanel
              key={selected.sku_id}
              sku={selected}
              onClose={() => setSelected(null)}
              onChanged={async (sku, message) => {
                setSelected(sku);
                setDone(message);
                await revalidator.revalidate();
              }}
            />
          </div>
        ) : null}
      </div>
    </>
  );
}

function SkuPanel({
  sku,
  onClose,
  onChanged,
}: {
  sku: InventorySku;
  onClose: () => void;
  onChanged: (sku: InventorySku, message: string) => Promise<void>;
}) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const [delta, setDelta] = useState('');
  const [reason, setReason] = useState<InventoryReason>('received');
  const [note, setNote] = useState('');
  const [threshold, setThreshold] = useState(sku.low_stock_threshold === null ? '' : String(sku.low_stock_threshold));
  const [history, setHistory] = useState<AdjustmentHistory['adjustments'] | null>(null);
  const panel = useRef<HTMLElement>(null);
  // Below the table (tablet width) the panel would open out of sight.
  useEffect(() => panel.current?.scrollIntoView({ block: 'nearest' }), []);
  const loadHistory = async () =>
    setHistory((await adminApi<AdjustmentHistory>(`/inventory/${sku.sku_id}/adjustments`)).adjustments);
  useEffect(() => {
    void loadHistory().catch(() => setHistory([]));
    // Once per SKU (the panel is keyed by it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const parsed = adjustmentBody.safeParse({ delta: Number(delta), reason, note });
  const deltaNumber = Number(delta);
  const after = delta.trim() !== '' && Number.isInteger(deltaNumber) ? sku.stock + deltaNumber : null;

  const adjust = useAction(async () => {
    const answer = await adminApi<{ sku: InventorySku }>(`/inventory/${sku.sku_id}/adjustments`, {
      body: { delta: deltaNumber, reason, note },
    });
    setDelta('');
    setNote('');
    await loadHistory();
    await onChanged(answer.sku, t('console.inventory.adjusted', { code: answer.sku.code, stock: answer.sku.stock }));
  });
  const watch = useAction(async () => {
    const value = threshold.trim() === '' ? null : Number(threshold);
    const answer = await adminApi<InventorySku>(`/inventory/${sku.sku_id}/threshold`, {
      method: 'PUT',
      body: { low_stock_threshold: value },
    });
    await onChanged(answer, t('console.inventory.thresholdSaved'));
  });

  return (
    <section ref={panel} className="panel" aria-labelledby="sku-panel-title">
      <PanelHead
        id="sku-panel-title"
        title={t('console.inventory.adjustTitle', { code: sku.code })}
        onClose={onClose}
      />
      <p className="muted sku-panel__facts">
        {skuLabel(sku, locale)} · {t('console.inventory.col.stock')} <strong>{sku.stock}</strong>
      </p>
      <form className="stack" noValidate onSubmit={submitWith(adjust.act)}>
        <div className="form-row">
          <div className="field">
            <label htmlFor="adjust-delta">{t('console.inventory.delta')}</label>
            <input
              id="adjust-delta"
              inputMode="numeric"
              value={delta}
              onChange={(event) => setDelta(event.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="adjust-reason">{t('console.inventory.reason')}</label>
            <select
              id="adjust-reason"
              value={reason}
              onChange={(event) => setReason(event.target.value as InventoryReason)}
            >
              {inventoryReasons.map((value) => (
                <option key={value} value={value}>
                  {t(REASON_LABELS[value])}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="field">
          <label htmlFor="adjust-note">{t('console.inventory.note')}</label>
          <textarea id="adjust-note" rows={2} value={note} onChange={(event) => setNote(event.target.value)} />
        </div>
        {after === null ? null : (
          <p className={after < 0 ? 'field__error' : 'muted'}>{t('console.inventory.after', { stock: after })}</p>
        )}
        <ErrorNotice error={adjust.error} />
        <div className="button-row">
          <button
            type="submit"
            className="button button--primary"
            disabled={adjust.busy || !parsed.success || (after !== null && after < 0)}
          >
            {t('console.inventory.apply')}
          </button>
        </div>
      </form>
      <form className="stack inventory-threshold" noValidate onSubmit={submitWith(watch.act)}>
        <div className="field field--short">
          <label htmlFor="adjust-threshold">{t('console.inventory.threshold')}</label>
          <input
            id="adjust-threshold"
            inputMode="numeric"
            value={threshold}
            onChange={(event) => setThreshold(event.target.value)}
          />
          <p className="field__hint">{t('console.inventory.thresholdHint')}</p>
        </div>
        <ErrorNotice error={watch.error} />
        <button type="submit" className="button" disabled={watch.busy}>
          {t('console.inventory.saveThreshold')}
        </button>
      </form>
      <h3 className="card__subtitle">{t('console.inventory.history')}</h3>
      {history === null ? null : history.length === 0 ? (
        <p className="muted">{t('console.inventory.noHistory')}</p>
      ) : (
        <ol className="plain-list inventory-history">
          {history.map((row) => (
            <li key={row.id}>
              <strong className={row.delta > 0 ? 'delta delta--in' : 'delta delta--out'}>
                {row.delta > 0 ? `+${row.delta}` : `−${-row.delta}`}
              </strong>{' '}
              {t(REASON_LABELS[row.reason])} → {row.stock_after}
              {row.note ? <span className="inventory-history__note">{row.note}</span> : null}
              <span className="muted inventory-history__by">
                {formatDateTime(row.at, locale)} · {row.by}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
