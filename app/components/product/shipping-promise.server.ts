import { translate } from '../../../i18n';
import type { ShippingTerms } from '../../../server/domains/shipping/shipping.service';
import { displayCurrencyOf } from '~/lib/currency.server';
import { displayPrice } from '~/lib/currency';
import type { StorefrontLoadContext } from '~/lib/context';
import type { ShippingPromise } from './service-notes';

/**
 * The product page's shipping promise (service note 3), worded on the server from the
 * shipping rules checkout charges by: one line true for every country the shop ships to, and
 * one line per country, which the page shows instead where the browser knows the buyer's
 * country (ADR 0119). The page stays one cached document per language and display currency.
 */
export async function shippingPromise(context: StorefrontLoadContext, request: Request): Promise<ShippingPromise> {
  const { ctx, services } = context;
  const locale = ctx.locale;
  const settings = await services.siteSettings.getSiteSettings(ctx);
  const display = displayCurrencyOf(request, settings);
  const money = (minor: number) => {
    const { text, approximate } = displayPrice(minor, display, locale);
    return approximate ? `≈${text}` : text;
  };
  const countries = (await services.areas.getAreaTree(ctx, { locale })).areas;
  const terms = await services.shipping.shippingTerms(
    ctx,
    countries.map((country) => country.id),
  );
  if (!terms.length) return [];
  const lines = terms.map((term) => {
    const country = countries.find((item) => item.id === term.countryCode)?.name ?? term.countryCode;
    return { country: term.countryCode, text: countryLine(term, country) };
  });
  return [...lines, { country: '*', text: generalLine(terms) }];

  function countryLine({ fromMinor, freeOverMinor }: ShippingTerms, country: string): string {
    if (freeOverMinor === 0) return translate(locale, 'shipping.promise.freeTo', { country });
    if (freeOverMinor === null) return translate(locale, 'shipping.promise.from', { country, fee: money(fromMinor) });
    return translate(locale, 'shipping.promise.freeOver', {
      country,
      amount: money(freeOverMinor),
      fee: money(fromMinor),
    });
  }

  /** True for every country: free everywhere, free from the lowest threshold, or the cheapest fee. */
  function generalLine(all: readonly ShippingTerms[]): string {
    if (all.every(({ freeOverMinor }) => freeOverMinor === 0))
      return translate(locale, 'shipping.promise.freeEverywhere');
    const thresholds = all.flatMap(({ freeOverMinor }) => (freeOverMinor === null ? [] : [freeOverMinor]));
    if (thresholds.length)
      return translate(locale, 'shipping.promise.freeOverAnywhere', { amount: money(Math.min(...thresholds)) });
    return translate(locale, 'shipping.promise.fromAnywhere', {
      fee: money(Math.min(...all.map(({ fromMinor }) => fromMinor))),
    });
  }
}
