import { z } from 'zod';
import { LOCALES } from '../../../i18n/locales';
import { emailField, passwordField } from '../customers/accounts.schemas';
import { rowId, rowIdFromText } from '../../shared/ids.schemas';
import { singleLineText } from '../../shared/text';
import { PERMISSIONS } from './permissions';

/**
 * Every shape of the console's session, profile, staff and roles API (docs/console.md,
 * "Admin API: session, profile, staff and roles"). Routes answer with these and the console
 * builds its forms from them.
 */

/** The signed-in member as the console sees them: what to show and what to offer. */
export const staffSelf = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  locale: z.enum(LOCALES),
  permissions: z.array(z.enum(PERMISSIONS)),
  role_ids: z.array(z.number().int()),
  /** Settlement-currency minor units; null is no limit. */
  refund_limit_minor: z.number().int().nullable(),
  second_factor: z.object({ enabled: z.boolean(), required: z.boolean() }),
});
export type StaffSelf = z.infer<typeof staffSelf>;

export const staffSessionState = z.object({
  staff: staffSelf.nullable(),
  /** No staff account exists yet: the console offers the first-start setup (link from the server log). */
  setup_required: z.boolean(),
});

// --- fields ---------------------------------------------------------------------------

/** A staff password: longer than a buyer's minimum, since a console account can refund and erase. */
export const staffPasswordField = z.string().min(12).max(128);
export const staffNameField = singleLineText(80).min(1);
export const localeField = z.enum(LOCALES);
/** An authenticator code (6 digits) or a recovery code (`xxxxx-xxxxx`); spaces are ignored. */
export const secondFactorCodeField = z
  .string()
  .trim()
  .min(6)
  .max(32)
  .transform((value) => value.replace(/\s+/g, ''));
/** A single-use link token (setup or invitation), as it stands after `#` in the link. */
export const linkTokenField = z.string().trim().min(20).max(200);
export const roleIdsField = z.array(rowId).max(50);
export const localizedNameField = z.object({ en: singleLineText(60).min(1), 'zh-cn': singleLineText(60).min(1) });
/** Settlement-currency minor units; null is no limit. */
export const refundLimitField = z.number().int().min(0).max(1_000_000_000_000).nullable();

// --- sign-in ----------------------------------------------------------------------------

export const staffLoginBody = z.object({ email: emailField, password: passwordField });

/**
 * A password sign-in either opens the session at once, or (two-step sign-in on) answers a
 * challenge to send back with the authenticator or a recovery code within `expires_in` seconds.
 */
export const staffLoginAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signed_in'), staff: staffSelf }),
  z.object({ status: z.literal('second_factor'), challenge: z.string(), expires_in: z.number().int() }),
]);
export type StaffLoginAnswer = z.infer<typeof staffLoginAnswer>;

export const staffSecondFactorBody = z.object({ challenge: linkTokenField, code: secondFactorCodeField });

// --- first start and invitations ---------------------------------------------------------

/** `GET /admin/setup/:token`: whether the link still works, and the email it is bound to (CLI links). */
export const setupLinkState = z.object({
  valid: z.boolean(),
  email: z.string().nullable(),
  expires_at: z.iso.datetime().nullable(),
});

export const setupBody = z.object({
  token: linkTokenField,
  email: emailField,
  name: staffNameField,
  password: staffPasswordField,
  locale: localeField,
});

export const roleRef = z.object({
  id: z.number().int(),
  key: z.string().nullable(),
  name: z.object({ en: z.string(), 'zh-cn': z.string() }),
});

/** What the invited person sees before accepting (`GET /admin/invitations/:token`). */
export const invitationPreview = z.object({
  email: z.string(),
  roles: z.array(roleRef),
  locale: localeField,
  invited_by: z.string().nullable(),
  expires_at: z.iso.datetime(),
});

export const acceptInvitationBody = z.object({
  token: linkTokenField,
  name: staffNameField,
  password: staffPasswordField,
});

export const inviteBody = z.object({ email: emailField, role_ids: roleIdsField.min(1), locale: localeField });

/** A pending invitation in the staff screen. */
export const invitationView = z.object({
  id: z.number().int(),
  email: z.string(),
  roles: z.array(roleRef),
  locale: localeField,
  invited_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
});

// --- staff -------------------------------------------------------------------------------

export const staffSessionView = z.object({
  id: z.number().int(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.iso.datetime(),
  last_seen_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
  /** The session this request came with. */
  current: z.boolean(),
});

export const staffMemberView = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  locale: localeField,
  roles: z.array(roleRef),
  second_factor_enabled: z.boolean(),
  last_sign_in_at: z.iso.datetime().nullable(),
  disabled_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
});
export type StaffMemberView = z.infer<typeof staffMemberView>;

export const staffMemberDetail = staffMemberView.extend({ sessions: z.array(staffSessionView) });

export const updateStaffBody = z.object({ name: staffNameField, role_ids: roleIdsField.min(1) });

export const staffSessionParams = z.object({ id: rowIdFromText, sessionId: rowIdFromText });
export const idParams = z.object({ id: rowIdFromText });
export const tokenParams = z.object({ token: linkTokenField });

// --- roles -------------------------------------------------------------------------------

export const roleView = z.object({
  id: z.number().int(),
  /** `owner`, `manager`, ... for built-in roles; null for custom ones. */
  key: z.string().nullable(),
  name: z.object({ en: z.string(), 'zh-cn': z.string() }),
  permissions: z.array(z.enum(PERMISSIONS)),
  refund_limit_minor: z.number().int().nullable(),
  built_in: z.boolean(),
  /** Members of this role must sign in with two steps (the Owner). */
  requires_second_factor: z.boolean(),
  member_count: z.number().int(),
});
export type RoleView = z.infer<typeof roleView>;

/** The permissions there are, for the role editor (labels come from the console's messages). */
export const permissionList = z.array(z.enum(PERMISSIONS));

/**
 * Creates a role, or replaces one (`PUT`). A built-in role keeps its name and permissions
 * (they come from the code); only its refund limit may change. Only an Owner may set or
 * change a refund limit (other than 0 on a new role).
 */
export const roleBody = z.object({
  name: localizedNameField,
  permissions: z.array(z.enum(PERMISSIONS)).max(PERMISSIONS.length),
  refund_limit_minor: refundLimitField,
});
export type RoleBody = z.infer<typeof roleBody>;

// --- own profile -------------------------------------------------------------------------

export const updateMeBody = z.object({ name: staffNameField, locale: localeField });

export const changeStaffPasswordBody = z.object({
  current_password: passwordField,
  new_password: staffPasswordField,
});

/** Enrolment, step one: the secret to put in an authenticator app, shown once. */
export const totpEnrolment = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as a QR code (an SVG document). */
  qr_svg: z.string(),
});

export const totpCodeBody = z.object({ code: secondFactorCodeField });

/** Ten one-time recovery codes, shown once; each works once in place of an authenticator code. */
export const recoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
