import { z } from 'zod';
import { rowIdFromText } from '../../shared/ids.schemas';
import { currencyCode } from '../../shared/money.schemas';
import { auditEventView } from '../audit/audit.schemas';
import { emailField } from './accounts.schemas';

/**
 * The customers area of the admin API (docs/console.md): list and search, detail, disable and
 * enable, sign out everywhere, data export and erasure. Fields are snake_case like the rest
 * of the API; money is integer minor units with its currency code.
 */

/** active: can sign in; disabled: refused by staff (reversible); erased: personal data removed (final). */
export const CUSTOMER_STATUSES = ['active', 'disabled', 'erased'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/** List orders: newest or oldest account first, or alphabetical by email or username. */
export const CUSTOMER_SORTS = ['-created_at', 'created_at', 'email', '-email', 'username', '-username'] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];

export const customerListQuery = z.object({
  /** Part of an email, username or mobile number (at least the characters typed; case ignored). */
  q: z.string().trim().max(200).optional(),
  status: z.enum(CUSTOMER_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
  sort: z.enum(CUSTOMER_SORTS).default('-created_at'),
});
export type CustomerListQuery = z.infer<typeof customerListQuery>;

export const customerIdParams = z.object({ id: rowIdFromText });

/** What the shop has earned from a customer: paid orders in the settlement currency. */
const spending = {
  order_count: z.number().int().describe('every order the customer placed, whatever its status'),
  total_spent_minor: z
    .number()
    .int()
    .describe('sum of paid orders in the settlement currency, minor units (refunds not subtracted)'),
  currency: currencyCode.describe('the settlement currency'),
  last_order_at: z.string().nullable(),
};

export const customerRow = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  mobile: z.string().nullable(),
  status: z.enum(CUSTOMER_STATUSES),
  created_at: z.string(),
  ...spending,
});
export type CustomerRow = z.infer<typeof customerRow>;

export const customerPage = z.object({
  records: z.array(customerRow),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type CustomerPage = z.infer<typeof customerPage>;

export const customerProfile = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  mobile: z.string().nullable(),
  sex: z.literal([0, 1, 2]).describe('1 male, 2 female, 0 not given'),
  avatar: z.string().nullable(),
  email_verified_at: z.string().nullable(),
  has_password: z.boolean(),
  created_at: z.string(),
  status: z.enum(CUSTOMER_STATUSES),
  disabled_at: z.string().nullable(),
  erased_at: z.string().nullable(),
});
export type CustomerProfile = z.infer<typeof customerProfile>;

export const customerOrderRow = z.object({
  id: z.number().int(),
  order_no: z.string(),
  status: z.number().int().describe('SPEC section 4 order status'),
  pay_status: z.number().int().describe('1 pending, 2 paid, 3 cancelled'),
  total_minor: z.number().int(),
  currency: currencyCode,
  item_count: z.number().int(),
  created_at: z.string(),
});
export type CustomerOrderRow = z.infer<typeof customerOrderRow>;

export const customerAddressView = z.object({
  id: z.number().int(),
  country_code: z.string(),
  province: z.string(),
  city: z.string(),
  detail: z.string(),
  postal_code: z.string(),
  contact_name: z.string(),
  contact_phone: z.string(),
  is_default: z.boolean(),
});
export type CustomerAddressView = z.infer<typeof customerAddressView>;

export const customerSessionView = z.object({
  id: z.number().int(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
});
export type CustomerSessionView = z.infer<typeof customerSessionView>;

export const customerDetail = z.object({
  profile: customerProfile,
  spending: z.object(spending),
  orders: z.array(customerOrderRow).describe('the 20 most recent, newest first'),
  addresses: z.array(customerAddressView),
  sessions: z.array(customerSessionView).describe('live sessions (not revoked, not expired), most recently seen first'),
  identities: z.array(z.object({ provider: z.string(), linked_at: z.string() })).describe('e.g. google'),
  timeline: z.array(auditEventView).describe("the audit log's events about this customer, oldest first"),
});
export type CustomerDetail = z.infer<typeof customerDetail>;

/** Why staff disabled the account; kept in the audit log, never shown to the buyer. */
export const disableCustomerBody = z.object({ reason: z.string().trim().min(1).max(500) });
export type DisableCustomerBody = z.infer<typeof disableCustomerBody>;

/** Erasure is final: staff type the customer's current email to confirm they mean this one. */
export const eraseCustomerBody = z.object({ confirm_email: emailField });
export type EraseCustomerBody = z.infer<typeof eraseCustomerBody>;

/** The answer of disable, enable and sign-out: the account's state afterwards. */
export const customerActionResult = z.object({
  id: z.number().int(),
  status: z.enum(CUSTOMER_STATUSES),
  sessions_revoked: z.number().int().describe('sessions this call ended'),
});
export type CustomerActionResult = z.infer<typeof customerActionResult>;

export const eraseCustomerResult = z.object({
  id: z.number().int(),
  status: z.literal('erased'),
  erased_at: z.string(),
  /** False when the customer had already been erased: nothing more was done. */
  erased_now: z.boolean(),
  orders_kept: z.number().int(),
  files_removed: z.number().int(),
});
export type EraseCustomerResult = z.infer<typeof eraseCustomerResult>;

const exportedAddress = customerAddressView.omit({ id: true }).extend({ created_at: z.string() });

/**
 * A customer's data export: everything the shop holds about them, for a data-access request.
 * Never holds a password hash, a session token or a provider's subject id.
 */
export const customerExport = z.object({
  exported_at: z.string(),
  profile: customerProfile.omit({ status: true }),
  addresses: z.array(exportedAddress),
  orders: z.array(
    z.object({
      order_no: z.string(),
      status: z.number().int(),
      pay_status: z.number().int(),
      created_at: z.string(),
      currency: currencyCode,
      goods_amount_minor: z.number().int(),
      shipping_fee_minor: z.number().int(),
      discount_minor: z.number().int(),
      total_minor: z.number().int(),
      coupon_code: z.string().nullable(),
      notes: z.string(),
      shipping_address: z.object({
        country_code: z.string(),
        province: z.string(),
        city: z.string(),
        detail: z.string(),
        postal_code: z.string(),
        contact_name: z.string(),
        contact_phone: z.string(),
      }),
      carrier_code: z.string().nullable(),
      tracking_no: z.string().nullable(),
      paid_at: z.string().nullable(),
      shipped_at: z.string().nullable(),
      delivered_at: z.string().nullable(),
      lines: z.array(
        z.object({
          sku_code: z.string(),
          product_name: z.string(),
          properties: z.string(),
          quantity: z.number().int(),
          unit_price_minor: z.number().int(),
          line_total_minor: z.number().int(),
        }),
      ),
      payments: z.array(
        z.object({
          provider: z.string(),
          status: z.string(),
          amount_minor: z.number().int(),
          currency: currencyCode,
          created_at: z.string(),
          paid_at: z.string().nullable(),
          refunded_at: z.string().nullable(),
        }),
      ),
    }),
  ),
  sessions: z.array(customerSessionView.extend({ revoked_at: z.string().nullable() })),
  identities: z.array(z.object({ provider: z.string(), linked_at: z.string() })),
  cart: z.array(z.object({ sku_id: z.number().int(), quantity: z.number().int(), added_at: z.string() })),
  uploads: z
    .array(z.object({ url: z.string(), purpose: z.literal('avatar') }))
    .describe('files stored for the customer; uploads are linked to an account only as its avatar'),
});
export type CustomerExport = z.infer<typeof customerExport>;
