import { and, asc, count, desc, eq, gt, ilike, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { Locale } from '../../../i18n/locales';
import { sessions, userIdentities, users } from '../../db/schema';
import { onlyRow } from '../../db/rows';
import type { ActingContext, AppContext, TransactionContext } from '../../context';
import { AppError, NotFoundError } from '../../shared/errors';
import { listAddresses } from '../addresses/addresses.service';
import { auditEventViewOf } from '../audit/audit-log.service';
import { auditTrailOf, recordAudit } from '../audit/audit.service';
import { recentOrdersOf, spendingOf } from '../orders/customer-orders.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import type {
  CustomerActionResult,
  CustomerDetail,
  CustomerListQuery,
  CustomerPage,
  CustomerProfile,
  CustomerSort,
  CustomerStatus,
} from './admin-customers.schemas';
import { revokeUserSessions } from './sessions.service';

/**
 * Customers in the console (docs/console.md): list and search, detail, disable and enable,
 * sign out everywhere. Data export and erasure: customer-privacy.service.ts. Every change
 * writes its audit event in its own transaction; a buyer's personal values never reach it.
 */

export type CustomerRecord = typeof users.$inferSelect;

/** The entity type of customers in the audit log. */
export const CUSTOMER_ENTITY = 'customer';

/** A state that forbids the change asked for (an erased account is final). */
export class CustomerStateError extends AppError {
  constructor(messageKey: 'admin.customers.erased' | 'admin.customers.openOrders', params?: { orders: string }) {
    super('conflict', messageKey, params);
  }
}

export function customerStatus(user: Pick<CustomerRecord, 'disabledAt' | 'erasedAt'>): CustomerStatus {
  if (user.erasedAt) return 'erased';
  return user.disabledAt ? 'disabled' : 'active';
}

const STATUS_FILTERS: Record<CustomerStatus, SQL | undefined> = {
  active: and(isNull(users.disabledAt), isNull(users.erasedAt)),
  disabled: and(isNotNull(users.disabledAt), isNull(users.erasedAt)),
  erased: isNotNull(users.erasedAt),
};

const SORTS: Record<CustomerSort, SQL[]> = {
  '-created_at': [desc(users.createdAt), desc(users.id)],
  created_at: [asc(users.createdAt), asc(users.id)],
  email: [asc(users.email)],
  '-email': [desc(users.email)],
  username: [asc(users.username)],
  '-username': [desc(users.username)],
};

/** `%`, `_` and `\` typed by staff are matched as themselves. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Any part of the email, username or mobile number, case ignored. The trigram indexes on the
 * three columns (migration 0009) answer it without reading every customer.
 */
function searchFilter(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const digits = q.replace(/[\s()-]/g, '');
  return or(
    ilike(users.email, containing(q)),
    ilike(users.username, containing(q)),
    digits ? ilike(users.mobile, containing(digits)) : undefined,
  );
}

/** A page of customers with what each has ordered and spent (GET /v1/admin/customers). */
export async function listCustomers(ctx: AppContext, query: CustomerListQuery): Promise<CustomerPage> {
  const where = and(searchFilter(query.q), query.status ? STATUS_FILTERS[query.status] : undefined);
  const rows = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      mobile: users.mobile,
      disabledAt: users.disabledAt,
      erasedAt: users.erasedAt,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(where)
    .orderBy(...SORTS[query.sort])
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const { total } = onlyRow(await ctx.db.select({ total: count() }).from(users).where(where));
  const { currency } = await getSiteSettings(ctx);
  const spending = await spendingOf(
    ctx,
    rows.map((row) => row.id),
    currency,
  );
  return {
    records: rows.map((row) => ({
      id: row.id,
      email: row.email,
      username: row.username,
      mobile: row.mobile,
      status: customerStatus(row),
      created_at: row.createdAt.toISOString(),
      ...spending.get(row.id)!,
    })),
    total,
    page: query.page,
    page_size: query.page_size,
  };
}

export async function findCustomer(ctx: AppContext, id: number): Promise<CustomerRecord> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw new NotFoundError('admin.customers.notFound');
  return user;
}

/** The customer's row, locked until the transaction ends: changes to one account run one at a time. */
export async function lockCustomer(ctx: TransactionContext, id: number): Promise<CustomerRecord> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, id)).for('update');
  if (!user) throw new NotFoundError('admin.customers.notFound');
  return user;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function customerProfileOf(user: CustomerRecord): CustomerProfile {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    mobile: user.mobile,
    sex: user.sex,
    avatar: user.avatar,
    email_verified_at: iso(user.emailVerifiedAt),
    has_password: Boolean(user.passwordHash),
    created_at: user.createdAt.toISOString(),
    status: customerStatus(user),
    disabled_at: iso(user.disabledAt),
    erased_at: iso(user.erasedAt),
  };
}

/** The providers linked to an account; the provider's subject id stays in the database. */
export async function identitiesOf(ctx: AppContext, userId: number) {
  const rows = await ctx.db
    .select({ provider: userIdentities.provider, createdAt: userIdentities.createdAt })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.id));
  return rows.map((row) => ({ provider: row.provider, linked_at: row.createdAt.toISOString() }));
}

/** One customer with orders, addresses, live sessions, linked sign-ins and their audit timeline. */
export async function getCustomerDetail(
  ctx: AppContext,
  input: { id: number; locale: Locale },
): Promise<CustomerDetail> {
  const user = await findCustomer(ctx, input.id);
  const { currency } = await getSiteSettings(ctx);
  const live = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())))
    .orderBy(desc(sessions.lastSeenAt));
  const timeline = await auditTrailOf(ctx, CUSTOMER_ENTITY, user.id);
  return {
    profile: customerProfileOf(user),
    spending: (await spendingOf(ctx, [user.id], currency)).get(user.id)!,
    orders: await recentOrdersOf(ctx, user.id, 20),
    addresses: await listAddresses(ctx, { userId: user.id, locale: input.locale }),
    sessions: live.map((session) => ({
      id: session.id,
      created_at: session.createdAt.toISOString(),
      last_seen_at: session.lastSeenAt.toISOString(),
      expires_at: session.expiresAt.toISOString(),
    })),
    identities: await identitiesOf(ctx, user.id),
    timeline: timeline.map(auditEventViewOf),
  };
}

/**
 * Disables an account: every session ends now and no way of signing in opens a new one
 * (accounts.service.ts refuses it, sessions.service.ts stops sessions opened in a race).
 * Disabling a disabled account changes nothing.
 */
export async function disableCustomer(
  ctx: ActingContext,
  input: { id: number; reason: string },
): Promise<CustomerActionResult> {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const user = await lockCustomer(t, input.id);
    if (user.erasedAt) throw new CustomerStateError('admin.customers.erased');
    if (user.disabledAt) return { id: user.id, status: 'disabled', sessions_revoked: 0 };
    const now = new Date();
    await tx.update(users).set({ disabledAt: now, updatedAt: now }).where(eq(users.id, user.id));
    const revoked = await revokeUserSessions(t, user.id);
    await recordAudit(t, {
      action: 'customer.disabled',
      entityType: CUSTOMER_ENTITY,
      entityId: user.id,
      before: { disabled_at: null },
      after: { disabled_at: now, reason: input.reason, sessions_revoked: revoked },
    });
    return { id: user.id, status: 'disabled', sessions_revoked: revoked };
  });
}

/** Lets a disabled customer sign in again (their old sessions stay ended). */
export async function enableCustomer(ctx: ActingContext, input: { id: number }): Promise<CustomerActionResult> {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const user = await lockCustomer(t, input.id);
    if (user.erasedAt) throw new CustomerStateError('admin.customers.erased');
    if (!user.disabledAt) return { id: user.id, status: 'active', sessions_revoked: 0 };
    await tx.update(users).set({ disabledAt: null, updatedAt: new Date() }).where(eq(users.id, user.id));
    await recordAudit(t, {
      action: 'customer.enabled',
      entityType: CUSTOMER_ENTITY,
      entityId: user.id,
      before: { disabled_at: user.disabledAt },
      after: { disabled_at: null },
    });
    return { id: user.id, status: 'active', sessions_revoked: 0 };
  });
}

/** Ends every session of the customer (a lost phone, a shared computer); they may sign in again. */
export async function signOutCustomer(ctx: ActingContext, input: { id: number }): Promise<CustomerActionResult> {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const user = await lockCustomer(t, input.id);
    const revoked = await revokeUserSessions(t, user.id);
    await recordAudit(t, {
      action: 'customer.signed_out',
      entityType: CUSTOMER_ENTITY,
      entityId: user.id,
      after: { sessions_revoked: revoked },
    });
    return { id: user.id, status: customerStatus(user), sessions_revoked: revoked };
  });
}
