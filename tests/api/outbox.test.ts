import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox } from '../../server/db/schema';
import { pruneDoneEffects, renewEffectLeases } from '../../server/domains/outbox/outbox.service';
import { makeShopper, placeOrderFor, prepareSku } from '../support/buyers';
import { useFakeSmtp } from '../support/mail';
import { useTestApp } from '../support/test-server';

/** The mail server answers "try again later" (451) until a test lets it take mail. */
const mailServer = { refusing: true };
const smtp = useFakeSmtp(() => (mailServer.refusing ? { refuse: 'mailbox busy, try later', code: 451 } : 'take'));
const server = useTestApp(() => ({ SMTP_URL: smtp.url }));

const rowOf = async (dedupeKey: string) => {
  const [row] = await server.ctx.db.select().from(outbox).where(eq(outbox.dedupeKey, dedupeKey));
  return row;
};

describe('the outbox', () => {
  it('keeps an order email the mail server refused and sends it once the server takes mail, after a backoff', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 5 });
    const order = await placeOrderFor(buyer, sku.id);
    const key = `order-mail:${order.id}:placed`;

    await expect.poll(async () => (await rowOf(key))?.lastError ?? '').toMatch(/451 mailbox busy/);
    const refused = (await rowOf(key))!;
    expect(refused).toMatchObject({
      topic: 'order-mail',
      attempts: 1,
      doneAt: null,
      failedAt: null,
      lockedUntil: null,
    });
    expect(refused.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(3_000);

    mailServer.refusing = false;
    // The first retry is due five seconds later; bring it forward rather than wait.
    await server.ctx.db
      .update(outbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outbox.dedupeKey, key));
    await expect.poll(async () => (await rowOf(key))?.doneAt).toBeInstanceOf(Date);
    expect(await rowOf(key)).toMatchObject({ attempts: 2, lastError: null });
    expect(smtp.inbox.filter((mail) => mail.raw.includes(`<order-${order.id}-placed@`))).toHaveLength(1);
  });

  it('gives up at once on an effect it cannot read, keeping the reason, and never runs it', async () => {
    await server.ctx.db.insert(outbox).values([
      { topic: 'no-such-topic', payload: {}, dedupeKey: 'test:unknown-topic' },
      { topic: 'order-mail', payload: { orderId: 'seven' }, dedupeKey: 'test:bad-payload' },
    ]);
    await expect.poll(async () => (await rowOf('test:unknown-topic'))?.failedAt).toBeInstanceOf(Date);
    await expect.poll(async () => (await rowOf('test:bad-payload'))?.failedAt).toBeInstanceOf(Date);
    expect(await rowOf('test:unknown-topic')).toMatchObject({ attempts: 1, doneAt: null, lastError: 'unknown topic' });
    expect((await rowOf('test:bad-payload'))!.lastError).toMatch(/^payload not readable: /);
  });

  it('deletes effects done more than 30 days ago and keeps the recent and the failed ones', async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    await server.ctx.db.insert(outbox).values([
      { topic: 'order-mail', payload: {}, dedupeKey: 'test:done-long-ago', doneAt: daysAgo(31) },
      { topic: 'order-mail', payload: {}, dedupeKey: 'test:done-yesterday', doneAt: daysAgo(1) },
      { topic: 'order-mail', payload: {}, dedupeKey: 'test:failed-long-ago', failedAt: daysAgo(40) },
    ]);
    expect(await pruneDoneEffects(server.ctx, 30)).toBe(1);
    expect(await rowOf('test:done-long-ago')).toBeUndefined();
    expect(await rowOf('test:done-yesterday')).toBeDefined();
    expect(await rowOf('test:failed-long-ago')).toBeDefined();
  });

  it('renews the lease of an effect still running, and of nothing that is done', async () => {
    // Not due for an hour, so the worker leaves both rows alone.
    const later = new Date(Date.now() + 60 * 60 * 1000);
    await server.ctx.db.insert(outbox).values([
      {
        topic: 'order-mail',
        payload: {},
        dedupeKey: 'test:running',
        nextAttemptAt: later,
        lockedUntil: new Date(Date.now() + 1_000),
      },
      { topic: 'order-mail', payload: {}, dedupeKey: 'test:finished', nextAttemptAt: later, doneAt: new Date() },
    ]);
    const ids = [(await rowOf('test:running'))!.id, (await rowOf('test:finished'))!.id];
    await renewEffectLeases(server.ctx, ids);
    expect((await rowOf('test:running'))!.lockedUntil!.getTime() - Date.now()).toBeGreaterThan(15_000);
    expect((await rowOf('test:finished'))!.lockedUntil).toBeNull();
  });
});
