import { afterSaleDetail } from '../after-sales/after-sales.schemas';
import { z } from 'zod';
import { rowIdFromText } from '../../shared/ids.schemas';
import { addressView } from '../addresses/addresses.schemas';
import { auditEventView } from '../audit/audit.schemas';
import { customerOrderRow, customerSpending, exportedOrder } from '../orders/customer-orders.schemas';
import { emailField } from './accounts.schemas';

/**
 * The customers area of the admin API (docs/console.md): list and search, detail, disable and
 * enable, sign out everywhere, data export and erasure. Fields are snake_case like the rest
 * of the API; money is integer minor units with its currency code.
 */

/** active: can sign in; disabled: refused by staff (reversible); erased: personal data removed (final). */
export const CUSTOMER_STATUSES = ['active', 'disabled', 'erased'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/** How the list is ordered: newest or oldest account first, or alphabetical by email or username. */
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

export const customerRow = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  mobile: z.string().nullable(),
  status: z.enum(CUSTOMER_STATUSES),
  created_at: z.string(),
  ...customerSpending.shape,
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

export const customerSessionView = z.object({
  id: z.number().int(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
});

/** A sign-in provider linked to the account; the provider's subject id is never shown. */
export const customerIdentity = z.object({ provider: z.string().describe('e.g. google'), linked_at: z.string() });

export const customerDetail = z.object({
  profile: customerProfile,
  spending: customerSpending,
  orders: z.array(customerOrderRow).describe('the 20 most recent, newest first'),
  addresses: z.array(addressView),
  sessions: z.array(customerSessionView).describe('live sessions (not revoked, not expired), most recently seen first'),
  identities: z.array(customerIdentity),
  timeline: z.array(auditEventView).describe("the audit log's events about this customer, oldest first"),
});
export type CustomerDetail = z.infer<typeof customerDetail>;

/** Why staff disabled the account; kept in the audit log, never shown to the buyer. */
export const disableCustomerBody = z.object({ reason: z.string().trim().min(1).max(500) });

/** Erasure is final: staff type the customer's current email to confirm they mean this one. */
export const eraseCustomerBody = z.object({ confirm_email: emailField });

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
  orders_kept: z.number().int().describe('orders whose personal fields this call erased (kept for the books)'),
  files_removed: z.number().int(),
});
export type EraseCustomerResult = z.infer<typeof eraseCustomerResult>;

/**
 * A customer's data export: everything the shop holds about them, for a data-access request.
 * Never holds a password hash, a session token or a provider's subject id.
 */
export const customerExport = z.object({
  exported_at: z.string(),
  profile: customerProfile.omit({ status: true }),
  addresses: z.array(addressView),
  orders: z.array(exportedOrder),
  after_sales: z.array(afterSaleDetail).describe('after-sale cases, newest first, as the buyer sees them'),
  sessions: z.array(customerSessionView.extend({ revoked_at: z.string().nullable() })),
  identities: z.array(customerIdentity),
  cart: z.array(z.object({ sku_id: z.number().int(), quantity: z.number().int() })),
  uploads: z
    .array(z.object({ url: z.string(), purpose: z.literal('avatar') }))
    .describe('files stored for the customer; uploads are linked to an account only as its avatar'),
});
export type CustomerExport = z.infer<typeof customerExport>;
