import { data } from 'react-router';
import { translate } from '../../i18n';
import { cartItemParams } from '../../server/domains/cart/cart.schemas';
import { CartPage } from '~/components/cart/cart-page';
import { formFields, parseForm, readForm, runAction } from '~/components/checkout/action-result.server';
import { routeLocale } from '~/components/checkout/route-locale';
import { requestCookies } from '~/lib/request-cookies.server';
import { pageMeta } from '~/lib/seo';
import { requireSessionUser } from '~/lib/session';
import type { Route } from './+types/cart';

/** The API's visitor cart cookie (server/http/routes/cart.routes.ts); merged here once its owner is logged in. */
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
  const view = await cart.getCart(context.ctx, { cartKey: cart.userCartKey(user.id), locale: routeLocale(params), currency });
  return data({ cart: view }, { headers });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** intent=set (sku_id, quantity) or intent=remove (sku_id); answers the new count for the header badge. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const user = requireSessionUser(context);
  const locale = routeLocale(params);
  const { cart } = context.services;
  const fields = formFields(await readForm(request, locale));
  const cartKey = cart.userCartKey(user.id);
  // The API's rule for a SKU id (a positive 32-bit integer): a bigger one used to reach the database and answer 500.
  const target = parseForm(locale, cartItemParams, fields);
  if (!target.ok) return { ok: false, error: target.error };
  const skuId = target.data.sku_id;
  const result = await runAction(locale, async () => {
    if (fields.intent === 'remove') await cart.removeFromCart(context.ctx, { cartKey, skuId });
    else await cart.setCartQuantity(context.ctx, { cartKey, skuId, quantity: Math.min(Math.max(Number(fields.quantity) || 1, 1), 99), locale });
    return cart.cartCount(context.ctx, cartKey);
  });
  return result.ok ? { ok: true, count: result.data, removed: fields.intent === 'remove' } : { ok: false, error: result.error };
}

export const meta: Route.MetaFunction = ({ matches, params }) => [
  ...pageMeta(matches, { title: translate(routeLocale(params), 'cart.title') }),
  { name: 'robots', content: 'noindex' },
];

export default function Cart({ loaderData }: Route.ComponentProps) {
  return <CartPage cart={loaderData.cart} />;
}
