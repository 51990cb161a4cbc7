import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { asc, eq, gt, inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { z } from 'zod';
import { translate, type Locale, type MessageKey } from '../../../i18n';
import type { ActingContext, AppContext } from '../../context';
import { productGroups, productImages, products, productSkus } from '../../db/schema';
import { BadRequestError } from '../../shared/errors';
import { describeIssue } from '../../shared/issue-messages';
import { minorDigitsOf } from '../../shared/minor-units';
import { recordAudit } from '../audit/audit.service';
import { blobStoreOf } from '../media/blob-stores';
import { HASHED_IMAGE_PREFIX, hashedImageKey } from '../media/media-images.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { retireCatalogPages } from './catalog-pages';
import {
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_MAX_ROWS,
  type ProductCsvColumn,
  type ProductImportProblem,
  type ProductImportProgress,
  type ProductImportReport,
} from './product-csv.schemas';
import {
  missingLanguages,
  productBody,
  type ProductBody,
  type ProductStatus,
  type ProductView,
} from './product-editor.schemas';
import {
  createEditorProduct,
  getEditorProduct,
  setEditorProductStatus,
  updateEditorProduct,
} from './product-editor.service';
import { sanitizeRichText } from './rich-text';

/**
 * Products as CSV (ADR 0161). The export streams every product, a page at a time. The import
 * reads the whole file (at most PRODUCT_CSV_MAX_BYTES), checks every row with the editor's
 * own schema (productBody) and reports each problem by row and column; only a file without
 * problems is written, in one transaction through the editor's write functions, with one
 * audit event for the import. The work yields to other requests between batches of rows.
 */

type Row = Partial<Record<ProductCsvColumn, string>>;
const OPTION_AXES = [1, 2, 3] as const;
const YIELD_EVERY = 250;
const PARSE_SLICE = 64 * 1024;
const EXPORT_PAGE = 100;

const STATUS_OUT: Record<ProductStatus, string> = { published: 'active', draft: 'draft', archived: 'archived' };
const STATUS_IN: Record<string, ProductStatus> = { active: 'published', draft: 'draft', archived: 'archived' };

// ---------------------------------------------------------------------------------------- export

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
 * a formula (= + - @, tab, return) are prefixed with an apostrophe; the import takes it off.
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
    yield stringify(rows, { escape_formulas: true });
    after = page[page.length - 1]!.id;
  }
}

// ---------------------------------------------------------------------------------------- import

/** A problem found in the file, before it is put into words. */
interface Finding {
  row: number;
  column: string;
  key: MessageKey | '';
  params?: Record<string, string | number>;
  issue?: z.core.$ZodIssue;
}

interface ParsedRow {
  /** The spreadsheet's row number (header = 1). */
  line: number;
  cells: Row;
}

const FORMULA_GUARD = /^'(?=[=+\-@\t\r])/;

/** Reads the CSV: refuses what is not a CSV of ours (localized 400); cells untouched but trimmed. */
async function readRows(bytes: Buffer): Promise<{ rows: ParsedRow[]; ignored: string[] }> {
  if (bytes.includes(0)) throw new BadRequestError('adminProductCsv.notCsv');
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\ufffd')) throw new BadRequestError('adminProductCsv.notUtf8');
  // Fed in slices, so parsing a large file leaves the event loop free between them.
  const slices = Array.from({ length: Math.ceil(text.length / PARSE_SLICE) }, (_, index) =>
    text.slice(index * PARSE_SLICE, (index + 1) * PARSE_SLICE),
  );
  const parser = Readable.from(slices).pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
  const rows: ParsedRow[] = [];
  let header: string[] | null = null;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = record.map((name) => name.trim());
        if (!header.includes('Handle')) throw new BadRequestError('adminProductCsv.noHandle');
        continue;
      }
      if (rows.length >= PRODUCT_CSV_MAX_ROWS)
        throw new BadRequestError('adminProductCsv.tooManyRows', { limit: PRODUCT_CSV_MAX_ROWS });
      const cells: Row = {};
      header.forEach((name, index) => {
        if ((PRODUCT_CSV_COLUMNS as readonly string[]).includes(name))
          cells[name as ProductCsvColumn] = (record[index] ?? '').replace(FORMULA_GUARD, '').trim();
      });
      rows.push({ line: rows.length + 2, cells });
      if (rows.length % YIELD_EVERY === 0) await nextTurn();
    }
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    const line = (error as { lines?: number }).lines;
    throw new BadRequestError('adminProductCsv.unreadable', { line: line ?? 1 });
  }
  if (!header) throw new BadRequestError('adminProductCsv.noHandle');
  const ignored = header.filter((name) => name && !(PRODUCT_CSV_COLUMNS as readonly string[]).includes(name));
  return { rows, ignored };
}

const HANDLE = /^[a-z0-9][a-z0-9-]{0,99}$/;
const PRICE = /^-?\d+(?:\.\d+)?$/;
const INTEGER = /^-?\d+$/;

/** One product as the file tells it, built into the editor's body, with where each part came from. */
interface PlannedProduct {
  handle: string;
  firstLine: number;
  status: ProductStatus | null;
  body: ProductBody;
  skuLines: number[];
  imageLines: number[];
  existing: ProductView | null;
  existingSlugId: number | null;
}

interface Lookups {
  digits: number;
  groupIds: Map<string, number>;
  imageSizes: Map<string, { width: number; height: number }>;
}

function bilingual(row: Row, column: ProductCsvColumn, zh: ProductCsvColumn) {
  return { en: row[column] ?? '', 'zh-cn': row[zh] ?? '' };
}

/** Builds one product's body from its rows; what cannot be read is a finding, and the body is still built. */
function buildProduct(handle: string, rows: ParsedRow[], lookups: Lookups, findings: Finding[]): PlannedProduct {
  const first = rows[0]!;
  const head = first.cells;
  const note = (row: number, column: ProductCsvColumn, key: MessageKey, params?: Finding['params']) =>
    findings.push({ row, column, key, params });

  if (!HANDLE.test(handle)) note(first.line, 'Handle', 'adminProductCsv.handle');
  let status: ProductStatus | null = null;
  const statusText = (head.Status ?? '').toLowerCase();
  if (statusText) {
    status = STATUS_IN[statusText] ?? null;
    if (!status) note(first.line, 'Status', 'adminProductCsv.status');
  }

  const groupIds: number[] = [];
  for (const slug of (head.Groups ?? '')
    .split(/[;,]/)
    .map((part) => part.trim())
    .filter(Boolean)) {
    const id = lookups.groupIds.get(slug);
    if (id === undefined) note(first.line, 'Groups', 'adminProductCsv.unknownGroup', { slug });
    else groupIds.push(id);
  }
  const serviceNotes: number[] = [];
  for (const part of (head['Service Notes'] ?? '')
    .split(/[;,]/)
    .map((value) => value.trim())
    .filter(Boolean)) {
    if (/^[1-4]$/.test(part)) serviceNotes.push(Number(part));
    else note(first.line, 'Service Notes', 'adminProductCsv.serviceNotes');
  }
  const finalSaleText = (head['Final Sale'] ?? '').toLowerCase();
  if (finalSaleText && !['true', 'false'].includes(finalSaleText))
    note(first.line, 'Final Sale', 'adminProductCsv.boolean');

  const options: ProductBody['options'] = [];
  for (const n of OPTION_AXES) {
    const name = bilingual(head, `Option${n} Name`, `Option${n} Name (zh-cn)`);
    if (name.en || name['zh-cn']) options.push({ name, values: [] });
  }

  const skus: ProductBody['skus'] = [];
  const skuLines: number[] = [];
  const images: ProductBody['images'] = [];
  const imageLines: number[] = [];
  let weight: number | null = null;
  const positioned: Array<{ position: number; line: number; image: ProductBody['images'][number] }> = [];

  for (const { line, cells } of rows) {
    if (cells['Variant SKU']) {
      const values = options.map((option, axis) => {
        const n = OPTION_AXES[axis]!;
        const value = bilingual(cells, `Option${n} Value`, `Option${n} Value (zh-cn)`);
        const swatch = cells[`Option${n} Swatch`] || null;
        const key = value.en || value['zh-cn'];
        if (!key) note(line, `Option${n} Value`, 'adminProductCsv.optionValue');
        const found = option.values.findIndex((known) => (known.value.en || known.value['zh-cn']) === key);
        if (found >= 0) return found;
        option.values.push({ value, swatch });
        return option.values.length - 1;
      });
      const priceText = cells['Variant Price'] ?? '';
      let priceMinor = 0;
      if (!PRICE.test(priceText) || (priceText.split('.')[1]?.length ?? 0) > lookups.digits)
        note(line, 'Variant Price', 'adminProductCsv.price', { digits: lookups.digits });
      else priceMinor = Math.round(Number(priceText) * 10 ** lookups.digits);
      const stockText = cells['Variant Inventory Qty'] || '0';
      if (!INTEGER.test(stockText)) note(line, 'Variant Inventory Qty', 'adminProductCsv.integer');
      const gramsText = cells['Variant Grams'] ?? '';
      if (gramsText) {
        if (!INTEGER.test(gramsText)) note(line, 'Variant Grams', 'adminProductCsv.integer');
        else if (weight !== null && Number(gramsText) !== weight)
          note(line, 'Variant Grams', 'adminProductCsv.gramsDiffer', { grams: weight });
        else weight = Number(gramsText);
      }
      skus.push({
        values,
        code: cells['Variant SKU'],
        price_minor: priceMinor,
        initial_stock: INTEGER.test(stockText) ? Number(stockText) : 0,
        hs_code: cells['Variant HS Code'] || null,
        origin_country: cells['Variant Country of Origin'] || null,
        customs_description: cells['Variant Customs Description'] || null,
        image: cells['Variant Image'] || null,
      });
      skuLines.push(line);
    }
    const src = cells['Image Src'];
    if (src) {
      const size = lookups.imageSizes.get(src);
      if (!size) note(line, 'Image Src', 'adminProductCsv.imageUnknown');
      const positionText = cells['Image Position'] ?? '';
      const position = INTEGER.test(positionText) ? Number(positionText) : Number.MAX_SAFE_INTEGER;
      positioned.push({
        position,
        line,
        image: {
          url: src,
          width: size?.width ?? 1,
          height: size?.height ?? 1,
          alt: bilingual(cells, 'Image Alt Text', 'Image Alt Text (zh-cn)'),
        },
      });
    }
  }
  positioned.sort((a, b) => a.position - b.position || a.line - b.line);
  for (const entry of positioned) {
    images.push(entry.image);
    imageLines.push(entry.line);
  }
  if (weight === null && !head['Variant Grams']) note(first.line, 'Variant Grams', 'adminProductCsv.gramsMissing');

  const body: ProductBody = {
    name: bilingual(head, 'Title', 'Title (zh-cn)'),
    description: bilingual(head, 'Body (HTML)', 'Body (HTML) (zh-cn)'),
    seo_title: bilingual(head, 'SEO Title', 'SEO Title (zh-cn)'),
    seo_description: bilingual(head, 'SEO Description', 'SEO Description (zh-cn)'),
    weight_grams: weight ?? (INTEGER.test(head['Variant Grams'] ?? '') ? Number(head['Variant Grams']) : 0),
    service_notes: serviceNotes as ProductBody['service_notes'],
    final_sale: finalSaleText === 'true',
    group_ids: groupIds,
    options,
    skus,
    images,
  };
  return { handle, firstLine: first.line, status, body, skuLines, imageLines, existing: null, existingSlugId: null };
}

/** Which row and column an issue of the editor's schema points at. */
function placeIssue(product: PlannedProduct, issue: z.core.$ZodIssue): { row: number; column: string } {
  const [part, index, field, , , language] = issue.path;
  const zh = (column: string, lang: unknown) => (lang === 'zh-cn' ? `${column} (zh-cn)` : column);
  const topColumns: Record<string, string> = {
    name: 'Title',
    description: 'Body (HTML)',
    seo_title: 'SEO Title',
    seo_description: 'SEO Description',
    weight_grams: 'Variant Grams',
    service_notes: 'Service Notes',
    group_ids: 'Groups',
  };
  if (part === 'skus' && typeof index === 'number') {
    const skuColumns: Record<string, string> = {
      code: 'Variant SKU',
      price_minor: 'Variant Price',
      initial_stock: 'Variant Inventory Qty',
      hs_code: 'Variant HS Code',
      origin_country: 'Variant Country of Origin',
      customs_description: 'Variant Customs Description',
      image: 'Variant Image',
      values: 'Option1 Value',
    };
    return { row: product.skuLines[index] ?? product.firstLine, column: skuColumns[String(field)] ?? 'Variant SKU' };
  }
  if (part === 'images' && typeof index === 'number') {
    const column = field === 'alt' ? zh('Image Alt Text', issue.path[3]) : 'Image Src';
    return { row: product.imageLines[index] ?? product.firstLine, column };
  }
  if (part === 'options' && typeof index === 'number') {
    const n = index + 1;
    return {
      row: product.firstLine,
      column: field === 'values' ? zh(`Option${n} Value`, language) : zh(`Option${n} Name`, issue.path[3]),
    };
  }
  if (part === 'skus') return { row: product.firstLine, column: 'Variant SKU' };
  if (part === 'options') return { row: product.firstLine, column: 'Option1 Name' };
  if (part === 'images') return { row: product.firstLine, column: 'Image Src' };
  return { row: product.firstLine, column: zh(topColumns[String(part)] ?? 'Handle', index) };
}

/** The image URLs the file names that the shop already holds, with their sizes. */
async function knownImageSizes(ctx: AppContext, urls: string[]) {
  const sizes = new Map<string, { width: number; height: number }>();
  for (let start = 0; start < urls.length; start += 500) {
    const slice = urls.slice(start, start + 500);
    const rows = await ctx.db
      .select({ url: productImages.url, width: productImages.width, height: productImages.height })
      .from(productImages)
      .where(inArray(productImages.url, slice));
    for (const row of rows) sizes.set(row.url, { width: row.width, height: row.height });
  }
  const store = blobStoreOf(ctx.env);
  for (const url of urls) {
    if (sizes.has(url) || !url.startsWith(HASHED_IMAGE_PREFIX)) continue;
    const key = hashedImageKey(url.slice(HASHED_IMAGE_PREFIX.length));
    const bytes = key ? await store.get(key) : null;
    if (!bytes) continue;
    const meta = await sharp(bytes).metadata();
    if (meta.width && meta.height) sizes.set(url, { width: meta.width, height: meta.height });
  }
  return sizes;
}

/** What the editor's body of an existing product is, to tell whether the file changes it. */
function bodyOfView(view: ProductView): ProductBody {
  const { id: _id, status: _status, missing: _missing, currency: _currency, updated_at: _updatedAt, ...rest } = view;
  return {
    ...rest,
    service_notes: view.service_notes as ProductBody['service_notes'],
    skus: view.skus.map(({ stock, ...sku }) => ({ ...sku, initial_stock: stock })),
  };
}

function comparable(body: ProductBody): string {
  return JSON.stringify({
    ...body,
    description: { en: sanitizeRichText(body.description.en), 'zh-cn': sanitizeRichText(body.description['zh-cn']) },
    service_notes: [...new Set(body.service_notes)].sort(),
    group_ids: [...new Set(body.group_ids)].sort((a, b) => a - b),
    skus: body.skus.map(({ id: _id, initial_stock: _stock, ...sku }) => sku),
  });
}

interface Checked {
  report: ProductImportReport;
  plans: PlannedProduct[];
}

/** Checks the whole file (nothing written) and says what an import would do. */
async function checkFile(
  ctx: AppContext,
  bytes: Buffer,
  locale: Locale,
  onProgress: (progress: ProductImportProgress) => void,
): Promise<Checked> {
  const { rows, ignored } = await readRows(bytes);
  const total = rows.length;
  onProgress({ checked: 0, total });
  const { currency } = await getSiteSettings(ctx);
  const groups = await ctx.db.select({ id: productGroups.id, slug: productGroups.slug }).from(productGroups);
  const urls = [...new Set(rows.map((row) => row.cells['Image Src'] ?? '').filter(Boolean))];
  const lookups: Lookups = {
    digits: minorDigitsOf(currency),
    groupIds: new Map(groups.map((group) => [group.slug, group.id])),
    imageSizes: await knownImageSizes(ctx, urls),
  };

  const findings: Finding[] = [];
  const byHandle = new Map<string, ParsedRow[]>();
  for (const row of rows) {
    const handle = row.cells.Handle ?? '';
    if (!handle) {
      findings.push({ row: row.line, column: 'Handle', key: 'adminProductCsv.handle' });
      continue;
    }
    const list = byHandle.get(handle) ?? [];
    list.push(row);
    byHandle.set(handle, list);
  }

  const plans: PlannedProduct[] = [];
  let checked = 0;
  for (const [handle, productRows] of byHandle) {
    const plan = buildProduct(handle, productRows, lookups, findings);
    const parsed = productBody.safeParse(plan.body);
    if (!parsed.success)
      for (const issue of parsed.error.issues) findings.push({ ...placeIssue(plan, issue), key: '', issue });
    else plan.body = parsed.data;
    if (plan.status === 'published' && missingLanguages(plan.body.name).length)
      findings.push({ row: plan.firstLine, column: 'Title (zh-cn)', key: 'adminProducts.publishNeedsNames' });
    plans.push(plan);
    checked += productRows.length;
    if (plans.length % YIELD_EVERY === 0) {
      onProgress({ checked, total });
      await nextTurn();
    }
  }

  // Existing products by Handle, and SKU codes other products hold.
  const handles = plans.map((plan) => plan.handle);
  const ids = new Map<string, number>();
  for (let start = 0; start < handles.length; start += 500) {
    const found = await ctx.db
      .select({ id: products.id, slug: products.slug })
      .from(products)
      .where(inArray(products.slug, handles.slice(start, start + 500)));
    for (const row of found) ids.set(row.slug, row.id);
  }
  const codeOwner = new Map<string, { handle: string; line: number }>();
  const codes = plans.flatMap((plan) => plan.body.skus.map((sku) => sku.code.toLowerCase()));
  const held = new Map<string, number>();
  for (let start = 0; start < codes.length; start += 500) {
    const found = await ctx.db
      .select({ code: sql<string>`lower(${productSkus.code})`, productId: productSkus.productId })
      .from(productSkus)
      .where(inArray(sql`lower(${productSkus.code})`, codes.slice(start, start + 500)));
    for (const row of found) held.set(row.code, row.productId);
  }
  const summary = { products: { create: 0, update: 0, unchanged: 0 }, skus: { create: 0, update: 0, remove: 0 } };
  for (const plan of plans) {
    const id = ids.get(plan.handle) ?? null;
    plan.existingSlugId = id;
    plan.body.skus.forEach((sku, index) => {
      const code = sku.code.toLowerCase();
      const line = plan.skuLines[index] ?? plan.firstLine;
      const other = codeOwner.get(code);
      if (other && other.handle !== plan.handle)
        findings.push({
          row: line,
          column: 'Variant SKU',
          key: 'adminProductCsv.skuInOtherRow',
          params: { code: sku.code, row: other.line },
        });
      codeOwner.set(code, { handle: plan.handle, line });
      const owner = held.get(code);
      if (owner !== undefined && owner !== id)
        findings.push({
          row: line,
          column: 'Variant SKU',
          key: 'adminProducts.duplicateSku',
          params: { code: sku.code },
        });
    });
    if (id === null) {
      summary.products.create += 1;
      summary.skus.create += plan.body.skus.length;
      continue;
    }
    const view = await getEditorProduct(ctx, id);
    plan.existing = view;
    if (!view) continue;
    const byCode = new Map(view.skus.map((sku) => [sku.code.toLowerCase(), sku]));
    plan.body.skus = plan.body.skus.map((sku) => {
      const kept = byCode.get(sku.code.toLowerCase());
      return kept ? { ...sku, id: kept.id } : sku;
    });
    const kept = plan.body.skus.filter((sku) => sku.id !== undefined).length;
    const changed =
      comparable(plan.body) !== comparable(bodyOfView(view)) || (plan.status !== null && plan.status !== view.status);
    if (changed) {
      summary.products.update += 1;
      summary.skus.create += plan.body.skus.length - kept;
      summary.skus.update += kept;
      summary.skus.remove += view.skus.length - kept;
    } else summary.products.unchanged += 1;
  }
  onProgress({ checked: total, total });

  findings.sort((a, b) => a.row - b.row);
  const problems: ProductImportProblem[] = findings.map((finding) => ({
    row: finding.row,
    column: finding.column,
    message: finding.issue
      ? describeIssue(locale, { ...finding.issue, path: [finding.column] }, 'body')
      : translate(locale, finding.key as MessageKey, { ...finding.params, column: finding.column }),
  }));
  return {
    plans,
    report: { dry_run: true, written: false, rows: total, ...summary, ignored_columns: ignored, problems },
  };
}

/**
 * `POST /v1/admin/products/import`: checks the file; unless it is a dry run and when no row
 * has a problem, writes every product in one transaction (created as drafts then given the
 * file's status, updated by Handle; a kept SKU keeps its stock), records one audit event and
 * retires the pages of the products it changed.
 */
export async function importProductsCsv(
  ctx: ActingContext,
  input: { bytes: Buffer; dryRun: boolean; locale: Locale },
  onProgress: (progress: ProductImportProgress) => void = () => {},
): Promise<ProductImportReport> {
  const { report, plans } = await checkFile(ctx, input.bytes, input.locale, onProgress);
  if (input.dryRun || report.problems.length > 0) return { ...report, dry_run: input.dryRun };
  const touched = { productIds: new Set<number>(), groupIds: new Set<number>() };
  await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    for (const plan of plans) {
      const view = plan.existing;
      let id = view?.id;
      if (!view) {
        const created = await createEditorProduct(t, plan.body);
        id = created.id;
        await tx.update(products).set({ slug: plan.handle }).where(eq(products.id, created.id));
      } else if (comparable(plan.body) !== comparable(bodyOfView(view))) {
        await updateEditorProduct(t, view.id, plan.body);
        for (const groupId of view.group_ids) touched.groupIds.add(groupId);
      } else if (plan.status === null || plan.status === view.status) continue;
      const status = plan.status ?? view?.status ?? 'draft';
      if (status !== (view?.status ?? 'draft')) await setEditorProductStatus(t, id!, status);
      touched.productIds.add(id!);
      for (const groupId of plan.body.group_ids) touched.groupIds.add(groupId);
      if (touched.productIds.size % YIELD_EVERY === 0) await nextTurn();
    }
    await recordAudit(t, {
      action: 'product.imported',
      entityType: 'product',
      entityId: 'csv',
      after: { rows: report.rows, products: report.products, skus: report.skus },
    });
  });
  await retireCatalogPages(ctx, { productIds: [...touched.productIds], groupIds: [...touched.groupIds] });
  return { ...report, dry_run: false, written: true };
}
