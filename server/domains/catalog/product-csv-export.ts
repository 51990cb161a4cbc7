import { stringify } from 'csv-stringify/sync';
import { asc, gt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { productGroups, products } from '../../db/schema';
import { minorDigitsOf } from '../../shared/minor-units';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { PRODUCT_CSV_COLUMNS, type ProductCsvColumn } from './product-csv.schemas';
import type { ProductStatus, ProductView } from './product-editor.schemas';
import { getEditorProduct } from './product-editor.service';

/** Products as CSV, the export (ADR 0161): a page of products at a time, streamed. */

export type Row = Partial<Record<ProductCsvColumn, string>>;
export const OPTION_AXES = [1, 2, 3] as const;
const EXPORT_PAGE = 100;

export const STATUS_OUT: Record<ProductStatus, string> = { published: 'active', draft: 'draft', archived: 'archived' };

/**
 * What spreadsheets run as a formula: = + - @ and a leading tab or return (OWASP's list), and
 * the full-width ＝ ＋ － ＠ that Excel and WPS read as the same signs.
 */
export const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

/** A cell a spreadsheet would run, made text with a leading apostrophe. */
export function guardFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

function formatPrice(minor: number, digits: number): string {
  return digits === 0 ? String(minor) : (minor / 10 ** digits).toFixed(digits);
}

/** A product as CSV rows: one per SKU or image, whichever are more; the product's fields on the first. */
function rowsOf(view: ProductView, slug: string, groupSlugs: Map<number, string>, digits: number): string[][] {
  const count = Math.max(1, view.skus.length, view.images.length);
  const rows: string[][] = [];
  for (let index = 0; index < count; index += 1) {
    const first = index === 0;
    const sku = view.skus[index];
    const image = view.images[index];
    const row: Row = { Handle: slug };
    if (first) {
      Object.assign(row, {
        Title: view.name.en,
        'Title (zh-cn)': view.name['zh-cn'],
        'Body (HTML)': view.description.en,
        'Body (HTML) (zh-cn)': view.description['zh-cn'],
        Status: STATUS_OUT[view.status],
        Groups: view.group_ids.map((id) => groupSlugs.get(id) ?? '').join(';'),
        'Service Notes': view.service_notes.join(';'),
        'Final Sale': view.final_sale ? 'true' : 'false',
        'Variant Grams': String(view.weight_grams),
        'SEO Title': view.seo_title.en,
        'SEO Title (zh-cn)': view.seo_title['zh-cn'],
        'SEO Description': view.seo_description.en,
        'SEO Description (zh-cn)': view.seo_description['zh-cn'],
      } satisfies Row);
      view.options.forEach((option, axis) => {
        row[`Option${OPTION_AXES[axis]!} Name`] = option.name.en;
        row[`Option${OPTION_AXES[axis]!} Name (zh-cn)`] = option.name['zh-cn'];
      });
    }
    if (sku) {
      sku.values.forEach((position, axis) => {
        const value = view.options[axis]?.values[position];
        const n = OPTION_AXES[axis]!;
        row[`Option${n} Value`] = value?.value.en ?? '';
        row[`Option${n} Value (zh-cn)`] = value?.value['zh-cn'] ?? '';
        row[`Option${n} Swatch`] = value?.swatch ?? '';
      });
      Object.assign(row, {
        'Variant SKU': sku.code,
        'Variant Price': formatPrice(sku.price_minor, digits),
        'Variant Inventory Qty': String(sku.stock),
        // Left empty: a figure written here is the new stock (ADR 0161, compare-and-set).
        'Variant Inventory Qty (new)': '',
        'Variant Grams': String(view.weight_grams),
        'Variant HS Code': sku.hs_code ?? '',
        'Variant Country of Origin': sku.origin_country ?? '',
        'Variant Customs Description': sku.customs_description ?? '',
        'Variant Image': sku.image ?? '',
      } satisfies Row);
    }
    if (image)
      Object.assign(row, {
        'Image Src': image.url,
        'Image Position': String(index + 1),
        'Image Alt Text': image.alt.en,
        'Image Alt Text (zh-cn)': image.alt['zh-cn'],
      } satisfies Row);
    rows.push(PRODUCT_CSV_COLUMNS.map((column) => row[column] ?? ''));
  }
  return rows;
}

/**
 * `GET /v1/admin/products/export.csv`: every product, oldest first, as UTF-8 CSV with a byte
 * order mark (so spreadsheet tools read Chinese right). Cells that a spreadsheet would run as
 * a formula are prefixed with an apostrophe (guardFormula); the import takes it off.
 */
export async function* exportProductsCsv(ctx: AppContext): AsyncGenerator<string> {
  const { currency } = await getSiteSettings(ctx);
  const digits = minorDigitsOf(currency);
  const groups = await ctx.db.select({ id: productGroups.id, slug: productGroups.slug }).from(productGroups);
  const groupSlugs = new Map(groups.map((group) => [group.id, group.slug]));
  yield `\ufeff${stringify([[...PRODUCT_CSV_COLUMNS]])}`;
  let after = 0;
  for (;;) {
    const page = await ctx.db
      .select({ id: products.id, slug: products.slug })
      .from(products)
      .where(gt(products.id, after))
      .orderBy(asc(products.id))
      .limit(EXPORT_PAGE);
    if (page.length === 0) return;
    const rows: string[][] = [];
    for (const product of page) {
      const view = await getEditorProduct(ctx, product.id);
      if (view) rows.push(...rowsOf(view, product.slug, groupSlugs, digits));
    }
    yield stringify(rows.map((row) => row.map(guardFormula)));
    after = page[page.length - 1]!.id;
  }
}
