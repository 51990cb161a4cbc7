import type { RequestContext } from './context';
import type { BrandFiles } from './http/brand-files';
import * as addresses from './domains/addresses/addresses.service';
import * as afterSales from './domains/after-sales/after-sales.service';
import * as areas from './domains/areas/areas.service';
import * as cart from './domains/cart/cart.service';
import * as catalogGroups from './domains/catalog/groups.service';
import * as catalogProducts from './domains/catalog/products.service';
import * as checkout from './domains/checkout/checkout.service';
import * as orderPlacement from './domains/checkout/place-order.service';
import * as content from './domains/content/content.service';
import * as accounts from './domains/customers/accounts.service';
import { googlePublicConfig } from './domains/customers/google.service';
import * as sessions from './domains/customers/sessions.service';
import * as orders from './domains/orders/orders.service';
import * as payments from './domains/payments/payments.service';
import * as paymentReturns from './domains/payments/payment-returns.service';
import * as shipping from './domains/shipping/shipping.service';
import * as siteSettings from './domains/site-settings/site-settings.service';

/**
 * The domain as the storefront sees it. Loaders receive this object through the load
 * context instead of importing server modules, so the page bundle and the API share one
 * copy of every service (and of its caches).
 */
export const services = {
  addresses,
  afterSales,
  areas,
  cart,
  checkout,
  orderPlacement,
  orders,
  catalogGroups,
  catalogProducts,
  content,
  payments,
  paymentReturns,
  /** The accounts service the `/v1/user/*` handlers call, and whether Google sign-in is offered. */
  customers: { ...accounts, googlePublicConfig },
  sessions,
  shipping,
  siteSettings,
};

export type Services = typeof services;

/** What every storefront loader and action receives as `context`. */
export interface StorefrontLoadContext {
  ctx: RequestContext;
  services: Services;
  /** The addresses of the shop's own logo files, versioned so browsers keep them a year. */
  brand: BrandFiles;
}
