import { translate } from '../../../i18n';
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
    ctx.db,
    countries.map((country) => country.id),
  );
  if (!terms.length) return [];
  const lines = terms.map(({ countryCode, fromMinor, freeOverMinor }) => {
    const country = countries.find((item) => item.id === countryCode)?.name ?? countryCode;
    const text =
      freeOverMinor === 0
        ? translate(locale, 'shipping.promise.freeTo', { country })
        : freeOverMinor === null
          ? translate(locale, 'shipping.promise.from', { country, fee: money(fromMinor) })
          : translate(locale, 'shipping.promise.freeOver', {
              country,
              amount: money(freeOverMinor),
              fee: money(fromMinor),
            });
    return { country: countryCode, text };
  });
  const thresholds = terms.flatMap(({ freeOverMinor }) => (freeOverMinor === null ? [] : [freeOverMinor]));
  const general = terms.every(({ freeOverMinor }) => freeOverMinor === 0)
    ? translate(locale, 'shipping.promise.freeEverywhere')
    : thresholds.length
      ? translate(locale, 'shipping.promise.freeOverAnywhere', { amount: money(Math.min(...thresholds)) })
      : translate(locale, 'shipping.promise.fromAnywhere', {
          fee: money(Math.min(...terms.map(({ fromMinor }) => fromMinor))),
        });
  return [...lines, { country: '*', text: general }];
}
