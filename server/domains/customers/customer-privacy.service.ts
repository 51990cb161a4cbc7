import { and, asc, eq, ne, or } from 'drizzle-orm';
import type { Locale } from '../../../i18n/locales';
import { sessions, userIdentities, users } from '../../db/schema';
import type { ActingContext, TransactionContext } from '../../context';
import { BadRequestError } from '../../shared/errors';
import { deleteAllAddresses, listAddresses } from '../addresses/addresses.service';
import { afterSalesForExport, erasePersonalDataOfCases } from '../after-sales/after-sale-privacy';
import { recordAudit } from '../audit/audit.service';
import { cartLines, deleteCart, userCartKey } from '../cart/cart.service';
import { erasePersonalDataOfOrders, openOrdersOf, ordersForExport } from '../orders/customer-orders.service';
import { deletePrivateUploadFiles, forgetPrivateUploadsOf } from '../uploads/private-uploads.service';
import { deleteUploadedFile, UPLOADS_URL_PREFIX } from '../uploads/uploads.service';
import type { CustomerExport, EraseCustomerResult } from './admin-customers.schemas';
import {
  CUSTOMER_ENTITY,
  CustomerStateError,
  customerProfileOf,
  identitiesOf,
  lockCustomer,
  type CustomerRecord,
} from './admin-customers.service';
import { usernameKey, usernameSkeleton } from './usernames';

/**
 * A customer's data-protection requests (docs/console.md, ADR 0102): a copy of everything the
 * shop holds about them, and erasure of their personal data with their orders kept for the
 * books. Both are recorded in the audit log without any of the customer's personal values.
 */

/** The profile fields whose values never reach the audit log. */
const PERSONAL_FIELDS = ['email', 'username', 'mobile', 'avatar', 'sex'] as const;

/** Files stored for the customer: uploads are tied to an account only as its avatar. */
function uploadsOf(user: CustomerRecord) {
  return user.avatar?.startsWith(UPLOADS_URL_PREFIX) ? [{ url: user.avatar, purpose: 'avatar' as const }] : [];
}

/**
 * Everything the shop holds about a customer, for a data-access request: no password hash,
 * session token or provider subject id. Who exported whose data is recorded (an export is
 * access, not a change, but it hands personal data out of the shop).
 */
export async function exportCustomerData(
  ctx: ActingContext,
  input: { id: number; locale: Locale },
): Promise<CustomerExport> {
  return ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    // Locked so an erasure cannot run half-way through the copy.
    const user = await lockCustomer(t, input.id);
    const { status: _status, ...profile } = customerProfileOf(user);
    const sessionRows = await tx.select().from(sessions).where(eq(sessions.userId, user.id)).orderBy(asc(sessions.id));
    const cart = await cartLines(tx, userCartKey(user.id));
    const exported: CustomerExport = {
      exported_at: new Date().toISOString(),
      profile,
      addresses: await listAddresses(t, { userId: user.id, locale: input.locale }),
      orders: await ordersForExport(t, user.id, input.locale),
      after_sales: await afterSalesForExport(t, user.id, input.locale),
      sessions: sessionRows.map((session) => ({
        id: session.id,
        created_at: session.createdAt.toISOString(),
        last_seen_at: session.lastSeenAt.toISOString(),
        expires_at: session.expiresAt.toISOString(),
        revoked_at: session.revokedAt?.toISOString() ?? null,
      })),
      identities: await identitiesOf(t, user.id),
      cart: cart.map((line) => ({ sku_id: line.skuId, quantity: line.quantity })),
      uploads: uploadsOf(user),
    };
    await recordAudit(t, {
      action: 'customer.exported',
      entityType: CUSTOMER_ENTITY,
      entityId: user.id,
      after: { orders: exported.orders.length, addresses: exported.addresses.length },
    });
    return exported;
  });
}

/**
 * The username an erased account keeps: `erased-<id>`. Its key and skeleton stay unique like
 * any other's; if a buyer already holds a look-alike, they are marked with the id (`#` cannot
 * be typed in a username), as the start-up backfill does.
 */
async function erasedUsernameColumns(ctx: TransactionContext, id: number) {
  const username = `erased-${id}`;
  const key = usernameKey(username);
  const skeleton = usernameSkeleton(username);
  const taken = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        ne(users.id, id),
        or(eq(users.username, username), eq(users.usernameKey, key), eq(users.usernameSkeleton, skeleton)),
      ),
    )
    .limit(1);
  if (taken.length === 0) return { username, usernameKey: key, usernameSkeleton: skeleton };
  return { username: `${username}#`, usernameKey: `${key}#${id}`, usernameSkeleton: `${skeleton}#${id}` };
}

/**
 * Erases a customer's personal data in one transaction: the account row is anonymised
 * (kept, because their orders point at it), addresses, linked sign-ins, sessions and cart
 * are deleted, and their orders' address snapshots lose name, phone, street and postal code
 * while amounts, lines and countries stay for the books. Refused while an order is under
 * way (staff cancel it or wait for it to finish). The avatar and the buyer's private uploads
 * (after-sale evidence photos) go after the commit. Erasing an erased customer changes nothing.
 */
export async function eraseCustomer(
  ctx: ActingContext,
  input: { id: number; confirmEmail: string },
): Promise<EraseCustomerResult> {
  const outcome = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const user = await lockCustomer(t, input.id);
    if (user.erasedAt)
      return { user, erasedAt: user.erasedAt, erasedNow: false, ordersKept: 0, privateFiles: [] as string[] };
    if (user.email !== input.confirmEmail) throw new BadRequestError('admin.customers.confirmMismatch');
    const open = await openOrdersOf(t, user.id);
    if (open.length > 0) throw new CustomerStateError('admin.customers.openOrders', { orders: open.join(', ') });

    const now = new Date();
    const anonymous = {
      email: `erased-${user.id}@erased.invalid`,
      mobile: null,
      avatar: null,
      sex: 0 as const,
    };
    const username = await erasedUsernameColumns(t, user.id);
    await tx
      .update(users)
      .set({ ...anonymous, ...username, passwordHash: null, emailVerifiedAt: null, erasedAt: now, updatedAt: now })
      .where(eq(users.id, user.id));
    const addressesDeleted = await deleteAllAddresses(t, user.id);
    const identities = await tx
      .delete(userIdentities)
      .where(eq(userIdentities.userId, user.id))
      .returning({ id: userIdentities.id });
    const ended = await tx.delete(sessions).where(eq(sessions.userId, user.id)).returning({ id: sessions.id });
    await deleteCart(tx, userCartKey(user.id));
    const ordersKept = await erasePersonalDataOfOrders(t, user.id);
    await erasePersonalDataOfCases(t, user.id);
    const privateFiles = await forgetPrivateUploadsOf(t, user.id);

    await recordAudit(t, {
      action: 'customer.erased',
      entityType: CUSTOMER_ENTITY,
      entityId: user.id,
      before: { ...pickPersonal(user), has_password: Boolean(user.passwordHash), erased_at: null },
      after: {
        ...anonymous,
        username: username.username,
        has_password: false,
        erased_at: now,
        addresses_deleted: addressesDeleted,
        identities_deleted: identities.length,
        sessions_deleted: ended.length,
        orders_kept: ordersKept,
      },
      redact: PERSONAL_FIELDS,
    });
    return { user, erasedAt: now, erasedNow: true, ordersKept, privateFiles };
  });

  // Files cannot roll back with a transaction, so they go once the erasure committed.
  let filesRemoved = 0;
  if (outcome.erasedNow) {
    for (const upload of uploadsOf(outcome.user)) {
      try {
        if (await deleteUploadedFile(ctx, upload.url)) filesRemoved += 1;
      } catch (error) {
        // The erasure stands; the file is no longer referenced by anything and is named at random.
        ctx.log.warn(
          { err: { message: (error as Error).message, code: (error as NodeJS.ErrnoException).code } },
          'erased customer: avatar file not deleted',
        );
      }
    }
    try {
      filesRemoved += await deletePrivateUploadFiles(ctx, outcome.privateFiles);
    } catch (error) {
      // As above: their rows are gone, so nothing serves these files any more.
      ctx.log.warn(
        { err: { message: (error as Error).message, code: (error as NodeJS.ErrnoException).code } },
        'erased customer: private upload files not deleted',
      );
    }
  }
  return {
    id: outcome.user.id,
    status: 'erased',
    erased_at: outcome.erasedAt.toISOString(),
    erased_now: outcome.erasedNow,
    orders_kept: outcome.ordersKept,
    files_removed: filesRemoved,
  };
}

function pickPersonal(user: CustomerRecord): Record<(typeof PERSONAL_FIELDS)[number], unknown> {
  return { email: user.email, username: user.username, mobile: user.mobile, avatar: user.avatar, sex: user.sex };
}
