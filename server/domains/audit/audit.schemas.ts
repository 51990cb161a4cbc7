import { z } from 'zod';
import { rowIdFromText } from '../../shared/ids.schemas';

/** Who can appear as the actor of an audit event (server/db/schema/audit.ts). */
export const AUDIT_ACTOR_TYPES = ['staff', 'cli', 'system'] as const;

/** One event of the audit log as the admin API shows it. */
export const auditEventView = z.object({
  id: z.number().int(),
  at: z.string(),
  actor_type: z.enum(AUDIT_ACTOR_TYPES),
  actor_id: z.number().int().nullable().describe('the staff member; null for cli and system'),
  actor_label: z.string().describe("the member's email, `cli`, or the job's name"),
  action: z.string().describe('`area.verb`, e.g. `customer.disabled`'),
  entity_type: z.string(),
  entity_id: z.string(),
  changes: z
    .record(z.string(), z.object({ before: z.unknown().optional(), after: z.unknown().optional() }))
    .describe('changed fields, before and after; secrets and personal values read `[redacted]`'),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  request_id: z.string().nullable(),
});
export type AuditEventView = z.infer<typeof auditEventView>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** An ISO date-time with offset, or a date (midnight UTC; for `to`, the whole day is included). */
const instant = (endOfDay: boolean) =>
  z
    .string()
    .trim()
    .refine((value) => DATE_ONLY.test(value) || z.iso.datetime({ offset: true }).safeParse(value).success, {
      message: 'admin.audit.invalidDate',
    })
    .transform((value) => (DATE_ONLY.test(value) && endOfDay ? new Date(Date.parse(value) + DAY_MS) : new Date(value)));

export const auditListQuery = z.object({
  actor_type: z.enum(AUDIT_ACTOR_TYPES).optional(),
  actor_id: rowIdFromText.optional(),
  entity_type: z.string().trim().min(1).max(64).optional(),
  entity_id: z.string().trim().min(1).max(64).optional(),
  action: z.string().trim().min(1).max(64).optional(),
  /** Events at or after this moment. */
  from: instant(false).optional(),
  /** Events before this moment (a date includes that whole day, UTC). */
  to: instant(true).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

/**
 * A page of the log, newest first. There is no total: counting a large log on every page is
 * the slow part, and the viewer only needs to know whether an older page exists.
 */
export const auditPage = z.object({
  records: z.array(auditEventView),
  page: z.number().int(),
  page_size: z.number().int(),
  has_more: z.boolean().describe('an older page exists'),
});
export type AuditPage = z.infer<typeof auditPage>;

/** The values the viewer's filter dropdowns offer: what occurs in the log, alphabetical. */
export const auditFacets = z.object({
  actions: z.array(z.string()),
  entity_types: z.array(z.string()),
  actor_types: z.array(z.enum(AUDIT_ACTOR_TYPES)),
});
export type AuditFacets = z.infer<typeof auditFacets>;
