import { useEffect, useId, useRef } from 'react';
import { Form, Link, useLocation } from 'react-router';
import { currencySymbol, MINOR_DIGITS } from '../../../server/shared/money';
import { displayPrice, useDisplayCurrency } from '~/lib/currency';
import { useLocale, useT } from '~/lib/i18n';
import { ChevronIcon, CloseIcon } from '../ui/icons';
import { hasActiveFilters, SORTS, type ListingFilters } from './listing';
import { useHydrated } from './use-hydrated';

const PRICE_PARAMS = ['min', 'max', 'cur', 'price_min', 'price_max', 'page'];

function withoutParams(pathname: string, search: string, drop: readonly string[]): string {
  const params = new URLSearchParams(search);
  for (const name of drop) params.delete(name);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

/**
 * The toolbar above a product grid: how many products, the price range and the sort order.
 * A GET form, so it works without JavaScript (an Apply button submits it); with JavaScript a
 * new sort order applies as soon as it is picked. The price range is typed in the buyer's
 * display currency; the form sends `cur` with it and the loader converts the bounds to the
 * settlement currency (app/components/catalog/price-range.ts).
 */
export function ListingFiltersForm({
  filters,
  total,
  hiddenFields = {},
}: {
  filters: ListingFilters;
  total: number;
  hiddenFields?: Record<string, string>;
}) {
  const t = useT();
  const locale = useLocale();
  const display = useDisplayCurrency();
  const hydrated = useHydrated();
  const { pathname, search } = useLocation();
  const id = useId();
  const details = useRef<HTMLDetailsElement>(null);
  const hasPrice = filters.priceMin !== null || filters.priceMax !== null;
  const currencyName = t(`currency.name.${display.currency}`);

  // The price panel closes on Escape and on a click elsewhere, like any popover.
  useEffect(() => {
    const element = details.current;
    if (!element) return;
    const onPointer = (event: PointerEvent) => {
      if (element.open && !element.contains(event.target as Node)) element.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && element.open) {
        element.open = false;
        element.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    element.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      element.removeEventListener('keydown', onKey);
    };
  }, []);

  let range = '';
  if (hasPrice) {
    const low = filters.priceMin !== null ? displayPrice(filters.priceMin, display, locale).text : null;
    const high = filters.priceMax !== null ? displayPrice(filters.priceMax, display, locale).text : null;
    range = low && high ? `${low} – ${high}` : low ? `≥ ${low}` : `≤ ${high}`;
  }

  return (
    <Form
      method="get"
      action={pathname}
      className="listing-toolbar"
      preventScrollReset
      // Bounds are shown in the display currency: a currency switch re-renders them.
      key={display.currency}
    >
      {Object.entries(hiddenFields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {filters.pageSize ? <input type="hidden" name="page_size" value={filters.pageSize} /> : null}
      <input type="hidden" name="cur" value={display.currency} />
      <div className="listing-toolbar__summary">
        <p className="listing-toolbar__count">
          {total === 1 ? t('listing.countOne') : t('listing.count', { count: total })}
        </p>
        {hasPrice ? (
          <Link
            className="filter-chip"
            to={withoutParams(pathname, search, PRICE_PARAMS)}
            preventScrollReset
            aria-label={t('listing.removePrice', { range })}
          >
            <span>{range}</span>
            <CloseIcon size={14} />
          </Link>
        ) : null}
        {hasActiveFilters(filters) ? (
          <Link
            className="listing-toolbar__clear"
            to={withoutParams(pathname, search, [...PRICE_PARAMS, 'sort'])}
            preventScrollReset
          >
            {t('listing.clear')}
          </Link>
        ) : null}
      </div>
      <div className="listing-toolbar__controls">
        <details ref={details} className="price-filter">
          <summary className="control-button">
            <span>{t('listing.price')}</span>
            <ChevronIcon size={16} className="control-button__chevron" />
          </summary>
          <div className="price-filter__panel">
            <p className="price-filter__hint" id={`${id}-hint`}>
              {t('listing.priceHint', {
                currency: currencyName,
                code: display.currency,
                symbol: currencySymbol(display.currency, locale),
              })}
            </p>
            <div className="price-filter__fields">
              <MoneyField bound="min" defaultValue={filters.min} describedBy={`${id}-hint`} />
              <span className="price-filter__dash" aria-hidden="true">
                –
              </span>
              <MoneyField bound="max" defaultValue={filters.max} describedBy={`${id}-hint`} />
            </div>
            <button type="submit" className="button button--primary price-filter__apply">
              {t('listing.apply')}
            </button>
          </div>
        </details>
        <label className="select-field">
          <span className="select-field__label">{t('listing.sort')}</span>
          <span className="select-field__control">
            <select
              name="sort"
              defaultValue={filters.sort}
              onChange={(event) => {
                if (hydrated) event.currentTarget.form?.requestSubmit();
              }}
            >
              {SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {t(`listing.sort.${sort}`)}
                </option>
              ))}
            </select>
            <ChevronIcon size={16} className="select-field__chevron" />
          </span>
        </label>
        {hydrated ? null : (
          <button type="submit" className="button button--secondary listing-toolbar__apply">
            {t('listing.apply')}
          </button>
        )}
      </div>
    </Form>
  );
}

/** One bound of the price range: an amount in the display currency, its symbol before it. */
function MoneyField({
  bound,
  defaultValue,
  describedBy,
}: {
  bound: 'min' | 'max';
  defaultValue: string;
  describedBy: string;
}) {
  const t = useT();
  const locale = useLocale();
  const display = useDisplayCurrency();
  const names = { currency: t(`currency.name.${display.currency}`), code: display.currency };
  const decimals = MINOR_DIGITS[display.currency];
  return (
    <label className="money-field">
      <span className="money-field__label">
        {bound === 'min' ? t('listing.priceMinShort') : t('listing.priceMaxShort')}
      </span>
      <span className="money-field__control">
        <span className="money-field__symbol" aria-hidden="true">
          {currencySymbol(display.currency, locale)}
        </span>
        <input
          name={bound}
          type="text"
          inputMode={decimals > 0 ? 'decimal' : 'numeric'}
          pattern={decimals > 0 ? `\\d+([.,]\\d{0,${decimals}})?` : '\\d+'}
          autoComplete="off"
          defaultValue={defaultValue}
          aria-label={bound === 'min' ? t('listing.priceMin', names) : t('listing.priceMax', names)}
          aria-describedby={describedBy}
        />
      </span>
    </label>
  );
}
