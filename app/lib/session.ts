import { data } from 'react-router';
import type { StorefrontLoadContext } from './context';

/** What a guarded route throws for an anonymous visitor: its layout renders the login guard. */
export const LOGIN_REQUIRED_STATUS = 401;

export function loginRequired() {
  return data({ loginRequired: true }, { status: LOGIN_REQUIRED_STATUS });
}

export function isLoginRequired(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { status?: unknown }).status === LOGIN_REQUIRED_STATUS &&
    Boolean((error as { data?: { loginRequired?: unknown } }).data?.loginRequired)
  );
}

/**
 * The logged-in user of a request, for loaders under the guard layout (routes/account-
 * guard.tsx). The layout refuses anonymous visitors already, but loaders of one request run
 * side by side, so a loader that reads account data asks here rather than trusting that.
 */
export function requireSessionUser(context: StorefrontLoadContext) {
  const user = context.ctx.user;
  if (!user) throw loginRequired();
  return user;
}
