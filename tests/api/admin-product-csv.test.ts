import { parse } from 'csv-parse/sync';
import { asc, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, products, productSkus } from '../../server/db/schema';
import { PRODUCT_CSV_MAX_BYTES } from '../../server/domains/catalog/product-csv.schemas';
import {
  csvOf,
  exportCsv as exportFrom,
  seededImageAndGroup,
  teapotRows as teapotOf,
  uploadCsv,
  type Cells,
} from '../support/product-csv';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/** Products as CSV (docs/console.md, "Products as CSV"; ADR 0161). */
const server = useTestServer();

let editor: TestStaff;
let fulfilment: TestStaff;
let shop: Awaited<ReturnType<typeof seededImageAndGroup>>;
const tag = `${process.pid}-${Date.now().toString(36)}`;

beforeAll(async () => {
  [editor, fulfilment] = await Promise.all([
    createSignedInStaff(server, { role: 'catalogue' }),
    createSignedInStaff(server, { role: 'fulfilment' }),
  ]);
  shop = await seededImageAndGroup(server);
});

const upload = (staff: TestStaff, file: Parameters<typeof uploadCsv>[2], query?: string, lang?: string) =>
  uploadCsv(server, staff, file, query, lang);
const exportCsv = (staff: TestStaff) => exportFrom(server, staff);
const teapotRows = (handle: string, overrides: Cells = {}) => teapotOf(handle, shop, overrides);

async function productCount() {
  return (await server.ctx.db.select({ n: count() }).from(products))[0]!.n;
}

describe('products as CSV', () => {
  it('lets a Fulfilment member export (orders:read) but not import', async () => {
    expect((await exportCsv(fulfilment)).status).toBe(200);
    const refused = await upload(fulfilment, { text: csvOf(teapotRows(`perm-${tag}`)) });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(403);
  });

  it('creates products with their SKUs and options from a good file, seen on the storefront in both languages', async () => {
    const handle = `csv-good-${tag}`;
    const file = csvOf(teapotRows(handle));
    const before = await productCount();
    const dry = await upload(editor, { text: file });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data).toEqual({
      dry_run: true,
      written: false,
      rows: 4,
      products: { create: 1, update: 0, unchanged: 0 },
      skus: { create: 4, update: 0, remove: 0, unchanged: 0 },
      rows_to_write: 4,
      ignored_columns: [],
      problems: [],
    });
    expect(await productCount()).toBe(before);

    const done = await upload(editor, { text: file }, 'dry_run=false');
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.written).toBe(true);
    const [row] = await server.ctx.db.select().from(products).where(eq(products.slug, handle));
    expect(row?.status).toBe('published');
    const skus = await server.ctx.db
      .select({ code: productSkus.code, price: productSkus.priceMinor, stock: productSkus.stock })
      .from(productSkus)
      .where(eq(productSkus.productId, row!.id))
      .orderBy(asc(productSkus.id));
    expect(skus).toEqual([
      { code: `${handle}-CS`, price: 12_000, stock: 7 },
      { code: `${handle}-CL`, price: 15_000, stock: 7 },
      { code: `${handle}-IS`, price: 12_500, stock: 7 },
      { code: `${handle}-IL`, price: 15_500, stock: 7 },
    ]);
    const zh = await server.request(`/v1/good/${row!.id}`, { headers: { lang: 'zh-cn' } });
    expect(zh.status).toBe(200);
    expect(zh.body.data.name).toBe(`CSV 茶壶 ${handle}`);
    expect(zh.body.data.property.map((property: { name: string }) => property.name)).toEqual(['颜色', '尺寸']);
    const en = await server.request(`/v1/good/${row!.id}`, { headers: { lang: 'en' } });
    expect(en.body.data.name).toBe(`CSV teapot ${handle}`);

    const [audit] = await server.ctx.db
      .select({ changes: auditEvents.changes })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'product.imported'))
      .orderBy(asc(auditEvents.id));
    expect(JSON.stringify(audit?.changes)).toContain('"create":1');
  });

  it('exports what a dry run of the same file finds unchanged', async () => {
    const answer = await exportCsv(editor);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.text.startsWith('\ufeffHandle,Title,Title (zh-cn),')).toBe(true);
    const total = await productCount();
    const skuTotal = (await server.ctx.db.select({ n: count() }).from(productSkus))[0]!.n;
    const dry = await upload(editor, { text: answer.text });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data.problems).toEqual([]);
    expect(dry.body.data.products).toEqual({ create: 0, update: 0, unchanged: total });
    expect(dry.body.data.skus).toEqual({ create: 0, update: 0, remove: 0, unchanged: skuTotal });
    expect(dry.body.data.rows_to_write).toBe(0);
  });

  it('guards cells a spreadsheet would run as formulas, and the import takes the guard off', async () => {
    const handle = `csv-formula-${tag}`;
    // Spreadsheets read the full-width ＝ ＋ － ＠ as formula signs too.
    const rows = teapotRows(handle, {
      Title: '=HYPERLINK("http://evil.example","x")',
      'Title (zh-cn)': '＝HYPERLINK("http://evil.example","点我")',
      'SEO Title': '@SUM(A1)',
      'SEO Title (zh-cn)': '＋1',
      'SEO Description': '－1',
      'SEO Description (zh-cn)': '＠SUM(A1)',
    });
    expect((await upload(editor, { text: csvOf(rows) }, 'dry_run=false')).status).toBe(200);
    const exported = (await exportCsv(editor)).text;
    const record = (parse(exported, { bom: true, columns: true }) as Array<Record<string, string>>).find(
      (cells) => cells.Handle === handle && cells.Title,
    );
    expect(record?.Title).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(record?.['SEO Title']).toBe("'@SUM(A1)");
    expect(record?.['Title (zh-cn)']).toBe('\'＝HYPERLINK("http://evil.example","点我")');
    expect(record?.['SEO Title (zh-cn)']).toBe("'＋1");
    expect(record?.['SEO Description']).toBe("'－1");
    expect(record?.['SEO Description (zh-cn)']).toBe("'＠SUM(A1)");
    const [stored] = await server.ctx.db
      .select({ name: products.name })
      .from(products)
      .where(eq(products.slug, handle));
    expect(stored?.name['zh-cn']).toBe('＝HYPERLINK("http://evil.example","点我")');
    const dry = await upload(editor, { text: exported });
    expect(dry.body.data.problems).toEqual([]);
    expect(dry.body.data.products.update).toBe(0);
  });

  it('reports every broken row of a 10,000-row file by row and column, in English and Chinese, and writes nothing', async () => {
    const rows: Cells[] = [];
    for (let index = 0; index < 2_500; index += 1) rows.push(...teapotRows(`big-${tag}-${index}`));
    expect(rows.length).toBe(10_000);
    // Row numbers as a spreadsheet shows them: the header is row 1.
    rows[1] = { ...rows[1], 'Variant Price': '-5.00' }; // row 3
    rows[4_998] = { ...rows[4_998], 'Variant SKU': 'bad code!' }; // row 5000
    rows[9_999] = { ...rows[9_999], 'Variant Price': 'twelve' }; // row 10001
    const file = csvOf(rows);
    const before = await productCount();

    const started = performance.now();
    const dry = await upload(editor, { text: file }, 'dry_run=true');
    // ADR 0161 quotes this time (PGlite, this 2-core machine).
    console.info(`10,000-row dry run: ${Math.round(performance.now() - started)} ms`);
    expect(dry.status).toBe(200);
    expect(dry.body.data.written).toBe(false);
    expect(
      dry.body.data.problems.map((problem: { row: number; column: string }) => [problem.row, problem.column]),
    ).toEqual([
      [3, 'Variant Price'],
      [5_000, 'Variant SKU'],
      [10_001, 'Variant Price'],
    ]);
    expect(await productCount()).toBe(before);

    const en = await upload(editor, { text: file }, 'dry_run=false');
    expect(en.status, en.text.slice(0, 500)).toBe(200);
    expect(en.body.data.written).toBe(false);
    expect(en.body.data.rows).toBe(10_000);
    expect(en.body.data.problems).toEqual([
      { row: 3, column: 'Variant Price', message: 'A price cannot be negative' },
      {
        row: 5_000,
        column: 'Variant SKU',
        message: expect.stringMatching(/SKU code/),
      },
      {
        row: 10_001,
        column: 'Variant Price',
        message: 'Variant Price must be a number with at most 2 decimals, such as 120.00',
      },
    ]);
    const zh = await upload(editor, { text: file }, 'dry_run=true', 'zh-cn');
    expect(zh.body.data.problems.map((problem: { row: number }) => problem.row)).toEqual([3, 5_000, 10_001]);
    expect(zh.body.data.problems[2].message).toBe('Variant Price 必须是最多 2 位小数的数字，例如 120.00');
    expect(await productCount()).toBe(before);
  }, 120_000);

  it('reports a SKU another product holds and an unknown group, and writes nothing', async () => {
    const handle = `csv-clash-${tag}`;
    const rows = teapotRows(handle, { Groups: 'no-such-group' });
    rows[2] = { ...rows[2], 'Variant SKU': `csv-good-${tag}-CS` };
    const answer = await upload(editor, { text: csvOf(rows) }, 'dry_run=false');
    expect(answer.body.data.problems).toEqual([
      { row: 2, column: 'Groups', message: 'There is no group with the handle “no-such-group”' },
      { row: 4, column: 'Variant SKU', message: expect.stringContaining(`csv-good-${tag}-CS`) },
    ]);
    expect(await server.ctx.db.select().from(products).where(eq(products.slug, handle))).toEqual([]);
  });

  it('refuses a file that is not CSV and one over the size limit, in the language asked', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const notCsv = await upload(editor, { text: png, name: 'photo.png', type: 'image/png' });
    expect(notCsv.status).toBe(400);
    expect(notCsv.body.msg).toBe('This file is not a CSV file: export products as CSV (UTF-8) and try again');
    const binary = await upload(editor, { text: png, name: 'photo.csv' }, 'dry_run=true', 'zh-cn');
    expect(binary.status).toBe(400);
    expect(binary.body.msg).toBe('该文件不是 CSV 文件：请将商品导出为 CSV（UTF-8）后重试');
    const unclosed = await upload(editor, { text: 'Handle,Title\nok,"open quote\nnext,row\n' });
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.msg).toMatch(/^The file cannot be read as CSV near line \d+ \(a quote left open\?\)$/);
    const large = await upload(editor, { text: Buffer.alloc(PRODUCT_CSV_MAX_BYTES + 1, 'a') }, 'dry_run=true', 'zh-cn');
    expect(large.status).toBe(413);
    expect(large.body.msg).toBe('文件过大：CSV 文件最大 10 MB');
  });

  it('answers progress lines and then the report when asked for ndjson', async () => {
    const answer = await upload(
      editor,
      { text: csvOf(teapotRows(`csv-progress-${tag}`)) },
      'dry_run=true&progress=ndjson',
    );
    expect(answer.status).toBe(200);
    const lines = answer.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines[0]).toEqual({ progress: { checked: 0, total: 4 } });
    expect(lines.at(-2)).toEqual({ progress: { checked: 4, total: 4 } });
    expect(lines.at(-1).code).toBe(200);
    expect(lines.at(-1).data.products).toEqual({ create: 1, update: 0, unchanged: 0 });
  });
});
