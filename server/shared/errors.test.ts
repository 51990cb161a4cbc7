import { describe, expect, it } from 'vitest';
import { uniqueViolation } from './errors';

describe('uniqueViolation', () => {
  it('names the constraint from the driver error under drizzle wrappers', () => {
    const driver = Object.assign(new Error('duplicate key'), { code: '23505', constraint: 'users_email_idx' });
    const wrapped = new Error('Failed query', { cause: new Error('query failed', { cause: driver }) });
    expect(uniqueViolation(wrapped)).toBe('users_email_idx');
  });

  it('reads the constraint from the message when the driver leaves the field out', () => {
    const driver = Object.assign(
      new Error('duplicate key value violates unique constraint "orders_user_idempotency_idx"'),
      { code: '23505' },
    );
    expect(uniqueViolation(driver)).toBe('orders_user_idempotency_idx');
    expect(uniqueViolation(Object.assign(new Error('duplicate'), { code: '23505' }))).toBe('unknown');
  });

  it('is undefined for any other failure', () => {
    expect(uniqueViolation(Object.assign(new Error('check'), { code: '23514' }))).toBeUndefined();
    expect(uniqueViolation(new Error('plain'))).toBeUndefined();
    expect(uniqueViolation(undefined)).toBeUndefined();
  });
});
