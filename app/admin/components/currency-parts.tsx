import { Link } from 'react-router';
import type { ExchangeRatesView } from '../../../server/domains/exchange-rates/exchange-rates.schemas';
import { adminApi, consoleSession } from '../lib/admin-api';
import { useConsoleT } from '../lib/console-context';
import { Pill } from './ui';

/** The stale exchange rates for home's attention list; null without `settings:write` or when none is stale. */
export async function loadStaleRates(signal: AbortSignal): Promise<ExchangeRatesView | null> {
  try {
    const { staff } = await consoleSession();
    if (!staff?.permissions.includes('settings:write')) return null;
    const view = await adminApi<ExchangeRatesView>('/exchange-rates', { signal });
    const stale = view.rates.filter((rate) => rate.stale);
    return stale.length ? { ...view, rates: stale } : null;
  } catch {
    return null;
  }
}

/** Home's card: which rates are stale, what that does to buyers, and the way to the currencies screen. */
export function StaleRatesCard({ stale }: { stale: ExchangeRatesView }) {
  const t = useConsoleT();
  return (
    <section className="card" aria-labelledby="stale-rates-title" data-testid="stale-rates">
      <h2 className="card__title" id="stale-rates-title">
        {t('console.home.staleRates')} <Pill tone="warning">{stale.rates.length}</Pill>
      </h2>
      <p className="muted">
        {t('console.home.staleRatesNote', {
          currencies: stale.rates.map((rate) => rate.currency).join(', '),
          settlement: stale.settlement_currency,
        })}
      </p>
      <Link className="button button--small" to="/admin/settings/currencies">
        {t('console.home.updateRates')}
      </Link>
    </section>
  );
}
