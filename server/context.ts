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

/** One request's view: who is asking, in which language, through which client. */
export interface RequestContext extends AppContext {
  locale: Locale;
  /** SPEC section 7's client header; 4 is the web storefront. */
  client: number;
  requestId: string;
  user: SessionUser | null;
  /** Shared by every copy of this request's context, so a mark made in a loader reaches the cache. */
  readonly privacy: AnswerPrivacy;
}
