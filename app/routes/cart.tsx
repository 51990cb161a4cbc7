import { data } from 'react-router';
import { z } from 'zod';
import { translate } from '../../i18n';
import { cartItemParams, setCartItemBody } from '../../server/domains/cart/cart.schemas';
import { CartPage } from '~/components/cart/cart-page';
import { formFields, parseForm, readForm, runAction } from '~/lib/action-result.server';
import { routeLocale } from '~/lib/locale';
import { requestCookies } from '~/lib/request-cookies.server';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/cart';

/** The API's visitor cart cookie (server/http/guest-cart.ts); merged here once its owner is logged in. */
const GUEST_CART_COOKIE = 'cart_id';
const GUEST_CART_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** /{locale}/cart, under the guard layout: the buyer's cart through services.cart. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = requireSessionUser(context);
  const { cart, siteSettings } = context.services;
  const guest = requestCookies(request)[GUEST_CART_COOKIE];
  const headers = new Headers();
  if (guest && GUEST_CART_ID.test(guest)) {
    await cart.mergeGuestCart(context.ctx, { guestCartId: guest, userId: user.id });
    headers.append('set-cookie', `${GUEST_CART_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  }
  const currency = (await siteSettings.getSiteSettings(context.ctx)).currency;
  const view = await cart.getCart(context.ctx, {
    cartKey: cart.userCartKey(user.id),
    locale: routeLocale(params),
    currency,
  });
  return data({ cart: view }, { headers });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * The cart form's closed set of intents, each with the API's rules for its fields
 * (PUT and DELETE /v1/cart/{sku_id}); a form's quantity arrives as text.
 */
const cartForm = z.discriminatedUnion('intent', [
  cartItemParams.extend({
    intent: z.literal('set'),
    quantity: z.coerce.number().pipe(setCartItemBody.shape.quantity),
  }),
  cartItemParams.extend({ intent: z.literal('remove') }),
]);

/** intent=set (sku_id, quantity) or intent=remove (sku_id); answers the new count for the header badge. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = requireSessionUser(context);
  const locale = routeLocale(params);
  const { cart } = context.services;
  const parsed = parseForm(locale, cartForm, formFields(await readForm(request, locale)));
  if (!parsed.ok) {
    // No page of ours sends another intent: that request is malformed, not a buyer's mistake.
    return data({ ok: false, error: parsed.error }, { status: parsed.fields.intent ? 400 : 200 });
  }
  const form = parsed.data;
  const cartKey = cart.userCartKey(user.id);
  const result = await runAction(locale, async () => {
    if (form.intent === 'remove') await cart.removeFromCart(context.ctx, { cartKey, skuId: form.sku_id });
    else await cart.setCartQuantity(context.ctx, { cartKey, skuId: form.sku_id, quantity: form.quantity, locale });
    return cart.cartCount(context.ctx, cartKey);
  });
  return result.ok
    ? { ok: true, count: result.data, removed: form.intent === 'remove' }
    : { ok: false, error: result.error };
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'cart.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function Cart({ loaderData }: Route.ComponentProps) {
  return <CartPage cart={loaderData.cart} />;
}
