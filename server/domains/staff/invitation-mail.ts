import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { isLocale, pickText, translate, type Locale } from '../../../i18n';
import { staffMembers, staffTokens } from '../../db/schema';
import type { AppContext, TransactionContext } from '../../context';
import { sendMail, type MailDelivery } from '../mail/mailer';
import { enqueueEffect } from '../outbox/outbox.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { linkUrl } from './link-tokens';
import { seal, unseal } from './sealed-secrets';
import { rolesByIds } from './staff-directory';

/**
 * The invitation email, sent through the durable outbox (server/jobs/outbox-worker.ts) once
 * the invitation commits. The link's token must reach the mail, but the outbox keeps its rows
 * for a month: the token waits there sealed (sealed-secrets.ts), never in clear.
 */
export const STAFF_INVITATION_MAIL_TOPIC = 'staff-invitation-mail';

export const staffInvitationMailJob = z.object({
  invitationId: z.number().int().positive(),
  sealedToken: z.string(),
});
export type StaffInvitationMailJob = z.infer<typeof staffInvitationMailJob>;

export async function enqueueInvitationMail(ctx: TransactionContext, invitationId: number, token: string) {
  await enqueueEffect(ctx, {
    topic: STAFF_INVITATION_MAIL_TOPIC,
    payload: { invitationId, sealedToken: seal(ctx.env, 'invitation-link', token) } satisfies StaffInvitationMailJob,
    dedupeKey: `staff-invitation:${invitationId}`,
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Sends one invitation, unless it was revoked, used or has expired meanwhile. Its Message-ID
 * is made from the invitation, so a resend after a crash is the same message to the mailbox.
 */
export async function sendInvitationMail(ctx: AppContext, job: StaffInvitationMailJob): Promise<MailDelivery | null> {
  const [invitation] = await ctx.db
    .select({ token: staffTokens, inviter: staffMembers.name })
    .from(staffTokens)
    .leftJoin(staffMembers, eq(staffMembers.id, staffTokens.invitedBy))
    .where(eq(staffTokens.id, job.invitationId));
  const row = invitation?.token;
  if (!row?.email || row.usedAt || row.revokedAt || row.expiresAt <= new Date()) return null;
  const token = unseal(ctx.env, 'invitation-link', job.sealedToken);
  if (!token) return null;
  const locale: Locale = isLocale(row.locale) ? row.locale : 'zh-cn';
  const settings = await getSiteSettings(ctx);
  const shop = pickText(settings.shop_name, locale);
  const roles = (await rolesByIds(ctx, row.roleIds).catch(() => []))
    .map((role) => pickText(role.name, locale))
    .join(locale === 'zh-cn' ? '、' : ', ');
  const url = linkUrl(ctx, 'invite', token);
  const paragraphs = [
    translate(locale, 'adminStaff.mail.invite.body', { inviter: invitation?.inviter ?? shop, shop, roles }),
    url,
    translate(locale, 'adminStaff.mail.invite.ignore'),
    translate(locale, 'adminStaff.mail.signature', { shop }),
  ];
  const domain = /@([^>\s]+)/.exec(ctx.env.MAIL_FROM)?.[1] ?? 'shop.localhost';
  return sendMail(ctx, {
    to: row.email,
    messageId: `<staff-invitation-${row.id}@${domain}>`,
    subject: translate(locale, 'adminStaff.mail.invite.subject', { shop }),
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('\n'),
  });
}
