import { and, eq } from 'drizzle-orm';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import * as oidc from 'openid-client';
import { isLocale, type Locale } from '../../../i18n';
import { userIdentities, users } from '../../db/schema';
import type { AppContext } from '../../context';
import type { Env } from '../../shared/env';
import { AppError, BadRequestError } from '../../shared/errors';
import type { GoogleAuthUrl } from './accounts.schemas';
import {
  AccountClosedError,
  findOrCreateUserByEmail,
  loginUser,
  type LoginResult,
  type UserRow,
} from './accounts.service';
import { countAttempt } from '../../shared/rate-limits';

export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** SPEC section 9: Google scopes. */
export const GOOGLE_SCOPES = 'openid email profile';
/** State, PKCE verifier, nonce and return path of a started sign-in: ten minutes, used once. */
export const OIDC_STATE_TTL_SECONDS = 10 * 60;

export class GoogleSignInError extends AppError {
  constructor(
    messageKey:
      | 'accounts.google.failed'
      | 'accounts.google.invalidToken'
      | 'accounts.google.emailUnverified' = 'accounts.google.failed',
  ) {
    super('badRequest', messageKey);
  }
}

/** What the storefront needs to show (or hide) the Google button; the same id is `client_id` in /v1/siteManage. */
export function googlePublicConfig(env: Env): { enabled: boolean; client_id: string } {
  return { enabled: Boolean(env.GOOGLE_CLIENT_ID), client_id: env.GOOGLE_CLIENT_ID ?? '' };
}

/** The issuer: Google, or OIDC_ISSUER_OVERRIDE outside production (a local mock issuer in tests). */
export function issuerUrl(env: Env): string {
  return env.NODE_ENV !== 'production' && env.OIDC_ISSUER_OVERRIDE ? env.OIDC_ISSUER_OVERRIDE : GOOGLE_ISSUER;
}

function requireClientId(env: Env): string {
  if (!env.GOOGLE_CLIENT_ID) throw new BadRequestError('accounts.google.clientIdRequired');
  return env.GOOGLE_CLIENT_ID;
}

const configurations = new Map<string, Promise<oidc.Configuration>>();

/** Discovery is done once per issuer and client, and retried after a failure. */
function configuration(env: Env): Promise<oidc.Configuration> {
  const clientId = requireClientId(env);
  const issuer = issuerUrl(env);
  const cacheKey = `${issuer} ${clientId} ${env.GOOGLE_CLIENT_SECRET ?? ''}`;
  let found = configurations.get(cacheKey);
  if (!found) {
    const auth = env.GOOGLE_CLIENT_SECRET ? oidc.ClientSecretPost(env.GOOGLE_CLIENT_SECRET) : oidc.None();
    const insecure = issuer.startsWith('http:') && env.NODE_ENV !== 'production';
    found = oidc.discovery(
      new URL(issuer),
      clientId,
      undefined,
      auth,
      insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
    found.catch(() => configurations.delete(cacheKey));
    configurations.set(cacheKey, found);
  }
  return found;
}

const jwkSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function jwkSet(uri: string) {
  let set = jwkSets.get(uri);
  if (!set) jwkSets.set(uri, (set = createRemoteJWKSet(new URL(uri))));
  return set;
}

interface PendingSignIn {
  verifier: string;
  nonce: string;
  redirect: string;
  locale: Locale;
  redirectUri: string;
}

const stateKey = (state: string) => `oidc:${state}`;

/**
 * `POST /user/login/platform` {platform: 3}: the Google authorization URL of a code flow
 * with PKCE (S256), state and nonce. `/token_url` finishes it.
 */
export async function startGoogleSignIn(
  ctx: AppContext,
  input: { redirect: string; redirectUri: string; locale: Locale; clientIp: string },
): Promise<GoogleAuthUrl> {
  requireClientId(ctx.env);
  await countAttempt(ctx, 'platform.ip', input.clientIp);
  const config = await configuration(ctx.env);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const pending: PendingSignIn = {
    verifier,
    nonce,
    redirect: input.redirect,
    locale: input.locale,
    redirectUri: input.redirectUri,
  };
  await ctx.kv.set(stateKey(state), JSON.stringify(pending), OIDC_STATE_TTL_SECONDS);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: input.redirectUri,
    scope: GOOGLE_SCOPES,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { auth_url: url.href };
}

/** Where a finished (or failed) sign-in sends the browser, in the language it started in. */
export function returnPath(locale: Locale, redirect: string): string {
  const first = redirect.split(/[/?#]/)[1];
  return isLocale(first) ? redirect : `/${locale}${redirect === '/' ? '/' : redirect}`;
}

/**
 * `GET /token_url?code=&state=`: checks state (single use), exchanges the code with the
 * PKCE verifier, checks the ID token (issuer, audience, expiry, nonce) and logs the user in.
 */
export async function finishGoogleSignIn(
  ctx: AppContext,
  query: Record<string, string>,
): Promise<
  { result: LoginResult; redirectTo: string } | { result: null; locale: Locale | null; reason: 'failed' | 'disabled' }
> {
  const state = query.state;
  const stored = state && state.length <= 200 ? await ctx.kv.take(stateKey(state)) : null;
  if (!stored) return { result: null, locale: null, reason: 'failed' };
  const pending = JSON.parse(stored) as PendingSignIn;
  try {
    const config = await configuration(ctx.env);
    const currentUrl = new URL(pending.redirectUri);
    for (const [name, value] of Object.entries(query)) currentUrl.searchParams.set(name, value);
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) return { result: null, locale: pending.locale, reason: 'failed' };
    const result = await loginUser(ctx, await userForGoogleClaims(ctx, claims));
    return { result, redirectTo: returnPath(pending.locale, pending.redirect) };
  } catch (error) {
    // A disabled account is the buyer's to know about, not a fault: the storefront says so.
    if (error instanceof AccountClosedError) return { result: null, locale: pending.locale, reason: 'disabled' };
    ctx.log.warn(
      { err: { message: (error as Error).message, code: (error as { code?: string }).code } },
      'google sign-in failed',
    );
    return { result: null, locale: pending.locale, reason: 'failed' };
  }
}

/**
 * `POST /user/login/platform` {platform: 3, id_token}: an ID token from Google's token flow
 * or One Tap, verified against the issuer's published keys (signature, issuer, audience = our
 * client id, expiry).
 */
export async function signInWithIdToken(
  ctx: AppContext,
  input: { idToken: string; clientIp: string },
): Promise<LoginResult> {
  const clientId = requireClientId(ctx.env);
  await countAttempt(ctx, 'platform.ip', input.clientIp);
  const metadata = (await configuration(ctx.env)).serverMetadata();
  if (!metadata.jwks_uri) throw new GoogleSignInError();
  const issuers = [metadata.issuer, ...(metadata.issuer === GOOGLE_ISSUER ? ['accounts.google.com'] : [])];
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(input.idToken, jwkSet(metadata.jwks_uri), {
      issuer: issuers,
      audience: clientId,
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: 5,
    }));
  } catch {
    throw new GoogleSignInError('accounts.google.invalidToken');
  }
  return loginUser(ctx, await userForGoogleClaims(ctx, claims));
}

/**
 * The user behind Google claims: the linked identity, else the account with the same email
 * when Google says it is verified (then linked), else a new account. An unverified email
 * never links to, or creates, an account.
 */
export async function userForGoogleClaims(
  ctx: AppContext,
  claims: JWTPayload & { email?: unknown; email_verified?: unknown; picture?: unknown },
): Promise<UserRow> {
  const subject = String(claims.sub ?? '');
  if (!subject) throw new GoogleSignInError();
  const [linked] = await ctx.db
    .select({ user: users })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.provider, 'google'), eq(userIdentities.subject, subject)))
    .limit(1);
  if (linked) return linked.user;
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  if (!email || !verified) throw new GoogleSignInError('accounts.google.emailUnverified');
  const picture =
    typeof claims.picture === 'string' && claims.picture.startsWith('https://') ? claims.picture : undefined;
  const user = await findOrCreateUserByEmail(ctx, email, { avatar: picture });
  await ctx.db.insert(userIdentities).values({ userId: user.id, provider: 'google', subject }).onConflictDoNothing();
  return user;
}
