import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { asc, eq } from 'drizzle-orm';
import { productGroups, productImages } from '../../server/db/schema';
import { PRODUCT_CSV_COLUMNS } from '../../server/domains/catalog/product-csv.schemas';
import type { TestStaff } from './staff';
import type { TestServer } from './test-server';

/** Products as CSV in tests (docs/console.md, "Products as CSV"; ADR 0161). */

export type Cells = Partial<Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>>;

export const csvOf = (rows: Cells[]) =>
  stringify([[...PRODUCT_CSV_COLUMNS], ...rows.map((row) => PRODUCT_CSV_COLUMNS.map((column) => row[column] ?? ''))]);

const cookieOf = (staff: TestStaff) =>
  Object.entries(staff.cookies)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

/** `POST /v1/admin/products/import?<query>` with the file as multipart; the body parsed when it is JSON. */
export async function uploadCsv(
  server: TestServer,
  staff: TestStaff,
  file: { text: string | Buffer; name?: string; type?: string },
  query = 'dry_run=true',
  lang = 'en',
) {
  const form = new FormData();
  const bytes = typeof file.text === 'string' ? new TextEncoder().encode(file.text) : new Uint8Array(file.text);
  form.append('file', new Blob([bytes], { type: file.type ?? 'text/csv' }), file.name ?? 'products.csv');
  const response = await fetch(`${server.url}/v1/admin/products/import?${query}`, {
    method: 'POST',
    body: form,
    headers: { ...staff.headers, lang, cookie: cookieOf(staff) },
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : null,
  };
}

/** The export as bytes decoded by hand: fetch's text() would drop the byte order mark. */
export async function exportCsv(server: TestServer, staff: TestStaff) {
  const response = await fetch(`${server.url}/v1/admin/products/export.csv`, {
    headers: { ...staff.headers, cookie: cookieOf(staff) },
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, text: bytes.toString('utf8') };
}

/** The exported rows of one product, as cells by column. */
export async function exportedRowsOf(server: TestServer, staff: TestStaff, handle: string): Promise<Cells[]> {
  const records = parse((await exportCsv(server, staff)).text, { bom: true, columns: true }) as Cells[];
  return records.filter((cells) => cells.Handle === handle);
}

/** A product image the seed holds and a category's handle, for files that must pass the check. */
export async function seededImageAndGroup(server: TestServer) {
  const [image] = await server.ctx.db
    .select({ url: productImages.url, width: productImages.width, height: productImages.height })
    .from(productImages)
    .orderBy(asc(productImages.id))
    .limit(1);
  const [group] = await server.ctx.db
    .select({ slug: productGroups.slug })
    .from(productGroups)
    .where(eq(productGroups.kind, 'category'))
    .orderBy(asc(productGroups.id))
    .limit(1);
  return { image: image!, groupSlug: group!.slug };
}

/** A two-option, four-SKU teapot over four rows, with an image on the first. */
export function teapotRows(
  handle: string,
  shop: { image: { url: string }; groupSlug: string },
  overrides: Cells = {},
): Cells[] {
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
      Groups: shop.groupSlug,
      'Service Notes': '1;2',
      'Final Sale': 'false',
      'Option1 Name': 'Colour',
      'Option1 Name (zh-cn)': '颜色',
      'Option2 Name': 'Size',
      'Option2 Name (zh-cn)': '尺寸',
      'Image Src': shop.image.url,
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
