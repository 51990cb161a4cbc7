import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { pickText } from '../../../i18n';
import { staffMembers, staffRecoveryCodes } from '../../db/schema';
import type { ActingContext, AppContext, StaffPrincipal } from '../../context';
import { recordAudit } from '../audit/audit.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { countAttempt } from '../../shared/rate-limits';
import { seal, unseal } from './sealed-secrets';
import { memberById, requiresSecondFactor, rolesOfMembers } from './staff-directory';
import { SecondFactorError, StaffConflictError } from './staff-errors';

/**
 * Two-step sign-in with an authenticator app (RFC 6238 TOTP: SHA-1, 6 digits, 30-second
 * steps, one step of clock drift either way) and ten one-time recovery codes. The secret is
 * sealed at rest (sealed-secrets.ts), shown once while enrolling and never again; a code is
 * accepted once: the last accepted step is remembered per member, so a code seen over a
 * shoulder or replayed from a log cannot be used again. ADR 0100.
 */

const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Steps of clock drift accepted either side of now. */
const WINDOW = 1;
/** How long a started enrolment waits for its first code. */
const PENDING_SECONDS = 15 * 60;
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const keys = {
  pending: (staffId: number) => `staff:totp:pending:${staffId}`,
  lastStep: (staffId: number) => `staff:totp:step:${staffId}`,
  usedStep: (staffId: number, step: number) => `staff:totp:used:${staffId}:${step}`,
};

function totpOf(secret: Secret, label = 'staff', issuer = 'Shop') {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS, secret });
}

/**
 * Checks an authenticator code against a secret and spends it: the step it belongs to must be
 * later than the last one this member used. Two requests racing with the same code both pass
 * the first check; the per-step counter lets only one through.
 */
async function spendTotpCode(ctx: AppContext, staffId: number, base32: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const now = Date.now();
  const delta = totpOf(Secret.fromBase32(base32)).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return false;
  const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
  const last = Number((await ctx.kv.get(keys.lastStep(staffId))) ?? -1);
  if (step <= last) return false;
  const keepSeconds = PERIOD_SECONDS * (2 * WINDOW + 2);
  if ((await ctx.kv.increment(keys.usedStep(staffId, step), keepSeconds)) !== 1) return false;
  await ctx.kv.set(keys.lastStep(staffId), String(step), keepSeconds);
  return true;
}

function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function hashRecoveryCode(code: string): string {
  return createHash('sha256')
    .update(`staff-recovery:${normalizeRecoveryCode(code)}`)
    .digest('hex');
}

function newRecoveryCode(): string {
  const pick = () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  const half = () => Array.from({ length: 5 }, pick).join('');
  return `${half()}-${half()}`;
}

/** Spends one unused recovery code of the member; true when it was one. */
async function spendRecoveryCode(ctx: AppContext, staffId: number, code: string): Promise<boolean> {
  const spent = await ctx.db
    .update(staffRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(staffRecoveryCodes.staffId, staffId),
        eq(staffRecoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return spent.length > 0;
}

/** The member's authenticator secret, unsealed; null when two-step sign-in is off (or the seal is stale). */
async function totpSecretOf(ctx: AppContext, staffId: number): Promise<string | null> {
  const member = await memberById(ctx, staffId);
  if (!member?.totpSecret || !member.totpEnabledAt) return null;
  return unseal(ctx.env, 'totp-secret', member.totpSecret);
}

/**
 * The second step of a sign-in (or a check before a sensitive change): an authenticator code,
 * or, when `allowRecovery`, one of the member's recovery codes. Answers which one was spent.
 */
export async function spendSecondFactor(
  ctx: AppContext,
  staffId: number,
  code: string,
  options: { allowRecovery: boolean },
): Promise<'totp' | 'recovery_code' | null> {
  const secret = await totpSecretOf(ctx, staffId);
  if (!secret) return null;
  if (await spendTotpCode(ctx, staffId, secret, code)) return 'totp';
  if (options.allowRecovery && !/^\d+$/.test(code) && (await spendRecoveryCode(ctx, staffId, code)))
    return 'recovery_code';
  return null;
}

/** Replaces the member's recovery codes with ten new ones, in the caller's transaction; answers them (shown once). */
async function replaceRecoveryCodes(ctx: AppContext, staffId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await ctx.db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
  await ctx.db.insert(staffRecoveryCodes).values(codes.map((code) => ({ staffId, codeHash: hashRecoveryCode(code) })));
  return codes;
}

/**
 * Enrolment, step one: a fresh secret, kept sealed for 15 minutes until the member proves their
 * app has it. Refused while two-step sign-in is on (turn it off first to move to another app).
 */
export async function startTotpEnrolment(ctx: AppContext, staff: StaffPrincipal) {
  if (staff.secondFactorEnabled) throw new StaffConflictError('adminStaff.totp.alreadyOn');
  const secret = new Secret({ size: 20 });
  await ctx.kv.set(keys.pending(staff.id), seal(ctx.env, 'totp-secret', secret.base32), PENDING_SECONDS);
  const settings = await getSiteSettings(ctx);
  const otpauthUrl = totpOf(secret, staff.email, pickText(settings.shop_name, staff.locale)).toString();
  return {
    secret: secret.base32,
    otpauth_url: otpauthUrl,
    qr_svg: await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
  };
}

/** Enrolment, step two: the first code proves the app has the secret; answers the recovery codes. */
export async function confirmTotpEnrolment(ctx: ActingContext, staff: StaffPrincipal, code: string) {
  await countAttempt(ctx, 'staffCode.member', String(staff.id));
  if (staff.secondFactorEnabled) throw new StaffConflictError('adminStaff.totp.alreadyOn');
  const pending = await ctx.kv.get(keys.pending(staff.id));
  const secret = pending ? unseal(ctx.env, 'totp-secret', pending) : null;
  if (!secret) throw new StaffConflictError('adminStaff.totp.notStarted');
  if (!(await spendTotpCode(ctx, staff.id, secret, code))) throw new SecondFactorError();
  const codes = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    await tx
      .update(staffMembers)
      .set({ totpSecret: seal(ctx.env, 'totp-secret', secret), totpEnabledAt: new Date(), updatedAt: new Date() })
      .where(eq(staffMembers.id, staff.id));
    const fresh = await replaceRecoveryCodes(t, staff.id);
    await recordAudit(t, {
      action: 'staff.two_step_enabled',
      entityType: 'staff',
      entityId: staff.id,
      before: { two_step: false },
      after: { two_step: true, codes_issued: RECOVERY_CODE_COUNT },
    });
    return fresh;
  });
  await ctx.kv.delete(keys.pending(staff.id));
  return { recovery_codes: codes };
}

/** Turns two-step sign-in off with a current code; refused when one of the member's roles requires it. */
export async function disableTotp(ctx: ActingContext, staff: StaffPrincipal, code: string): Promise<void> {
  await countAttempt(ctx, 'staffCode.member', String(staff.id));
  if (!staff.secondFactorEnabled) throw new StaffConflictError('adminStaff.totp.off');
  const roles = (await rolesOfMembers(ctx, [staff.id])).get(staff.id) ?? [];
  if (requiresSecondFactor(roles)) throw new StaffConflictError('adminStaff.totp.required');
  if (!(await spendSecondFactor(ctx, staff.id, code, { allowRecovery: true }))) throw new SecondFactorError();
  await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    await tx
      .update(staffMembers)
      .set({ totpSecret: null, totpEnabledAt: null, updatedAt: new Date() })
      .where(eq(staffMembers.id, staff.id));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staff.id));
    await recordAudit(t, {
      action: 'staff.two_step_disabled',
      entityType: 'staff',
      entityId: staff.id,
      before: { two_step: true },
      after: { two_step: false },
    });
  });
}

/** Ten new recovery codes for ten old ones, with a current authenticator code (not a recovery code). */
export async function regenerateRecoveryCodes(ctx: ActingContext, staff: StaffPrincipal, code: string) {
  await countAttempt(ctx, 'staffCode.member', String(staff.id));
  if (!staff.secondFactorEnabled) throw new StaffConflictError('adminStaff.totp.off');
  if (!(await spendSecondFactor(ctx, staff.id, code, { allowRecovery: false }))) throw new SecondFactorError();
  const codes = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const fresh = await replaceRecoveryCodes(t, staff.id);
    await recordAudit(t, {
      action: 'staff.recovery_codes_regenerated',
      entityType: 'staff',
      entityId: staff.id,
      after: { codes_issued: RECOVERY_CODE_COUNT },
    });
    return fresh;
  });
  return { recovery_codes: codes };
}
