import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { makeShopper, prepareSku } from '../support/buyers';
import { postgresAdminUrl } from '../support/database';
import { useTestServer } from '../support/test-server';

/**
 * ADR 0183: the statements a buyer's order and pages send with a list of ids keep one generic
 * plan per connection instead of being planned again on every execution. One connection, so
 * that every statement is prepared on the one asked about.
 */
const server = useTestServer({ DATABASE_POOL_MAX: '1' });

async function plansOf(names: string[]): Promise<Record<string, { generic: number; custom: number }>> {
  const result = (await server.ctx.db.execute(
    sql`select name, generic_plans, custom_plans from pg_prepared_statements where name in (${sql.join(
      names.map((name) => sql`${name}`),
      sql`, `,
    )})`,
  )) as unknown as { rows: Array<{ name: string; generic_plans: string; custom_plans: string }> };
  return Object.fromEntries(
    result.rows.map((row) => [row.name, { generic: Number(row.generic_plans), custom: Number(row.custom_plans) }]),
  );
}

describe('plans of the statements that take a list of ids', () => {
  it('lists the ids asked for, in any number, through listed_ids', async () => {
    const result = (await server.ctx.db.execute(
      sql`select array(select listed from listed_ids(array[3, 1, 2]) as listed) as ids`,
    )) as unknown as { rows: Array<{ ids: number[] }> };
    expect(result.rows[0]?.ids).toEqual([3, 1, 2]);
  });

  it.skipIf(!postgresAdminUrl)(
    'runs on the one connection its settings ask for, however many requests overlap',
    async () => {
      const buyer = await makeShopper(server);
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          server.app.inject({ method: 'GET', url: '/v1/order/list?page=1&page_size=10', headers: buyer.headers }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
      const connections = (await server.ctx.db.execute(
        sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and application_name = 'overseas-shop'`,
      )) as unknown as { rows: Array<{ count: number }> };
      expect(connections.rows[0]?.count).toBe(1);
    },
  );

  // PGlite keeps the named statements prepared too (ADR 0186), so the plans are the same on both.
  it('keeps one generic plan after the first few executions', async () => {
    const buyer = await makeShopper(server);
    const sku = await prepareSku(server, { stock: 100 });
    const added = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 1 } });
    expect(added.status).toBe(200);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const placed = await server.app.inject({
        method: 'POST',
        url: '/v2/order',
        headers: {
          ...buyer.headers,
          'content-type': 'application/json',
          'idempotency-key': `generic-plans-${attempt}`,
        },
        payload: { items: [{ sku_id: sku.id, quantity: 1 }] },
      });
      expect(placed.statusCode, placed.body).toBe(200);
      for (const url of ['/v1/cart', '/v1/order/list?page=1&page_size=10']) {
        const answer = await server.app.inject({ method: 'GET', url, headers: buyer.headers });
        expect(answer.statusCode, answer.body).toBe(200);
      }
    }

    const plans = await plansOf(['quote_facts', 'sku_facts', 'items_of_orders', 'place_order']);
    expect(Object.keys(plans).sort()).toEqual(['items_of_orders', 'place_order', 'quote_facts', 'sku_facts']);
    // PostgreSQL plans the first five executions for their values, then keeps the generic plan
    // when it costs no more; planned for their values every time, these counted 10 custom, 0 generic.
    for (const [name, counts] of Object.entries(plans)) {
      expect(counts.custom, name).toBe(5);
      expect(counts.generic, name).toBeGreaterThanOrEqual(4);
    }
  });
});
