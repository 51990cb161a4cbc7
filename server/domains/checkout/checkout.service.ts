import { pickText, translate, type Locale } from '../../../i18n';
import type { AppContext } from '../../context';
import { BadRequestError, NotFoundError } from '../../shared/errors';
import {
  amountView,
  convert,
  formatAmount,
  rateText,
  rateToScaled,
  RATE_SCALE,
  type Currency,
} from '../../shared/money';
import { addressView } from '../addresses/addresses.service';
import { userCartKey } from '../cart/cart.service';
import { evaluateCoupon, findCoupon, type Coupon } from '../coupons/coupons.service';
import { dutiesView, quoteDuties, quoteLines } from '../duties/duties.service';
import type { DutyQuote } from '../duties/duty-rules';
import { shippingFee, shippingRuleFor } from '../shipping/shipping.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { MAX_ORDER_LINES, type ConfirmView } from './checkout.schemas';
import { assertLineBuyable, propertiesText, type SkuFacts } from '../catalog/sku-facts';
import { readQuoteFacts, type QuoteFacts, type RequestedLine } from './quote-facts';

/**
 * The price of an order, computed on the server from the catalogue, the address, the
 * shipping rules and the coupon. Nothing money-related comes from the client.
 */
export interface QuoteInput {
  userId: number;
  items?: Array<{ sku_id: number; quantity: number }>;
  from_cart?: boolean;
  address_id?: number;
  coupon_code?: string;
  currency?: Currency;
  locale: Locale;
  now?: Date;
}

export interface QuoteLine {
  sku: SkuFacts;
  quantity: number;
  /** In the settlement currency. */
  unitPriceMinor: number;
  lineTotalMinor: number;
}

export interface Quote {
  lines: QuoteLine[];
  fromCart: boolean;
  address: QuoteFacts['address'];
  coupon: Coupon | null;
  currency: Currency;
  displayCurrency: Currency;
  /** Units of the display currency per settlement unit, in millionths (RATE_SCALE). */
  displayRateMicros: number;
  rates: Record<Currency, number>;
  weightGrams: number;
  goodsMinor: number;
  shippingMinor: number;
  discountMinor: number;
  /** Duties and import taxes of an address abroad (null at home or without an address); `chargedMinor` is in the total. */
  duties: DutyQuote | null;
  totalMinor: number;
  displayTotalMinor: number;
}

/** The lines of a quote for chosen SKUs, checked before anything is read. */
function chosenLines(input: QuoteInput): RequestedLine[] {
  const items = input.items ?? [];
  if (items.length === 0) throw new BadRequestError('order.empty');
  if (new Set(items.map((item) => item.sku_id)).size !== items.length) throw new BadRequestError('order.duplicateSku');
  return items.map((item) => ({ skuId: item.sku_id, quantity: item.quantity }));
}

function cartOrderLines(lines: RequestedLine[]): RequestedLine[] {
  if (lines.length === 0) throw new BadRequestError('order.cartEmpty');
  if (lines.length > MAX_ORDER_LINES) throw new BadRequestError('order.tooManyLines', { max: MAX_ORDER_LINES });
  return lines;
}

/**
 * The quote's reads, in one statement (quote-facts.ts); with an idempotency key, the order it
 * already placed too, which the caller answers before pricing anything.
 */
export async function readQuote(
  ctx: AppContext,
  input: QuoteInput & { idempotencyKey?: string },
): Promise<QuoteFacts & { requested: RequestedLine[] }> {
  const chosen = input.from_cart ? null : chosenLines(input);
  const facts = await readQuoteFacts(ctx.db, {
    userId: input.userId,
    cartKey: chosen ? null : userCartKey(input.userId),
    skuIds: chosen ? chosen.map((line) => line.skuId) : [],
    addressId: input.address_id ?? null,
    idempotencyKey: input.idempotencyKey ?? null,
  });
  // A repeated key's order emptied the cart it came from: that is no refusal.
  const requested = chosen ?? (facts.orderWithKey ? facts.cartLines : cartOrderLines(facts.cartLines));
  return { ...facts, requested };
}

export async function quoteOrder(ctx: AppContext, input: QuoteInput): Promise<Quote> {
  return priceQuote(ctx, input, await readQuote(ctx, input));
}

/** Prices what `readQuote` read: the rules, rates, coupons and duties come from memory. */
export async function priceQuote(
  ctx: AppContext,
  input: QuoteInput,
  facts: Pick<QuoteFacts, 'skus' | 'address'> & { requested: RequestedLine[] },
): Promise<Quote> {
  const now = input.now ?? new Date();
  const settings = await getSiteSettings(ctx);
  const currency = settings.currency;
  const rates = settings.exchange_rates;
  const lines: QuoteLine[] = facts.requested.map(({ skuId, quantity }) => {
    const sku = facts.skus.get(skuId);
    assertLineBuyable(sku, quantity, input.locale);
    const unitPriceMinor = convert(
      { amountMinor: sku.priceMinor, currency: sku.currency },
      currency,
      rates,
    ).amountMinor;
    return { sku, quantity, unitPriceMinor, lineTotalMinor: unitPriceMinor * quantity };
  });
  const goodsMinor = lines.reduce((sum, line) => sum + line.lineTotalMinor, 0);
  const weightGrams = lines.reduce(
    (sum, line) => sum + (line.sku.freeShipping ? 0 : line.sku.weightGrams * line.quantity),
    0,
  );

  const address = facts.address;
  if (input.address_id !== undefined && !address) throw new NotFoundError('address.notFound');
  const shippingMinor = address
    ? shippingFee(await shippingRuleFor(ctx, address.countryCode), { weightGrams, goodsMinor })
    : 0;

  let coupon: Coupon | null = null;
  let discountMinor = 0;
  if (input.coupon_code) {
    const check = evaluateCoupon(await findCoupon(ctx.db, input.coupon_code), goodsMinor, now);
    if (!check.ok) {
      const amount =
        check.minSpendMinor !== undefined ? formatAmount({ amountMinor: check.minSpendMinor, currency }) : '';
      throw new BadRequestError(check.messageKey, { amount: `${amount} ${currency}` });
    }
    coupon = check.coupon;
    discountMinor = check.discountMinor;
  }

  const duties = address
    ? await quoteDuties(ctx, {
        destination: address.countryCode,
        lines: lines.map((line) => ({
          skuId: line.sku.skuId,
          hsCode: line.sku.hsCode,
          originCountry: line.sku.originCountry,
          lineTotalMinor: line.lineTotalMinor,
        })),
        discountMinor,
        shippingMinor,
        settlementCurrency: currency,
        exchangeRates: rates,
        at: now,
      })
    : null;
  const totalMinor = goodsMinor + shippingMinor - discountMinor + (duties?.chargedMinor ?? 0);
  const displayCurrency = input.currency ?? currency;
  const displayRateMicros = Number((rateToScaled(rates[displayCurrency]) * RATE_SCALE) / rateToScaled(rates[currency]));
  return {
    lines,
    fromCart: Boolean(input.from_cart),
    address,
    coupon,
    currency,
    displayCurrency,
    displayRateMicros,
    rates,
    weightGrams,
    goodsMinor,
    shippingMinor,
    discountMinor,
    duties,
    totalMinor,
    displayTotalMinor: amountView(totalMinor, currency, displayCurrency, displayRateMicros).display_amount_minor,
  };
}

export async function confirmView(quote: Quote, locale: Locale): Promise<ConfirmView> {
  const money = (minor: number) => amountView(minor, quote.currency, quote.displayCurrency, quote.displayRateMicros);
  const pick = (text: Parameters<typeof pickText>[0]) => pickText(text, locale);
  return {
    lines: quote.lines.map((line) => ({
      sku_id: line.sku.skuId,
      product_id: line.sku.productId,
      name: pick(line.sku.productName),
      properties: propertiesText(line.sku.properties, pick),
      image: line.sku.image,
      quantity: line.quantity,
      unit_price: money(line.unitPriceMinor),
      line_total: money(line.lineTotalMinor),
    })),
    address: quote.address ? await addressView(quote.address, locale) : null,
    needs_address: !quote.address,
    currency: quote.currency,
    display_currency: quote.displayCurrency,
    exchange_rate: rateText(quote.displayRateMicros),
    weight_grams: quote.weightGrams,
    coupon: quote.coupon ? { code: quote.coupon.code, discount: money(quote.discountMinor) } : null,
    product_price: money(quote.goodsMinor),
    shipping_fee: money(quote.shippingMinor),
    discount: money(quote.discountMinor),
    duties: quote.duties ? dutiesView(quoteLines(quote.duties), quote, locale) : null,
    total: money(quote.totalMinor),
    labels: {
      product_price: translate(locale, 'checkout.productPrice'),
      shipping_fee: translate(locale, 'checkout.shippingFee'),
      discount: translate(locale, 'checkout.discount'),
      total: translate(locale, 'checkout.total'),
    },
  };
}
