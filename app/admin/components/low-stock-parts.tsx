import { Link } from 'react-router';
import type { InventorySku, LowStockList } from '../../../server/domains/catalog/inventory.schemas';
import { pickText, type Locale } from '../../../i18n/locales';
import { adminApi, consoleSession } from '../lib/admin-api';
import { useConsole, useConsoleT } from '../lib/console-context';
import { Pill } from './ui';

/** A SKU as staff name it: the product and its option values (`Linen shirt · Red / M`). */
export function skuLabel(sku: InventorySku, locale: Locale): string {
  const options = pickText(sku.options, locale);
  const product = pickText(sku.product_name, locale);
  return options ? `${product} · ${options}` : product;
}

/** Home's low-stock alerts; null for a member who may not change the catalogue, or when the call fails. */
export async function loadLowStock(signal: AbortSignal): Promise<LowStockList | null> {
  try {
    const { staff } = await consoleSession();
    if (!staff?.permissions.includes('catalog:write')) return null;
    return await adminApi<LowStockList>('/inventory/low-stock', { signal });
  } catch {
    return null;
  }
}

/** SKUs at or under the alert their operator set (Inventory), emptiest first. */
export function LowStockCard({ list }: { list: LowStockList }) {
  const t = useConsoleT();
  const { locale } = useConsole();
  return (
    <section className="card" aria-labelledby="low-stock-alerts-title" data-testid="low-stock-alerts">
      <h2 className="card__title" id="low-stock-alerts-title">
        {t('console.inventory.homeTitle')}
      </h2>
      {list.records.length === 0 ? (
        <p className="muted">{t('console.inventory.homeNone')}</p>
      ) : (
        <ul className="plain-list">
          {list.records.map((sku) => (
            <li key={sku.sku_id}>
              {skuLabel(sku, locale)} <span className="mono muted">{sku.code}</span>{' '}
              <Pill tone={sku.stock === 0 ? 'danger' : 'warning'}>
                {t('console.inventory.homeLevel', { stock: sku.stock, threshold: sku.alert_at })}
              </Pill>
            </li>
          ))}
        </ul>
      )}
      <Link className="text-link" to="/admin/inventory?low=true">
        {t('console.inventory.homeAll')}
      </Link>
    </section>
  );
}
