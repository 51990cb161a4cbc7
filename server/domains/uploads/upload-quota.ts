import type { AppContext } from '../../context';
import { AppError } from '../../shared/errors';
import { rateLimit, type RateLimitName } from '../../shared/rate-limits';
import { formatSize } from './uploads.service';

type QuotaName = Extract<RateLimitName, `upload.quota.${string}`>;

/** A buyer who has stored the window's allowance: too many requests, with Retry-After and when uploads open again. */
export class UploadQuotaError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    allowance: { images: number; limit: string; windowHours: number },
  ) {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    super('tooManyRequests', 'accounts.upload.quota', {
      ...allowance,
      hours: Math.floor(minutes / 60),
      minutes: minutes % 60,
    });
  }
}

/** Counters in the shared store (`ctx.kv`), so every copy of the shop counts one buyer together. */
const quotaKey = (name: QuotaName, userId: number) => `quota:${name}:${userId}`;

/**
 * Refuses an upload once the buyer has stored `upload.quota.images` images or
 * `upload.quota.bytes` bytes within the window that began with their first counted upload
 * (limits in server/domains/customers/rate-limits.ts, RATE_LIMITS overrides them). Checked
 * before the body is read; the last upload allowed may go past the byte allowance by one image.
 * docs/decisions/0075-upload-allowance-per-buyer.md
 */
export async function assertUploadAllowance(ctx: AppContext, userId: number): Promise<void> {
  const images = rateLimit(ctx, 'upload.quota.images');
  const bytes = rateLimit(ctx, 'upload.quota.bytes');
  const [storedImages, storedBytes] = await Promise.all([
    ctx.kv.get(quotaKey('upload.quota.images', userId)),
    ctx.kv.get(quotaKey('upload.quota.bytes', userId)),
  ]);
  const full: QuotaName | undefined =
    Number(storedImages) >= images.max
      ? 'upload.quota.images'
      : Number(storedBytes) >= bytes.max
        ? 'upload.quota.bytes'
        : undefined;
  if (!full) return;
  const seconds = (await ctx.kv.ttlSeconds(quotaKey(full, userId))) ?? rateLimit(ctx, full).windowSeconds;
  throw new UploadQuotaError(seconds, {
    images: images.max,
    limit: formatSize(bytes.max),
    windowHours: Math.round((images.windowSeconds / 3600) * 10) / 10,
  });
}

/** Counts one stored image of `storedBytes` bytes against the buyer's allowance. */
export async function countStoredUpload(ctx: AppContext, userId: number, storedBytes: number): Promise<void> {
  const images = rateLimit(ctx, 'upload.quota.images');
  const bytes = rateLimit(ctx, 'upload.quota.bytes');
  await Promise.all([
    ctx.kv.increment(quotaKey('upload.quota.images', userId), images.windowSeconds),
    ctx.kv.increment(quotaKey('upload.quota.bytes', userId), bytes.windowSeconds, storedBytes),
  ]);
}
