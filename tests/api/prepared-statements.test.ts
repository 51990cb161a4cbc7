import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { userAddresses } from '../../server/db/schema';
import { defaultAddress, findAddress } from '../../server/domains/addresses/addresses.service';
import { makeShopper } from '../support/buyers';
import { useTestApp } from '../support/test-server';

/**
 * The hot reads are prepared once per database handle (server/db/prepared.ts, ADR 0178). Given a
 * transaction, the same read must run inside it, seeing what it wrote, and the values of one
 * call must never leak into the next.
 */
const shop = useTestApp();

describe('prepared reads', () => {
  it('answer each call with its own values', async () => {
    const first = await makeShopper(shop);
    const second = await makeShopper(shop);
    expect((await findAddress(shop.ctx, { userId: first.id, id: first.addressId }))?.userId).toBe(first.id);
    expect((await findAddress(shop.ctx, { userId: second.id, id: second.addressId }))?.userId).toBe(second.id);
    // Someone else's address id is not found, not answered from the earlier call.
    expect(await findAddress(shop.ctx, { userId: first.id, id: second.addressId })).toBeUndefined();
  });

  it('run inside a transaction they are given, seeing its own uncommitted rows', async () => {
    const buyer = await makeShopper(shop);
    let seenInside: string | undefined;
    const rolledBack = await shop.ctx.db
      .transaction(async (tx) => {
        await tx
          .update(userAddresses)
          .set({ detail: 'Inside the transaction 8' })
          .where(eq(userAddresses.id, buyer.addressId));
        seenInside = (await defaultAddress({ ...shop.ctx, db: tx }, buyer.id))?.detail;
        tx.rollback();
      })
      .then(
        () => false,
        () => true,
      );
    expect(rolledBack).toBe(true);
    expect(seenInside).toBe('Inside the transaction 8');
    expect((await defaultAddress(shop.ctx, buyer.id))?.detail).not.toBe('Inside the transaction 8');
  });
});
