import { useEffect, useId, useState } from 'react';
import { useFetcher } from 'react-router';
import { CURRENCIES, currencySymbol, isCurrency, type Currency } from '../../../server/shared/money';
import { useDisplayCurrency } from '~/lib/currency';
import { useRootData } from '~/lib/root-data';
import { localePath, useCurrentPath, useLocale, useT } from '~/lib/i18n';
import { ChevronIcon } from '../ui/icons';
import { useHydrated } from './use-hydrated';

/**
 * The display currency (CNY, USD, EUR, JPY, GBP), remembered in the `currency` cookie by
 * /{locale}/preferences. Without JavaScript it is a small form with an Apply button that
 * comes back to this page; with JavaScript a choice posts through a fetcher and the page's
 * data reloads, so every price on the page switches in place.
 */
export function CurrencyPicker({ variant }: { variant: 'header' | 'drawer' }) {
  const t = useT();
  const locale = useLocale();
  const display = useDisplayCurrency();
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ ok: boolean }>();
  const { pathname, search } = useCurrentPath();
  const id = useId();
  const pending = fetcher.formData?.get('currency');
  const current: Currency = isCurrency(pending) ? pending : display.currency;
  const [announcement, setAnnouncement] = useState('');
  const currencyName = t(`currency.name.${display.currency}`);
  // The currencies the owner offers (site setting `display_currencies`); the one shown stays listed.
  const offered = useRootData()?.site.currencies;
  const choices = offered ? CURRENCIES.filter((code) => offered.includes(code) || code === current) : CURRENCIES;

  // Tell screen-reader users once this picker's change has reloaded the prices.
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok)
      setAnnouncement(t('currency.changed', { currency: currencyName }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);

  return (
    <fetcher.Form
      method="post"
      action={localePath(locale, '/preferences')}
      className={`currency-picker currency-picker--${variant}`}
      aria-busy={fetcher.state !== 'idle' || undefined}
    >
      {hydrated ? null : <input type="hidden" name="redirectTo" value={pathname + search} />}
      <label htmlFor={id} className={variant === 'drawer' ? 'drawer__label' : 'sr-only'}>
        {t('currency.label')}
      </label>
      <span className="currency-picker__control">
        <select
          id={id}
          name="currency"
          value={current}
          onChange={(event) => {
            if (hydrated) void fetcher.submit(event.currentTarget.form);
          }}
        >
          {choices.map((code) => (
            <option key={code} value={code}>
              {`${currencySymbol(code, locale)} ${code}${variant === 'drawer' ? ` · ${t(`currency.name.${code}`)}` : ''}`}
            </option>
          ))}
        </select>
        <ChevronIcon size={14} className="currency-picker__chevron" />
      </span>
      {hydrated ? null : (
        <button type="submit" className="button button--secondary currency-picker__apply">
          {t('currency.apply')}
        </button>
      )}
      <span className="sr-only" role="status">
        {announcement}
      </span>
    </fetcher.Form>
  );
}
