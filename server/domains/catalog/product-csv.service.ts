import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { desc, inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { z } from 'zod';
import { translate, type Locale, type MessageKey } from '../../../i18n';
import type { ActingContext, AppContext } from '../../context';
import { inventoryAdjustments, productGroups, productImages, products, productSkus } from '../../db/schema';
import { BadRequestError } from '../../shared/errors';
import { describeIssue } from '../../shared/issue-messages';
import { minorDigitsOf } from '../../shared/minor-units';
import { blobStoreOf } from '../media/blob-stores';
import { HASHED_IMAGE_PREFIX, hashedImageKey } from '../media/media-images.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { OPTION_AXES, type Row } from './product-csv-export';
import { fetchCsvImages, isRemoteImage, type FetchedImage, type ImageFetchError } from './product-csv-images';
import {
  CSV_IMPORT_STOCK_NOTE,
  productFieldsKey,
  skuColumnsKey,
  structureKey,
  writePlans,
  type PlannedProduct,
  type ProductChange,
} from './product-csv-write';
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
import { getEditorProduct } from './product-editor.service';

export { exportProductsCsv } from './product-csv-export';

/**
 * Products as CSV, the import (ADR 0161). It reads the whole file (at most
 * PRODUCT_CSV_MAX_BYTES), fetches the images it names by web address, checks every row with
 * the editor's own schema (productBody) and reports each problem by row and column; only a
 * file without problems is written, and then only what differs from the shop, one product per
 * short transaction (product-csv-write.ts). The work yields to other requests between batches.
 */

const YIELD_EVERY = 250;
const PROGRESS_EVERY_ROWS = 200;
const PARSE_SLICE = 64 * 1024;
/** Remote images: the console's upload limit, 10 s for all of one, 3 redirects, 4 at once. */
const IMAGE_TIMEOUT_MS = 10_000;
const IMAGE_REDIRECTS = 3;
const IMAGE_FETCHES_AT_ONCE = 4;

const STATUS_IN: Record<string, ProductStatus> = { active: 'published', draft: 'draft', archived: 'archived' };

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

/** The export's apostrophe before a formula-like cell (product-csv-export.ts, FORMULA_START). */
const FORMULA_GUARD = /^'(?=[=+\-@\t\r\uff1d\uff0b\uff0d\uff20])/;

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

interface Lookups {
  digits: number;
  groupIds: Map<string, number>;
  /** Images the file names that the shop holds or fetched, by the file's address. */
  images: Map<string, FetchedImage>;
  imageFailures: Map<string, ImageFetchError>;
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
  const stockCells: PlannedProduct['stockCells'] = [];
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
      const stockText = cells['Variant Inventory Qty'] ?? '';
      if (stockText && !INTEGER.test(stockText)) note(line, 'Variant Inventory Qty', 'adminProductCsv.integer');
      const newStockText = cells['Variant Inventory Qty (new)'] ?? '';
      if (newStockText && !/^\d+$/.test(newStockText))
        note(line, 'Variant Inventory Qty (new)', 'adminProductCsv.stockNew');
      const current = INTEGER.test(stockText) ? Number(stockText) : null;
      const next = /^\d+$/.test(newStockText) ? Number(newStockText) : null;
      stockCells.push({ current, next });
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
        // A new SKU starts with the new figure, else the file's stock (a file from elsewhere has only that).
        initial_stock: next ?? current ?? 0,
        hs_code: cells['Variant HS Code'] || null,
        origin_country: cells['Variant Country of Origin'] || null,
        customs_description: cells['Variant Customs Description'] || null,
        image: cells['Variant Image']
          ? (lookups.images.get(cells['Variant Image'])?.url ?? cells['Variant Image'])
          : null,
      });
      skuLines.push(line);
    }
    const src = cells['Image Src'];
    const size = src ? lookups.images.get(src) : undefined;
    const failure = src ? lookups.imageFailures.get(src) : undefined;
    // An image the shop cannot have is its row's one problem (left out of the body the schema checks).
    if (src && failure) note(line, 'Image Src', failure.key, failure.params);
    else if (src && !size)
      note(
        line,
        'Image Src',
        /^[a-z][a-z0-9+.-]*:/i.test(src) ? 'adminProductCsv.image.scheme' : 'adminProductCsv.imageUnknown',
      );
    else if (src && size) {
      const positionText = cells['Image Position'] ?? '';
      const position = INTEGER.test(positionText) ? Number(positionText) : Number.MAX_SAFE_INTEGER;
      positioned.push({
        position,
        line,
        image: {
          url: size.url,
          width: size.width,
          height: size.height,
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
  return {
    handle,
    firstLine: first.line,
    rowCount: rows.length,
    status,
    body,
    skuLines,
    stockCells,
    imageLines,
    existing: null,
    change: null,
  };
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
  const sizes = new Map<string, FetchedImage>();
  for (let start = 0; start < urls.length; start += 500) {
    const slice = urls.slice(start, start + 500);
    const rows = await ctx.db
      .select({ url: productImages.url, width: productImages.width, height: productImages.height })
      .from(productImages)
      .where(inArray(productImages.url, slice));
    for (const row of rows) sizes.set(row.url, row);
  }
  const store = blobStoreOf(ctx.env);
  for (const url of urls) {
    if (sizes.has(url) || !url.startsWith(HASHED_IMAGE_PREFIX)) continue;
    const key = hashedImageKey(url.slice(HASHED_IMAGE_PREFIX.length));
    const bytes = key ? await store.get(key) : null;
    if (!bytes) continue;
    const meta = await sharp(bytes).metadata();
    if (meta.width && meta.height) sizes.set(url, { url, width: meta.width, height: meta.height });
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

interface Checked {
  report: ProductImportReport;
  plans: PlannedProduct[];
}

type Summary = Pick<ProductImportReport, 'products' | 'skus' | 'rows_to_write'>;

/**
 * What the file changes on an existing product, and the counts it adds to the summary. Stock is
 * a compare-and-set: `(new)` applies where the shop still holds the exported figure, is already
 * done where it holds the new one, and is a problem where an order or an adjustment moved it.
 */
function changeOf(
  plan: PlannedProduct,
  view: ProductView,
  summary: Summary,
  findings: Finding[],
  appliedBefore: ReadonlySet<number>,
): ProductChange | null {
  const byId = new Map(view.skus.map((sku) => [sku.id, sku]));
  const kept = plan.body.skus.filter((sku) => sku.id !== undefined);
  const rewrite = structureKey(plan.body) !== structureKey(bodyOfView(view));
  const productFields = productFieldsKey(plan.body) !== productFieldsKey(bodyOfView(view));
  const skuIds = kept
    .filter((sku) => skuColumnsKey(sku) !== skuColumnsKey({ ...byId.get(sku.id!)!, initial_stock: 0 }))
    .map((sku) => sku.id!);
  const stock: ProductChange['stock'] = [];
  plan.body.skus.forEach((sku, index) => {
    const cells = plan.stockCells[index];
    const held = sku.id === undefined ? undefined : byId.get(sku.id);
    if (!held || !cells || cells.next === null) return;
    // Holding the new figure is "done" only when this file's change is what put it there (a
    // stopped import run again), not when an order happened to take the stock down to it.
    if (
      cells.next === held.stock &&
      (cells.current === null || cells.current === held.stock || appliedBefore.has(held.id))
    )
      return;
    const line = plan.skuLines[index] ?? plan.firstLine;
    if (cells.current === held.stock)
      stock.push({ skuId: held.id, code: held.code, line, from: held.stock, to: cells.next });
    else if (cells.current === null)
      findings.push({ row: line, column: 'Variant Inventory Qty', key: 'adminProductCsv.stockCurrent' });
    else
      findings.push({
        row: line,
        column: 'Variant Inventory Qty (new)',
        key: 'adminProductCsv.stockMoved',
        params: { code: held.code, file: cells.current, now: held.stock },
      });
  });
  const status = plan.status !== null && plan.status !== view.status ? plan.status : null;
  const updated = new Set([...skuIds, ...stock.map((change) => change.skuId)]);
  if (!rewrite && !productFields && updated.size === 0 && !status) {
    summary.products.unchanged += 1;
    summary.skus.unchanged += view.skus.length;
    return null;
  }
  summary.products.update += 1;
  summary.rows_to_write += plan.rowCount;
  summary.skus.create += plan.body.skus.length - kept.length;
  summary.skus.remove += view.skus.length - kept.length;
  // A kept SKU whose option values moved is rewritten too.
  const moved = kept.filter((sku) => JSON.stringify(sku.values) !== JSON.stringify(byId.get(sku.id!)!.values));
  for (const sku of moved) updated.add(sku.id!);
  summary.skus.update += updated.size;
  summary.skus.unchanged += kept.length - updated.size;
  return { kind: rewrite ? 'rewrite' : 'edit', productFields, skuIds, stock, status };
}

/** Every address the file gives for images, sorted into those the shop has and those it fetches. */
async function imagesOf(
  ctx: ActingContext,
  rows: ParsedRow[],
  dryRun: boolean,
  onFetched: (fetched: number, toFetch: number) => void,
) {
  const urls = [...new Set(rows.map((row) => row.cells['Image Src'] ?? '').filter(Boolean))];
  const images = await knownImageSizes(ctx, urls);
  const imageFailures = new Map<string, ImageFetchError>();
  const remote = urls.filter((url) => !images.has(url) && isRemoteImage(url));
  if (remote.length === 0) return { images, imageFailures };
  const outcomes = await fetchCsvImages(ctx, remote, {
    store: !dryRun,
    onFetched: (done) => onFetched(done, remote.length),
    concurrency: IMAGE_FETCHES_AT_ONCE,
    limits: {
      trustedHosts: new Set(
        ctx.env.IMPORT_IMAGE_TRUSTED_HOSTS.split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      ),
      maxBytes: ctx.env.MEDIA_MAX_BYTES,
      timeoutMs: IMAGE_TIMEOUT_MS,
      maxRedirects: IMAGE_REDIRECTS,
    },
  });
  for (const [url, outcome] of outcomes)
    if (outcome.ok) images.set(url, outcome.image);
    else imageFailures.set(url, outcome.error);
  return { images, imageFailures };
}

/** Checks the whole file (nothing written but, in a real import, the images it fetched) and says what an import would do. */
async function checkFile(
  ctx: ActingContext,
  input: { bytes: Buffer; dryRun: boolean; locale: Locale },
  onProgress: (progress: ProductImportProgress) => void,
): Promise<Checked> {
  const { rows, ignored } = await readRows(input.bytes);
  const total = rows.length;
  onProgress({ checked: 0, total });
  const { currency } = await getSiteSettings(ctx);
  const groups = await ctx.db.select({ id: productGroups.id, slug: productGroups.slug }).from(productGroups);
  const lookups: Lookups = {
    digits: minorDigitsOf(currency),
    groupIds: new Map(groups.map((group) => [group.slug, group.id])),
    ...(await imagesOf(ctx, rows, input.dryRun, (fetched, toFetch) =>
      onProgress({ checked: 0, total, fetched, to_fetch: toFetch }),
    )),
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
  for (const [handle, productRows] of byHandle) {
    const plan = buildProduct(handle, productRows, lookups, findings);
    const parsed = productBody.safeParse(plan.body);
    if (!parsed.success)
      for (const issue of parsed.error.issues) findings.push({ ...placeIssue(plan, issue), key: '', issue });
    else plan.body = parsed.data;
    if (plan.status === 'published' && missingLanguages(plan.body.name).length)
      findings.push({ row: plan.firstLine, column: 'Title (zh-cn)', key: 'adminProducts.publishNeedsNames' });
    plans.push(plan);
    if (plans.length % YIELD_EVERY === 0) await nextTurn();
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
  const summary: Summary = {
    products: { create: 0, update: 0, unchanged: 0 },
    skus: { create: 0, update: 0, remove: 0, unchanged: 0 },
    rows_to_write: 0,
  };
  let checked = 0;
  let reported = 0;
  for (const plan of plans) {
    // Comparing with the shop is the slow part of the check (the editor's view of each product).
    if (checked - reported >= PROGRESS_EVERY_ROWS) {
      reported = checked;
      onProgress({ checked, total });
    }
    checked += plan.rowCount;
    const id = ids.get(plan.handle) ?? null;
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
      summary.rows_to_write += plan.rowCount;
      plan.change = { kind: 'create', productFields: true, skuIds: [], stock: [], status: plan.status ?? null };
      if (plan.change.status === 'draft') plan.change.status = null;
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
    plan.change = changeOf(plan, view, summary, findings, await stockAlreadyImported(ctx, plan, view));
  }
  onProgress({ checked: total, total });

  findings.sort((a, b) => a.row - b.row);
  const problems = describeFindings(findings, input.locale);
  return {
    plans,
    report: { dry_run: true, written: false, rows: total, ...summary, ignored_columns: ignored, problems },
  };
}

/**
 * The SKUs of `plan` whose stock this file already set: their last adjustment is an import's,
 * from the file's exported figure to its new one.
 */
async function stockAlreadyImported(ctx: AppContext, plan: PlannedProduct, view: ProductView): Promise<Set<number>> {
  const held = new Map(view.skus.map((sku) => [sku.id, sku.stock]));
  const wanted = new Map<number, { from: number; to: number }>();
  plan.body.skus.forEach((sku, index) => {
    const cells = plan.stockCells[index];
    if (sku.id === undefined || !cells || cells.current === null || cells.next === null) return;
    if (cells.next === held.get(sku.id) && cells.current !== cells.next)
      wanted.set(sku.id, { from: cells.current, to: cells.next });
  });
  if (wanted.size === 0) return new Set();
  const latest = await ctx.db
    .selectDistinctOn([inventoryAdjustments.skuId], {
      skuId: inventoryAdjustments.skuId,
      delta: inventoryAdjustments.delta,
      stockAfter: inventoryAdjustments.stockAfter,
      reason: inventoryAdjustments.reason,
      note: inventoryAdjustments.note,
    })
    .from(inventoryAdjustments)
    .where(inArray(inventoryAdjustments.skuId, [...wanted.keys()]))
    .orderBy(inventoryAdjustments.skuId, desc(inventoryAdjustments.id));
  return new Set(
    latest
      .filter((row) => {
        const change = wanted.get(row.skuId);
        return (
          change !== undefined &&
          row.reason === 'counted' &&
          row.note === CSV_IMPORT_STOCK_NOTE &&
          row.stockAfter === change.to &&
          row.delta === change.to - change.from
        );
      })
      .map((row) => row.skuId),
  );
}

function describeFindings(findings: Finding[], locale: Locale): ProductImportProblem[] {
  return findings.map((finding) => ({
    row: finding.row,
    column: finding.column,
    message: finding.issue
      ? describeIssue(locale, { ...finding.issue, path: [finding.column] }, 'body')
      : translate(locale, finding.key as MessageKey, { ...finding.params, column: finding.column }),
  }));
}

/**
 * `POST /v1/admin/products/import`: checks the file; unless it is a dry run and when no row
 * has a problem, writes what differs from the shop, a product at a time (product-csv-write.ts):
 * new products created as drafts then given the file's status, others updated by Handle. The
 * answer's problems then list stock the write left because an order moved it meanwhile.
 */
export async function importProductsCsv(
  ctx: ActingContext,
  input: { bytes: Buffer; dryRun: boolean; locale: Locale },
  onProgress: (progress: ProductImportProgress) => void = () => {},
): Promise<ProductImportReport> {
  const { report, plans } = await checkFile(ctx, input, onProgress);
  if (input.dryRun || report.problems.length > 0) return { ...report, dry_run: input.dryRun };
  const toWrite = report.rows_to_write;
  onProgress({ checked: report.rows, total: report.rows, written: 0, to_write: toWrite });
  const stale = await writePlans(
    ctx,
    plans,
    { rows: report.rows, products: report.products, skus: report.skus },
    (written) => onProgress({ checked: report.rows, total: report.rows, written, to_write: toWrite }),
  );
  const findings: Finding[] = stale.map(({ change, now }) => ({
    row: change.line,
    column: 'Variant Inventory Qty (new)',
    key: 'adminProductCsv.stockMoved',
    params: { code: change.code, file: change.from, now },
  }));
  return { ...report, dry_run: false, written: true, problems: describeFindings(findings, input.locale) };
}
