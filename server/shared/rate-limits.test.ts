import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { rateLimit, waitOf } from './rate-limits';

const withLimits = (RATE_LIMITS?: string) => ({ env: { RATE_LIMITS } }) as unknown as AppContext;

describe('rate limits and waits', () => {
  it('keeps counts and waits apart: a count has max and window, a wait its first and longest seconds', () => {
    const ctx = withLimits(undefined);
    expect(rateLimit(ctx, 'login.failures.client')).toEqual({ max: 5, windowSeconds: 3600 });
    expect(waitOf(ctx, 'login.lock.seconds')).toEqual({ firstSeconds: 30, longestSeconds: 900 });
    expect(waitOf(ctx, 'login.slow.seconds')).toEqual({ firstSeconds: 10, longestSeconds: 10 });
  });

  it('reads overrides of both from RATE_LIMITS and ignores names it does not know', () => {
    const ctx = withLimits('login.ip=100/600, login.lock.seconds=60/1200,nonsense=1/1,captcha.ip=bad');
    expect(rateLimit(ctx, 'login.ip')).toEqual({ max: 100, windowSeconds: 600 });
    expect(rateLimit(ctx, 'captcha.ip')).toEqual({ max: 30, windowSeconds: 60 });
    expect(waitOf(ctx, 'login.lock.seconds')).toEqual({ firstSeconds: 60, longestSeconds: 1200 });
    expect(waitOf(ctx, 'login.slow.seconds')).toEqual({ firstSeconds: 10, longestSeconds: 10 });
  });
});
