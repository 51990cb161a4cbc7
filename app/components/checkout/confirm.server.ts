import { randomUUID } from 'node:crypto';
import { data, redirect } from 'react-router';
import { z } from 'zod';
import { translate, type Locale } from '../../../i18n';
import { isCurrency, type Currency } from '../../../server/shared/money';
import { MAX_LINE_QUANTITY } from '../../../server/domains/cart/cart.schemas';
import { createOrderBody } from '../../../server/domains/checkout/checkout.schemas';
import type { OverloadedError } from '../../../server/shared/errors';
import { describeIssue } from '../../../server/shared/issue-messages';
import type { StorefrontLoadContext } from '~/lib/context';
import { DISPLAY_CURRENCY_COOKIE } from '~/lib/currency';
import { requestCookies } from '~/lib/request-cookies.server';
import { localePath } from '~/lib/i18n';
import { loadAreaOptions } from '../address/areas.server';
import { formFields, parseForm, readForm, refusalOf, refusalText } from '~/lib/action-result.server';

/** What is being bought: Buy Now's one SKU (`sku_id`/`quantity`, or `sku`/`qty`) or the whole cart (`from=cart`). */
export type Source = { kind: 'items'; skuId: number; quantity: number } | { kind: 'cart' };

function positive(value: string | null | undefined): number | undefined {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 && number <= 2_147_483_647 ? number : undefined;
}

/** The page address's `sku_id`/`quantity` (or `sku`/`qty`, as older links write them), or `from=cart`. */
function sourceOf(params: URLSearchParams): Source | null {
  const get = (name: string) => params.get(name);
  if (get('from') === 'cart') return { kind: 'cart' };
  const skuId = positive(get('sku_id') ?? get('sku'));
  if (!skuId) return null;
  const quantity = Math.min(positive(get('quantity') ?? get('qty')) ?? 1, MAX_LINE_QUANTITY);
  return { kind: 'items', skuId, quantity };
}

function sourceInput(source: Source) {
  return source.kind === 'cart'
    ? { from_cart: true }
    : { items: [{ sku_id: source.skuId, quantity: source.quantity }] };
}

/** The `coupon` of the page's address, under the API's rule for `coupon_code` (named so its message names it). */
const couponQuery = z.object({ coupon_code: createOrderBody.shape.coupon_code });

function displayCurrencyOf(request: Request): Currency | undefined {
  const chosen = requestCookies(request)[DISPLAY_CURRENCY_COOKIE];
  return isCurrency(chosen) ? chosen : undefined;
}

/**
 * The confirm page's data: the price from the same quote the API's `/v2/order/confirm`
 * answers (a coupon the quote refuses is dropped and its message shown), the buyer's
 * addresses, the area options for the add-address dialog, and a fresh idempotency key for
 * this attempt to buy.
 */
export async function loadConfirm(context: StorefrontLoadContext, request: Request, userId: number, locale: Locale) {
  const url = new URL(request.url);
  const source = sourceOf(url.searchParams);
  const { addresses, checkout } = context.services;
  const [addressList, countries] = await Promise.all([
    addresses.listAddresses(context.ctx, { userId, locale }),
    loadAreaOptions(context, locale),
  ]);
  const chosen = positive(url.searchParams.get('address_id'));
  const addressId = chosen && addressList.some((address) => address.id === chosen) ? chosen : undefined;
  // The API's rule for the field: a code with control characters is dropped with its message.
  const typedCoupon = couponQuery.safeParse({ coupon_code: url.searchParams.get('coupon') || undefined });
  const coupon = typedCoupon.success ? typedCoupon.data.coupon_code || undefined : undefined;
  const couponRefusal = typedCoupon.success ? null : describeIssue(locale, typedCoupon.error.issues[0]!, 'querystring');
  const base = {
    source,
    addresses: addressList,
    countries,
    coupon: coupon ?? '',
    idempotencyKey: randomUUID(),
    couponError: couponRefusal,
  };
  if (!source) return { ...base, view: null, error: translate(locale, 'order.empty') };

  const quote = (couponCode?: string) =>
    checkout
      .quoteOrder(context.ctx, {
        ...sourceInput(source),
        userId,
        address_id: addressId,
        coupon_code: couponCode,
        currency: displayCurrencyOf(request),
        locale,
      })
      .then((result) => checkout.confirmView(result, locale));
  try {
    return { ...base, view: await quote(coupon), error: null };
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    const message = refusalText(locale, refusal);
    if (coupon) {
      try {
        return { ...base, view: await quote(undefined), error: null, couponError: message };
      } catch (retry) {
        const second = refusalOf(retry);
        if (!second) throw retry;
        return { ...base, view: null, error: refusalText(locale, second) };
      }
    }
    return { ...base, view: null, error: message };
  }
}

/**
 * The place-order form as POST /v2/order's body: the hidden fields say what is bought
 * (`from=cart`, or Buy Now's `sku_id` and `quantity`); numbers arrive as text.
 */
function orderBodyOf(fields: Record<string, string>, currency: Currency | undefined) {
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  const source =
    fields.from === 'cart'
      ? { from_cart: true }
      : fields.sku_id
        ? { items: [{ sku_id: number(fields.sku_id), quantity: number(fields.quantity ?? '1') }] }
        : {};
  return {
    ...source,
    address_id: number(fields.address_id),
    coupon_code: fields.coupon_code,
    notes: fields.notes,
    idempotency_key: fields.idempotency_key,
    currency,
  };
}

/** Place order: creates the order once per idempotency key (a double submit answers the same order), then goes to pay. */
export async function placeOrderAction(
  context: StorefrontLoadContext,
  request: Request,
  userId: number,
  locale: Locale,
) {
  const fields = formFields(await readForm(request, locale));
  // The API's schema, so every field follows the same rules as POST /v2/order.
  const parsed = parseForm(locale, createOrderBody, orderBodyOf(fields, displayCurrencyOf(request)));
  if (!parsed.ok) return { ok: false as const, error: parsed.error };
  const { idempotency_key: key, ...order } = parsed.data;
  // The API takes the key from a header too; the page's form always carries it.
  if (!key) return { ok: false as const, error: translate(locale, 'order.idempotencyKeyInvalid') };
  try {
    const placed = await context.services.orderPlacement.placeOrder(context.ctx, {
      ...order,
      coupon_code: order.coupon_code || undefined,
      notes: order.notes || undefined,
      userId,
      idempotencyKey: key,
      locale,
      signal: request.signal,
    });
    return redirect(`${localePath(locale, '/order/pay')}?order_id=${placed.order.id}`);
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal?.kind === 'overloaded') {
      // Answered 503: React Router does not reload the page's data after a failed action, so
      // the form keeps its idempotency key and no quote is read again while the shop is busiest.
      return data(
        { ok: false as const, error: refusalText(locale, refusal) },
        { status: 503, headers: { 'retry-after': String((refusal as OverloadedError).retryAfterSeconds) } },
      );
    }
    if (refusal) return { ok: false as const, error: refusalText(locale, refusal) };
    throw error;
  }
}
