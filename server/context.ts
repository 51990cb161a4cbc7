import type { Logger } from 'pino';
import type { Locale } from '../i18n/locales';
import type { Database, DatabaseHandle } from './db/client';
import type { Env } from './shared/env';
import type { KeyValueStore } from './shared/kv-store';

/** An open transaction on the shop's database. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * A context whose database handle is an open transaction (`{ ...ctx, db: tx }`): functions
 * that take it write inside the caller's transaction, so their writes commit or roll back with it.
 */
export type TransactionContext = AppContext & { db: Transaction };

/** What every domain function may use, shared by the whole process. */
export interface AppContext {
  env: Env;
  db: Database;
  database: DatabaseHandle;
  kv: KeyValueStore;
  log: Logger;
  /** A request's record of whether its answer read anything personal; absent outside requests (see markPersonal). */
  readonly privacy?: AnswerPrivacy;
}

export interface AnswerPrivacy {
  personal: boolean;
}

/**
 * Records that the answer being built depends on who is asking (a session, a cart). The
 * response cache refuses to store such an answer whatever its key says, and it is sent
 * `Cache-Control: private, no-store` (server/http/response-cache.ts). Code that reads
 * anything personal calls this, so a caching mistake elsewhere cannot leak it.
 */
export function markPersonal(ctx: AppContext): void {
  if (ctx.privacy) ctx.privacy.personal = true;
}

export interface SessionUser {
  id: number;
  email: string;
  username: string;
  avatar: string | null;
  sex: number;
  sessionId: number;
}

/** Who is making a change, as the audit log records it (server/domains/audit/audit.service.ts). */
export interface AuditActor {
  type: 'staff' | 'cli' | 'system';
  /** The staff member's id; null for the command line and jobs. */
  id: number | null;
  /** The member's email, `cli`, or the job's name. */
  label: string;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

/** A context that can make audited changes: every console, admin API and command-line write takes one. */
export type ActingContext = AppContext & { actor: AuditActor };

/** The signed-in staff member of a console request (server/domains/staff/staff-sessions.service.ts). */
export interface StaffPrincipal {
  id: number;
  email: string;
  name: string;
  locale: Locale;
  /** The union of the member's roles' permissions. */
  permissions: ReadonlySet<string>;
  roleIds: readonly number[];
  /** Largest refund without a second approver (settlement minor units); null is no limit. */
  refundLimitMinor: number | null;
  /** A role requires two-step sign-in and the member has not set it up: only their own profile is open. */
  mustEnrolSecondFactor: boolean;
  /** One of the member's roles requires two-step sign-in (it cannot be turned off). */
  secondFactorRequired: boolean;
  secondFactorEnabled: boolean;
  sessionId: number;
}

/** A staff member's audited change, with what their roles allow (refund limits). */
export type StaffActing = ActingContext & { staff: StaffPrincipal };

/** One request's view: who is asking, in which language, through which client. */
export interface RequestContext extends AppContext {
  locale: Locale;
  /** SPEC section 7's client header; 4 is the web storefront. */
  client: number;
  requestId: string;
  user: SessionUser | null;
  /** The staff member on `/v1/admin` requests (server/http/admin-api.ts); null elsewhere. */
  staff: StaffPrincipal | null;
  /** Shared by every copy of this request's context, so a mark made in a loader reaches the cache. */
  readonly privacy: AnswerPrivacy;
}
