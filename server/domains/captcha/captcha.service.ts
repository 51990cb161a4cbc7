import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context';
import { AppError } from '../../shared/errors';
import { countAttempt } from '../../shared/rate-limits';
import { captchaDataUrl } from './captcha-image';
import type { IssuedCaptcha } from './captcha.schemas';

/** Captcha answers live five minutes and can be tried once. */
export const CAPTCHA_TTL_SECONDS = 5 * 60;

/** A wrong, expired or reused captcha: its own envelope code, so a client knows to show a fresh one. */

export class CaptchaInvalidError extends AppError {
  constructor() {
    super('captchaInvalid', 'accounts.captcha.invalid');
  }
}

const keyOf = (id: string) => `captcha:${id}`;

/** Only an HMAC of id and answer is stored, so the shared store never holds a readable answer. */
function answerHash(ctx: AppContext, id: string, answer: string): Buffer {
  return createHmac('sha256', ctx.env.SESSION_SECRET).update(`captcha.${id}.${answer.trim()}`).digest();
}

/** A new digit captcha (4 or 5 digits). Counted against the client's captcha limit. */
export async function createCaptcha(ctx: AppContext, input: { clientIp: string }): Promise<IssuedCaptcha> {
  await countAttempt(ctx, 'captcha.ip', input.clientIp);
  const length = randomInt(4, 6);
  const answer = String(randomInt(0, 10 ** length)).padStart(length, '0');
  const id = randomBytes(18).toString('base64url');
  await ctx.kv.set(keyOf(id), answerHash(ctx, id, answer).toString('base64url'), CAPTCHA_TTL_SECONDS);
  return { id, data: await captchaDataUrl(answer) };
}

/**
 * Checks an answer and consumes the captcha whatever the outcome, so each image can be
 * tried once. CAPTCHA_TEST_ANSWER (refused in production) is accepted for any live captcha.
 */
export async function checkCaptcha(ctx: AppContext, id: string, answer: string): Promise<boolean> {
  if (!id || id.length > 64) return false;
  const stored = await ctx.kv.take(keyOf(id));
  if (!stored) return false;
  if (ctx.env.CAPTCHA_TEST_ANSWER && ctx.env.NODE_ENV !== 'production' && answer.trim() === ctx.env.CAPTCHA_TEST_ANSWER)
    return true;
  const expected = Buffer.from(stored, 'base64url');
  const given = answerHash(ctx, id, answer);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export async function assertCaptcha(ctx: AppContext, id: string, answer: string): Promise<void> {
  if (!(await checkCaptcha(ctx, id, answer))) throw new CaptchaInvalidError();
}
