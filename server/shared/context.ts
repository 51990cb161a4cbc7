import type { Logger } from 'pino';
import type { Locale } from '../../i18n/locales';
import type { Database, DatabaseHandle } from '../db/client';
import type { Env } from './env';
import type { KeyValueStore } from './kv-store';

/** What every domain function may use, shared by the whole process. */
export interface AppContext {
  env: Env;
  db: Database;
  database: DatabaseHandle;
  kv: KeyValueStore;
  log: Logger;
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
}
