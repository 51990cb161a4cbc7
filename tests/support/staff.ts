import { eq } from 'drizzle-orm';
import { staffMemberRoles, staffMembers, staffRoles } from '../../server/db/schema';
import { onlyRow } from '../../server/db/rows';
import type { AppContext } from '../../server/context';
import { hashPassword } from '../../server/domains/customers/passwords';
import type { BuiltInRoleKey, Permission } from '../../server/domains/staff/permissions';
import { createStaffSession } from '../../server/domains/staff/staff-sessions.service';
import type { RequestOptions, TestApp, TestResponse } from './test-server';

export const STAFF_TEST_PASSWORD = 'Console-pass-2026';
const CSRF = 'staff-test-csrf-token';

let counter = 0;

export function uniqueStaffEmail(prefix = 'staff'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}@shop.example`;
}

export interface TestStaff {
  id: number;
  email: string;
  /** Cookies of a signed-in console session, with the CSRF cookie its writes echo. */
  cookies: Record<string, string>;
  headers: Record<string, string>;
  /** A request as this member: session cookie, CSRF cookie and header. */
  request<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
}

/**
 * A staff member made straight in the database and signed in (no second factor), holding
 * either a built-in role or a custom role with exactly `permissions`. For tests of the admin
 * API that are not about signing in.
 */
export async function createSignedInStaff(
  shop: TestApp,
  options: {
    role?: BuiltInRoleKey;
    permissions?: readonly Permission[];
    refundLimitMinor?: number | null;
    email?: string;
  },
): Promise<TestStaff> {
  const ctx: AppContext = shop.ctx;
  const email = options.email ?? uniqueStaffEmail(options.role ?? 'custom');
  const member = onlyRow(
    await ctx.db
      .insert(staffMembers)
      .values({
        email,
        name: email.split('@')[0] ?? email,
        passwordHash: await hashPassword(STAFF_TEST_PASSWORD),
        locale: 'en',
      })
      .returning({ id: staffMembers.id }),
  );
  const roleId = options.role
    ? onlyRow(await ctx.db.select({ id: staffRoles.id }).from(staffRoles).where(eq(staffRoles.key, options.role))).id
    : onlyRow(
        await ctx.db
          .insert(staffRoles)
          .values({
            name: { en: `Test role ${member.id}`, 'zh-cn': `测试角色 ${member.id}` },
            permissions: [...(options.permissions ?? [])],
            refundLimitMinor: options.refundLimitMinor === undefined ? null : options.refundLimitMinor,
          })
          .returning({ id: staffRoles.id }),
      ).id;
  await ctx.db.insert(staffMemberRoles).values({ staffId: member.id, roleId });
  const session = await createStaffSession(ctx, member.id, { ip: '127.0.0.1', userAgent: 'vitest' });
  const cookies = { staff_session: session.token, csrf_token: CSRF };
  const headers = { 'x-csrf-token': CSRF, lang: 'en' };
  return {
    id: member.id,
    email,
    cookies,
    headers,
    request: (path, requestOptions = {}) =>
      shop.request(path, {
        ...requestOptions,
        cookies: { ...cookies, ...requestOptions.cookies },
        headers: { ...headers, ...requestOptions.headers },
      }),
  };
}
