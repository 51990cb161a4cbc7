import { data } from 'react-router';
import { z } from 'zod';
import { translate } from '../../i18n';
import type { MessagePacksHandle } from '../../i18n/packs';
import { GUEST_CART_COOKIE } from '../../server/shared/cookies';
import { cartItemParams, setCartItemBody } from '../../server/domains/cart/cart.schemas';
import { CartPage } from '~/components/cart/cart-page';
import { formFields, parseForm, readForm, runAction } from '~/lib/action-result.server';
import { routeLocale } from '~/lib/locale';
import { withMessagePacks } from '~/lib/message-packs';
import { requestCookies } from '~/lib/request-cookies.server';
import { pageMeta } from '~/lib/seo';
import type { Route } from './+types/cart';

/**
 * The cart this request works on, the buyer's or the visitor's (`cart.requestCart`, as the API
 * decides it), and the Set-Cookie that retires a visitor cart the buyer's account just took in.
 */
async function requestCart(request: Request, context: Route.LoaderArgs['context']) {
  const owner = await context.services.cart.requestCart(context.ctx, {
    userId: context.ctx.user?.id,
    guestCartCookie: requestCookies(request)[GUEST_CART_COOKIE],
  });
  const headers = new Headers();
  if (owner.guestCartAdopted)
    headers.append('set-cookie', `${GUEST_CART_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  return { cartKey: owner.cartKey, headers };
}

/** /{locale}/cart: the signed-in buyer's cart, or a visitor's cookie cart; nobody is asked to sign in before checkout. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { cartKey, headers } = await requestCart(request, context);
  const currency = (await context.services.siteSettings.getSiteSettings(context.ctx)).currency;
  const view = await context.services.cart.getCart(context.ctx, { cartKey, locale: routeLocale(params), currency });
  return data({ cart: view }, { headers });
}

// An action's merge needs no cookie of its own: the loader that runs after it clears it.
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** The cart's texts are in the account pack (checkout UI), as on the login-only pages. */
export const handle = { messagePacks: ['account'] } as const satisfies MessagePacksHandle;

export const clientLoader = (args: Route.ClientLoaderArgs) => withMessagePacks(args, handle.messagePacks);

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
  const locale = routeLocale(params);
  const { cart } = context.services;
  const parsed = parseForm(locale, cartForm, formFields(await readForm(request, locale)));
  if (!parsed.ok) {
    // No page of ours sends another intent: that request is malformed, not a buyer's mistake.
    return data({ ok: false, error: parsed.error }, { status: parsed.fields.intent ? 400 : 200 });
  }
  const form = parsed.data;
  const { cartKey } = await requestCart(request, context);
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
