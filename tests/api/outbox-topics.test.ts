import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox } from '../../server/db/schema';
import { makeShopper, placeOrderFor, prepareSku } from '../support/buyers';
import { postgresAdminUrl } from '../support/database';
import { held } from '../support/held';
import { useFakeSmtp } from '../support/mail';
import { useTestApp } from '../support/test-server';

/**
 * The outbox reads a topic's effects of a claimed batch at once (ADR 0181); each effect waits
 * only for its own topic's read, and a failed read fails only that topic's effects.
 */
const smtp = useFakeSmtp(() => 'take');
const server = useTestApp(() => ({ SMTP_URL: smtp.url }));

const rowOf = async (dedupeKey: string) => {
  const [row] = await server.ctx.db.select().from(outbox).where(eq(outbox.dedupeKey, dedupeKey));
  return row;
};

/** An order with its "order placed" email sent, and two due effects in one batch: its email again, and an invitation. */
async function twoTopicsDue(name: string) {
  const buyer = await makeShopper(server);
  const sku = await prepareSku(server, { stock: 5 });
  const order = await placeOrderFor(buyer, sku.id);
  await expect.poll(async () => (await rowOf(`order-mail:${order.id}:placed`))?.doneAt).toBeInstanceOf(Date);
  const keys = { orderMail: `test:${name}:order-mail`, invitation: `test:${name}:invitation` };
  return {
    keys,
    // One statement: the worker claims both in the same batch. The invitation is gone, so its
    // effect is done without a message; what matters is that it ran.
    enqueue: () =>
      server.ctx.db.insert(outbox).values([
        { topic: 'order-mail', payload: { orderId: order.id, kind: 'placed' }, dedupeKey: keys.orderMail },
        {
          topic: 'staff-invitation-mail',
          payload: { invitationId: 999_999_999, sealedToken: 'sealed' },
          dedupeKey: keys.invitation,
        },
      ]),
  };
}

describe('outbox topics in one batch', () => {
  it('fails only the effects of a topic whose read failed, and sends them once the read works again', async () => {
    const { keys, enqueue } = await twoTopicsDue('read-fails');
    await server.ctx.db.execute(sql`alter table order_duty_lines rename to order_duty_lines_away`);
    try {
      await enqueue();
      await expect.poll(async () => (await rowOf(keys.orderMail))?.lastError ?? '').toMatch(/order_duty_lines/);
      expect(await rowOf(keys.orderMail)).toMatchObject({ attempts: 1, doneAt: null, failedAt: null });
      await expect.poll(async () => (await rowOf(keys.invitation))?.doneAt).toBeInstanceOf(Date);
      expect(await rowOf(keys.invitation)).toMatchObject({ attempts: 1, lastError: null });
    } finally {
      await server.ctx.db.execute(sql`alter table order_duty_lines_away rename to order_duty_lines`);
    }

    await server.ctx.db
      .update(outbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outbox.dedupeKey, keys.orderMail));
    await expect.poll(async () => (await rowOf(keys.orderMail))?.doneAt).toBeInstanceOf(Date);
    expect(await rowOf(keys.orderMail)).toMatchObject({ attempts: 2, lastError: null });
  });

  // A table held locked by another connection: PGlite has one connection, which the lock would hold too.
  it.skipIf(!postgresAdminUrl)("runs another topic's effects while one topic's read waits", async () => {
    const { keys, enqueue } = await twoTopicsDue('read-waits');
    const locked = held();
    const release = held();
    const holding = server.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`lock table order_items in access exclusive mode`);
      locked.release();
      await release.released;
    });
    await locked.released;
    try {
      await enqueue();
      await expect.poll(async () => (await rowOf(keys.invitation))?.doneAt).toBeInstanceOf(Date);
      expect(await rowOf(keys.orderMail)).toMatchObject({ doneAt: null, lastError: null });
    } finally {
      release.release();
      await holding;
    }
    await expect.poll(async () => (await rowOf(keys.orderMail))?.doneAt).toBeInstanceOf(Date);
  });
});
