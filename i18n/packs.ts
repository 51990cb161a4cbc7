import type { MessageArea } from './areas';

/**
 * The browser loads messages in packs, one locale at a time, instead of every area in both
 * languages (docs/decisions/0033-javascript-budget.md).
 * - `storefront` is on every page: the frame, error pages, prices, the product page and
 *   toasts (API errors arrive already translated in the answer's `msg`).
 * - `browse` (home, listings, search, content pages) and `account` (login-only pages) join
 *   it where a route asks for them with its `messagePacks` handle and `clientLoader`
 *   (app/lib/message-packs.ts); `account` also arrives when the login modal opens.
 * A component may only use keys of the packs loaded where it renders: i18n/packs.test.ts
 * checks the sources, and in the browser a missing key is a console error, which fails the
 * browser tests.
 */
/**
 * The packs' names, apart from what they hold: the browser needs only the names, and the lists
 * below would cost every page's JavaScript a few hundred bytes (`satisfies` keeps both in step).
 */
const MESSAGE_PACK_NAMES = ['storefront', 'browse', 'account', 'admin'] as const;
export type MessagePack = (typeof MESSAGE_PACK_NAMES)[number];

export const MESSAGE_PACKS = {
  storefront: ['shell', 'catalog', 'listing', 'productPage'],
  browse: ['browse'],
  account: [
    'errors',
    'fields',
    'accounts',
    'accountUi',
    'addresses',
    'orders',
    'payments',
    'checkoutUi',
    'duties',
    'afterSales',
    'afterSalesUi',
    'imageUploads',
  ],
  /** The console (app/admin); never loaded by storefront pages. */
  admin: [
    'admin',
    'adminConsole',
    'adminStaff',
    'adminOrders',
    'adminCustomers',
    'adminAfterSales',
    'adminDuties',
    'adminMedia',
    'adminGroupsInventory',
    'adminCurrencies',
    'adminShippingCoupons',
    'adminProducts',
    'adminProductCsv',
    'adminContent',
  ],
} as const satisfies Record<MessagePack, readonly MessageArea[]>;

export const ALWAYS_LOADED_PACK: MessagePack = 'storefront';

export function isMessagePack(value: unknown): value is MessagePack {
  return typeof value === 'string' && (MESSAGE_PACK_NAMES as readonly string[]).includes(value);
}

/** The route handle field a route sets to have packs loaded before it renders in the browser. */
export interface MessagePacksHandle {
  messagePacks?: readonly MessagePack[];
}
