import { and, asc, desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, inventoryAdjustments, products, productSkus } from '../../server/db/schema';
import { CLI_ACTOR } from '../../server/domains/audit/audit.service';
import { writePlans, type PlannedProduct } from '../../server/domains/catalog/product-csv-write';
import { getEditorProduct } from '../../server/domains/catalog/product-editor.service';
import { makeShopper, placeOrderFor } from '../support/buyers';
import { startImageServer } from '../support/image-server';
import { csvOf, exportedRowsOf, seededImageAndGroup, teapotRows, uploadCsv, type Cells } from '../support/product-csv';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/**
 * Products as CSV, the write phase (ADR 0161): only what differs is written, a product per
 * short transaction, SKUs locked in id order; stock is a compare-and-set from the exported figure.
 */
const server = useTestServer();

let editor: TestStaff;
let shop: Awaited<ReturnType<typeof seededImageAndGroup>>;
const tag = `${process.pid}-${Date.now().toString(36)}`;

beforeAll(async () => {
  editor = await createSignedInStaff(server, { role: 'catalogue' });
  shop = await seededImageAndGroup(server);
});

async function importNew(handle: string) {
  const done = await uploadCsv(server, editor, { text: csvOf(teapotRows(handle, shop)) }, 'dry_run=false');
  expect(done.body?.data?.written, done.text).toBe(true);
  const [product] = await server.ctx.db.select({ id: products.id }).from(products).where(eq(products.slug, handle));
  return product!.id;
}

async function skusOf(productId: number) {
  return server.ctx.db
    .select({
      id: productSkus.id,
      code: productSkus.code,
      price: productSkus.priceMinor,
      stock: productSkus.stock,
      updatedAt: productSkus.updatedAt,
    })
    .from(productSkus)
    .where(eq(productSkus.productId, productId))
    .orderBy(asc(productSkus.id));
}

const onPostgres = () => Boolean(server.databaseUrl?.startsWith('postgres'));

describe('products CSV import writes only what changed', () => {
  it('updates the one SKU whose price changed, leaves the others unwritten and unlocked, and a re-run writes nothing', async () => {
    const handle = `csv-price-${tag}`;
    const productId = await importNew(handle);
    const before = await skusOf(productId);
    const rows = await exportedRowsOf(server, editor, handle);
    expect(rows.map((row) => row['Variant Price'])).toEqual(['120.00', '150.00', '125.00', '155.00']);
    rows[2] = { ...rows[2], 'Variant Price': '130.00' };
    const file = csvOf(rows);

    const dry = await uploadCsv(server, editor, { text: file });
    expect(dry.body.data).toMatchObject({
      written: false,
      products: { create: 0, update: 1, unchanged: 0 },
      skus: { create: 0, update: 1, remove: 0, unchanged: 3 },
      rows_to_write: 4,
      problems: [],
    });

    // On PostgreSQL another connection holds an unchanged SKU's row: the import must not wait for it.
    let locker: pg.Client | null = null;
    if (onPostgres()) {
      locker = new pg.Client({ connectionString: server.databaseUrl });
      await locker.connect();
      await locker.query('begin');
      await locker.query('select id from product_skus where id = $1 for update', [before[0]!.id]);
    }
    try {
      const done = await Promise.race([
        uploadCsv(server, editor, { text: file }, 'dry_run=false'),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the import waited for a lock')), 15_000)),
      ]);
      expect(done.body.data.written).toBe(true);
      expect(done.body.data.problems).toEqual([]);
    } finally {
      await locker?.query('rollback');
      await locker?.end();
    }

    const after = await skusOf(productId);
    expect(after.map((sku) => sku.price)).toEqual([12_000, 15_000, 13_000, 15_500]);
    // The three unchanged SKUs were not written: their update times are the ones they had.
    expect([0, 1, 3].map((index) => after[index]!.updatedAt.getTime())).toEqual(
      [0, 1, 3].map((index) => before[index]!.updatedAt.getTime()),
    );
    const [audit] = await server.ctx.db
      .select({ changes: auditEvents.changes })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'product.updated'), eq(auditEvents.entityId, String(productId))))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(JSON.stringify(audit?.changes)).toContain('13000');

    const again = await uploadCsv(server, editor, { text: file }, 'dry_run=false');
    expect(again.body.data).toMatchObject({
      written: true,
      products: { create: 0, update: 0, unchanged: 1 },
      skus: { create: 0, update: 0, remove: 0, unchanged: 4 },
      rows_to_write: 0,
    });
  });

  it('keeps the stock an order took between export and import, and sets a new figure once', async () => {
    const handle = `csv-stock-${tag}`;
    const productId = await importNew(handle);
    const exported = await exportedRowsOf(server, editor, handle);
    expect(exported.map((row) => row['Variant Inventory Qty'])).toEqual(['7', '7', '7', '7']);
    const [cs, cl] = await skusOf(productId);

    const shopper = await makeShopper(server);
    await placeOrderFor(shopper, cs!.id, 2);
    expect((await skusOf(productId))[0]!.stock).toBe(5);

    // The exported file as it was: its 7 is what the export saw, not a figure to write back.
    const unchanged = await uploadCsv(server, editor, { text: csvOf(exported) }, 'dry_run=false');
    expect(unchanged.body.data.products).toEqual({ create: 0, update: 0, unchanged: 1 });
    expect((await skusOf(productId)).map((sku) => sku.stock)).toEqual([5, 7, 7, 7]);

    // A new figure over a stock that moved since the export is refused on its row, in both languages.
    const stale: Cells[] = exported.map((row, index) =>
      index === 0 ? { ...row, 'Variant Inventory Qty (new)': '10' } : row,
    );
    const refused = await uploadCsv(server, editor, { text: csvOf(stale) }, 'dry_run=false');
    expect(refused.body.data.written).toBe(false);
    expect(refused.body.data.problems).toEqual([
      {
        row: 2,
        column: 'Variant Inventory Qty (new)',
        message: `Stock of ${handle}-CS is 5 now, not 7 as exported (an order or adjustment since): the new figure was not applied; export again, or adjust it in Inventory`,
      },
    ]);
    const refusedZh = await uploadCsv(server, editor, { text: csvOf(stale) }, 'dry_run=true', 'zh-cn');
    expect(refusedZh.body.data.problems[0].message).toBe(
      `${handle}-CS 的库存现在是 5，而不是导出时的 7（此后有订单或库存调整）：新数值未应用；请重新导出，或在库存中调整`,
    );
    expect((await skusOf(productId)).map((sku) => sku.stock)).toEqual([5, 7, 7, 7]);

    // From a fresh export: the new figures apply, with an adjustment each, and a second run changes nothing.
    const fresh = (await exportedRowsOf(server, editor, handle)).map((row, index) =>
      index === 0
        ? { ...row, 'Variant Inventory Qty (new)': '10' }
        : index === 1
          ? { ...row, 'Variant Inventory Qty (new)': '3' }
          : row,
    );
    const dry = await uploadCsv(server, editor, { text: csvOf(fresh) });
    expect(dry.body.data.skus).toEqual({ create: 0, update: 2, remove: 0, unchanged: 2 });
    const applied = await uploadCsv(server, editor, { text: csvOf(fresh) }, 'dry_run=false');
    expect(applied.body.data.problems).toEqual([]);
    expect((await skusOf(productId)).map((sku) => sku.stock)).toEqual([10, 3, 7, 7]);
    const adjustments = await server.ctx.db
      .select({
        skuId: inventoryAdjustments.skuId,
        delta: inventoryAdjustments.delta,
        after: inventoryAdjustments.stockAfter,
      })
      .from(inventoryAdjustments)
      .where(eq(inventoryAdjustments.note, 'CSV import'))
      .orderBy(asc(inventoryAdjustments.id));
    expect(adjustments.filter((row) => row.skuId === cs!.id || row.skuId === cl!.id)).toEqual([
      { skuId: cs!.id, delta: 5, after: 10 },
      { skuId: cl!.id, delta: -4, after: 3 },
    ]);
    const rerun = await uploadCsv(server, editor, { text: csvOf(fresh) }, 'dry_run=false');
    expect(rerun.body.data.products).toEqual({ create: 0, update: 0, unchanged: 1 });
    expect((await skusOf(productId)).map((sku) => sku.stock)).toEqual([10, 3, 7, 7]);

    // An order that happens to take the stock down to the file's new figure is not the file's doing:
    // counted 5 on the shelf while the shop sold 2 leaves 3 there, so the row is refused, not skipped.
    const counted = (await exportedRowsOf(server, editor, handle)).map((row, index) =>
      index === 2 ? { ...row, 'Variant Inventory Qty (new)': '5' } : row,
    );
    const [, , is] = await skusOf(productId);
    await placeOrderFor(shopper, is!.id, 2);
    const coincidence = await uploadCsv(server, editor, { text: csvOf(counted) });
    expect(coincidence.body.data.problems).toEqual([
      {
        row: 4,
        column: 'Variant Inventory Qty (new)',
        message: `Stock of ${handle}-IS is 5 now, not 7 as exported (an order or adjustment since): the new figure was not applied; export again, or adjust it in Inventory`,
      },
    ]);
  });

  it.skipIf(!process.env.DATABASE_URL?.startsWith('postgres'))(
    'does not deadlock with a checkout taking stock when the file lists SKUs against id order',
    async () => {
      const handle = `csv-deadlock-${tag}`;
      const productId = await importNew(handle);
      const [, cl, is] = await skusOf(productId);
      const rows = await exportedRowsOf(server, editor, handle);
      // Every price up by one, and the middle SKUs swapped (CS, IS, CL, IL: ids 1, 3, 2, 4): the options'
      // value order stays, so these are edits in place of four SKUs listed against id order.
      const reordered: Cells[] = [rows[0]!, rows[2]!, rows[1]!, rows[3]!].map((row) => ({
        ...row,
        'Variant Price': (Number(row['Variant Price']) + 1).toFixed(2),
      }));

      // A checkout's transaction (ascending ids, as takeStock): CL, then, while the import runs, IS.
      const checkout = new pg.Client({ connectionString: server.databaseUrl });
      const watcher = new pg.Client({ connectionString: server.databaseUrl });
      await Promise.all([checkout.connect(), watcher.connect()]);
      try {
        await checkout.query("set lock_timeout = '20s'");
        await checkout.query('begin');
        await checkout.query('update product_skus set stock = stock - 1 where id = $1', [cl!.id]);
        const importing = uploadCsv(server, editor, { text: csvOf(reordered) }, 'dry_run=false');
        await expect
          .poll(
            async () =>
              (
                await watcher.query(
                  "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
                )
              ).rows[0].n,
            { timeout: 20_000, interval: 100 },
          )
          .toBeGreaterThan(0);
        await checkout.query('update product_skus set stock = stock - 1 where id = $1', [is!.id]);
        await checkout.query('commit');
        const done = await importing;
        expect(done.body.data, done.text).toMatchObject({ written: true, products: { update: 1 } });
      } finally {
        await Promise.all([checkout.end(), watcher.end()]);
      }
      const after = await skusOf(productId);
      expect(after.map((sku) => [sku.price, sku.stock])).toEqual([
        [12_100, 7],
        [15_100, 6],
        [12_600, 6],
        [15_600, 7],
      ]);
    },
  );

  it('leaves a stock that moved between the check and the write, and says so, while writing the rest', async () => {
    const handle = `csv-race-${tag}`;
    const productId = await importNew(handle);
    const view = (await getEditorProduct(server.ctx, productId))!;
    const [cs, cl] = view.skus;
    // As the check planned it when CS still held 9 and CL 7; an order has since left CS at 7.
    const plan: PlannedProduct = {
      handle,
      firstLine: 2,
      rowCount: 4,
      status: null,
      body: { ...view, skus: [] } as unknown as PlannedProduct['body'],
      skuLines: [2, 3, 4, 5],
      stockCells: [],
      imageLines: [],
      existing: view,
      change: {
        kind: 'edit',
        productFields: false,
        skuIds: [],
        stock: [
          { skuId: cs!.id, code: cs!.code, line: 2, from: 9, to: 20 },
          { skuId: cl!.id, code: cl!.code, line: 3, from: 7, to: 4 },
        ],
        status: null,
      },
    };
    const stale = await writePlans({ ...server.ctx, actor: CLI_ACTOR }, [plan], {}, () => {});
    expect(stale).toEqual([{ change: plan.change!.stock[0], now: 7 }]);
    expect((await skusOf(productId)).map((sku) => sku.stock)).toEqual([7, 4, 7, 7]);
  });

  it('streams rows written out of the rows to write while it writes', async () => {
    const answer = await uploadCsv(
      server,
      editor,
      { text: csvOf([...teapotRows(`csv-wprog-a-${tag}`, shop), ...teapotRows(`csv-wprog-b-${tag}`, shop)]) },
      'dry_run=false&progress=ndjson',
    );
    const lines = answer.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const writing = lines.filter((line) => line.progress?.to_write !== undefined).map((line) => line.progress);
    expect(writing).toEqual([
      { checked: 8, total: 8, written: 0, to_write: 8 },
      { checked: 8, total: 8, written: 4, to_write: 8 },
      { checked: 8, total: 8, written: 8, to_write: 8 },
    ]);
    expect(lines.at(-1).data.written).toBe(true);
  });

  it('refuses an image on 127.0.0.1 when IMPORT_IMAGE_TRUSTED_HOSTS does not name it', async () => {
    const images = await startImageServer();
    try {
      const rows = teapotRows(`csv-img-local-${tag}`, shop, { 'Image Src': images.url('/ok.png') });
      const dry = await uploadCsv(server, editor, { text: csvOf(rows) });
      expect(dry.body.data.problems).toEqual([
        {
          row: 2,
          column: 'Image Src',
          message:
            'Image Src points to a private or local network address: the shop fetches images only from public addresses',
        },
      ]);
    } finally {
      await images.close();
    }
  });

  it('imports 10,000 rows and a second run of the same file finds every product unchanged', async () => {
    const rows: Cells[] = [];
    for (let index = 0; index < 2_500; index += 1) rows.push(...teapotRows(`bulk-${tag}-${index}`, shop));
    const file = csvOf(rows);
    // As the console sends it: progress lines keep a long import's connection alive.
    const report = async () => {
      const answer = await uploadCsv(server, editor, { text: file }, 'dry_run=false&progress=ndjson');
      return JSON.parse(answer.text.trim().split('\n').at(-1)!);
    };
    const started = performance.now();
    const done = await report();
    // ADR 0161 quotes these times (PGlite, this 2-core machine).
    console.info(`10,000-row import: ${Math.round(performance.now() - started)} ms`);
    expect(done.data).toMatchObject({ written: true, products: { create: 2_500, update: 0, unchanged: 0 } });
    const rerun = performance.now();
    const again = await report();
    console.info(`10,000-row import of an unchanged file: ${Math.round(performance.now() - rerun)} ms`);
    expect(again.data).toMatchObject({
      written: true,
      products: { create: 0, update: 0, unchanged: 2_500 },
      rows_to_write: 0,
    });
  }, 900_000);
});
