import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { asc, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, productGroups, productImages, products, productSkus } from '../../server/db/schema';
import { PRODUCT_CSV_COLUMNS, PRODUCT_CSV_MAX_BYTES } from '../../server/domains/catalog/product-csv.schemas';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/** Products as CSV (docs/console.md, "Products as CSV"; ADR 0161). */
const server = useTestServer();

let editor: TestStaff;
let fulfilment: TestStaff;
let image: { url: string; width: number; height: number };
let groupSlug: string;
const tag = `${process.pid}-${Date.now().toString(36)}`;

beforeAll(async () => {
  [editor, fulfilment] = await Promise.all([
    createSignedInStaff(server, { role: 'catalogue' }),
    createSignedInStaff(server, { role: 'fulfilment' }),
  ]);
  const [first] = await server.ctx.db
    .select({ url: productImages.url, width: productImages.width, height: productImages.height })
    .from(productImages)
    .orderBy(asc(productImages.id))
    .limit(1);
  image = first!;
  const [group] = await server.ctx.db
    .select({ slug: productGroups.slug })
    .from(productGroups)
    .where(eq(productGroups.kind, 'category'))
    .orderBy(asc(productGroups.id))
    .limit(1);
  groupSlug = group!.slug;
});

type Cells = Partial<Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>>;
const csvOf = (rows: Cells[]) =>
  stringify([[...PRODUCT_CSV_COLUMNS], ...rows.map((row) => PRODUCT_CSV_COLUMNS.map((column) => row[column] ?? ''))]);

async function upload(
  staff: TestStaff,
  file: { text: string | Buffer; name?: string; type?: string },
  query = 'dry_run=true',
  lang = 'en',
) {
  const form = new FormData();
  const bytes = typeof file.text === 'string' ? new TextEncoder().encode(file.text) : new Uint8Array(file.text);
  form.append('file', new Blob([bytes], { type: file.type ?? 'text/csv' }), file.name ?? 'products.csv');
  const cookie = Object.entries(staff.cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  const response = await fetch(`${server.url}/v1/admin/products/import?${query}`, {
    method: 'POST',
    body: form,
    headers: { ...staff.headers, lang, cookie },
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : null,
  };
}

/** The export as bytes decoded by hand: fetch's text() would drop the byte order mark. */
async function exportCsv(staff: TestStaff) {
  const cookie = Object.entries(staff.cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
  const response = await fetch(`${server.url}/v1/admin/products/export.csv`, { headers: { ...staff.headers, cookie } });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, text: bytes.toString('utf8') };
}

async function productCount() {
  return (await server.ctx.db.select({ n: count() }).from(products))[0]!.n;
}

/** A two-option, four-SKU teapot over four rows, with an image on the first. */
function teapotRows(handle: string, overrides: Cells = {}): Cells[] {
  const sku = (colour: string, colourZh: string, size: string, sizeZh: string, code: string, price: string): Cells => ({
    Handle: handle,
    'Option1 Value': colour,
    'Option1 Value (zh-cn)': colourZh,
    'Option2 Value': size,
    'Option2 Value (zh-cn)': sizeZh,
    'Variant SKU': `${handle}-${code}`,
    'Variant Price': price,
    'Variant Inventory Qty': '7',
    'Variant Grams': '800',
    'Variant HS Code': '691200',
    'Variant Country of Origin': 'CN',
  });
  return [
    {
      ...sku('Celadon', '青瓷', 'Small', '小', 'CS', '120.00'),
      Title: `CSV teapot ${handle}`,
      'Title (zh-cn)': `CSV 茶壶 ${handle}`,
      'Body (HTML)': '<p>Glazed by hand.</p>',
      'Body (HTML) (zh-cn)': '<p>手工上釉。</p>',
      Status: 'active',
      Groups: groupSlug,
      'Service Notes': '1;2',
      'Final Sale': 'false',
      'Option1 Name': 'Colour',
      'Option1 Name (zh-cn)': '颜色',
      'Option2 Name': 'Size',
      'Option2 Name (zh-cn)': '尺寸',
      'Image Src': image.url,
      'Image Position': '1',
      'Image Alt Text': 'Front',
      'Image Alt Text (zh-cn)': '正面',
      ...overrides,
    },
    sku('Celadon', '青瓷', 'Large', '大', 'CL', '150.00'),
    sku('Ink', '墨黑', 'Small', '小', 'IS', '125.00'),
    sku('Ink', '墨黑', 'Large', '大', 'IL', '155.00'),
  ];
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
      skus: { create: 4, update: 0, remove: 0 },
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
    const dry = await upload(editor, { text: answer.text });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data.problems).toEqual([]);
    expect(dry.body.data.products).toEqual({ create: 0, update: 0, unchanged: total });
    expect(dry.body.data.skus).toEqual({ create: 0, update: 0, remove: 0 });
  });

  it('guards cells a spreadsheet would run as formulas, and the import takes the guard off', async () => {
    const handle = `csv-formula-${tag}`;
    const rows = teapotRows(handle, { Title: '=HYPERLINK("http://evil.example","x")', 'SEO Title': '@SUM(A1)' });
    expect((await upload(editor, { text: csvOf(rows) }, 'dry_run=false')).status).toBe(200);
    const exported = (await exportCsv(editor)).text;
    const record = (parse(exported, { bom: true, columns: true }) as Array<Record<string, string>>).find(
      (cells) => cells.Handle === handle && cells.Title,
    );
    expect(record?.Title).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(record?.['SEO Title']).toBe("'@SUM(A1)");
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
