import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { pickText, translate, type Locale } from '../../../i18n';
import type { AppContext } from '../../context';
import { AppError, BadRequestError } from '../../shared/errors';
import { assertCaptcha } from '../captcha/captcha.service';
import { sendMail } from '../mail/mailer';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { findOrCreateUserByEmail, loginUser, type LoginResult } from './accounts.service';
import type { CodeSentAnswer, LoginByCodeInput, SendCodeInput } from './accounts.schemas';
import { countAttempt, subjectKey } from '../../shared/rate-limits';

/** SPEC section 9: the "Get code" button counts down 60 s; the server holds the same line. */
export const CODE_RESEND_SECONDS = 60;
export const CODE_TTL_SECONDS = 10 * 60;
/** Wrong guesses allowed per code; after that the code is void and a new one must be sent. */
export const CODE_MAX_ATTEMPTS = 5;

const codeKey = (email: string) => `code:${subjectKey(email)}`;
const attemptsKey = (email: string) => `code-attempts:${subjectKey(email)}`;
const resendKey = (email: string) => `code-resend:${subjectKey(email)}`;

function codeHash(ctx: AppContext, email: string, code: string): Buffer {
  return createHmac('sha256', ctx.env.SESSION_SECRET).update(`email-code.${email}.${code}`).digest();
}

export class ResendTooSoonError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('tooManyRequests', 'accounts.code.resendWait', { seconds: retryAfterSeconds });
  }
}

/**
 * `POST /user/sendCode`: emails a 6-digit code. The answer is the same whether or not the
 * address has an account (a code can open one, ADR 0012), so it reveals nothing.
 */
export async function sendLoginCode(
  ctx: AppContext,
  input: SendCodeInput & { clientIp: string; locale: Locale },
): Promise<CodeSentAnswer> {
  await countAttempt(ctx, 'sendCode.ip', input.clientIp);
  const waiting = await ctx.kv.ttlSeconds(resendKey(input.email));
  if (waiting) throw new ResendTooSoonError(waiting);
  await assertCaptcha(ctx, input.key, input.dots);
  // Two requests that both passed the check above: only the first one sends.
  if ((await ctx.kv.increment(resendKey(input.email), CODE_RESEND_SECONDS)) > 1) {
    throw new ResendTooSoonError((await ctx.kv.ttlSeconds(resendKey(input.email))) ?? CODE_RESEND_SECONDS);
  }
  await countAttempt(ctx, 'sendCode.email', input.email);

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await ctx.kv.set(codeKey(input.email), codeHash(ctx, input.email, code).toString('base64url'), CODE_TTL_SECONDS);
  await ctx.kv.delete(attemptsKey(input.email));
  const shop = pickText((await getSiteSettings(ctx)).shop_name, input.locale);
  try {
    await sendMail(ctx, {
      to: input.email,
      subject: translate(input.locale, 'accounts.mail.codeSubject', { shop }),
      text: translate(input.locale, 'accounts.mail.codeBody', { code, shop, minutes: CODE_TTL_SECONDS / 60 }),
    });
  } catch (error) {
    await Promise.all([ctx.kv.delete(codeKey(input.email)), ctx.kv.delete(resendKey(input.email))]);
    throw error;
  }
  return { resend_after: CODE_RESEND_SECONDS };
}

/**
 * `POST /user/loginByCode`. Each code allows CODE_MAX_ATTEMPTS guesses, then it is void.
 * A right code is used up; an email with no account gets one (ADR 0012).
 */
export async function loginWithCode(
  ctx: AppContext,
  input: LoginByCodeInput & { clientIp: string },
): Promise<LoginResult> {
  await countAttempt(ctx, 'loginByCode.ip', input.clientIp);
  // Per email and client together: a stranger guessing must not block the owner's own sign-in.
  await countAttempt(ctx, 'loginByCode.email', `${input.email} ${input.clientIp}`);
  const stored = await ctx.kv.get(codeKey(input.email));
  if (!stored) throw new BadRequestError('accounts.code.invalid');
  const attempts = await ctx.kv.increment(attemptsKey(input.email), CODE_TTL_SECONDS);
  if (attempts > CODE_MAX_ATTEMPTS) {
    await ctx.kv.delete(codeKey(input.email));
    throw new BadRequestError('accounts.code.tooManyAttempts');
  }
  const expected = Buffer.from(stored, 'base64url');
  const given = codeHash(ctx, input.email, input.code);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    if (attempts === CODE_MAX_ATTEMPTS) await ctx.kv.delete(codeKey(input.email));
    throw new BadRequestError(
      attempts === CODE_MAX_ATTEMPTS ? 'accounts.code.tooManyAttempts' : 'accounts.code.invalid',
    );
  }
  // Used once: a second request with the same code finds nothing to take.
  if (!(await ctx.kv.take(codeKey(input.email)))) throw new BadRequestError('accounts.code.invalid');
  await ctx.kv.delete(attemptsKey(input.email));
  return loginUser(ctx, await findOrCreateUserByEmail(ctx, input.email));
}
