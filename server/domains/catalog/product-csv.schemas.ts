import { z } from 'zod';

/**
 * Products as CSV (docs/console.md, "Products as CSV"; ADR 0161): Shopify's product columns
 * with our second language beside them. One product spans several rows, one per SKU and
 * one per image, joined by its Handle; the product's own fields are read from its first row.
 */

const optionColumns = (n: 1 | 2 | 3) =>
  [
    `Option${n} Name`,
    `Option${n} Name (zh-cn)`,
    `Option${n} Value`,
    `Option${n} Value (zh-cn)`,
    `Option${n} Swatch`,
  ] as const;

export const PRODUCT_CSV_COLUMNS = [
  'Handle',
  'Title',
  'Title (zh-cn)',
  'Body (HTML)',
  'Body (HTML) (zh-cn)',
  'Status',
  'Groups',
  'Service Notes',
  'Final Sale',
  ...optionColumns(1),
  ...optionColumns(2),
  ...optionColumns(3),
  'Variant SKU',
  'Variant Price',
  'Variant Inventory Qty',
  'Variant Inventory Qty (new)',
  'Variant Grams',
  'Variant HS Code',
  'Variant Country of Origin',
  'Variant Customs Description',
  'Variant Image',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Image Alt Text (zh-cn)',
  'SEO Title',
  'SEO Title (zh-cn)',
  'SEO Description',
  'SEO Description (zh-cn)',
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];

/** The largest CSV file the import reads, and the most rows in it. */
export const PRODUCT_CSV_MAX_BYTES = 10 * 1024 * 1024;
export const PRODUCT_CSV_MAX_ROWS = 20_000;

export const productImportQuery = z.object({
  /** `true`: check every row and say what would change, writing nothing. */
  dry_run: z.enum(['true', 'false']).default('false'),
  /** `ndjson`: answer progress lines while checking and writing, then the report (the console's progress bar). */
  progress: z.enum(['ndjson']).optional(),
});

export const productImportProblem = z.object({
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: z.number().int(),
  column: z.string(),
  message: z.string(),
});
export type ProductImportProblem = z.infer<typeof productImportProblem>;

export const productImportReport = z.object({
  dry_run: z.boolean(),
  /** True only when the import wrote its changes (no problems, not a dry run). */
  written: z.boolean(),
  rows: z.number().int(),
  products: z.object({ create: z.number().int(), update: z.number().int(), unchanged: z.number().int() }),
  skus: z.object({
    create: z.number().int(),
    update: z.number().int(),
    remove: z.number().int(),
    unchanged: z.number().int(),
  }),
  /** Rows of the products that change: what the write phase works through. */
  rows_to_write: z.number().int(),
  /** Columns of the file this shop does not read (other platforms' extras). */
  ignored_columns: z.array(z.string()),
  /**
   * The file's problems (then nothing is written); after a write, rows it left as they were
   * because the shop changed under them (stock an order took since the export).
   */
  problems: z.array(productImportProblem),
});
export type ProductImportReport = z.infer<typeof productImportReport>;

/**
 * One line of the `progress=ndjson` answer: images fetched out of those the file names by web
 * address, rows checked so far out of all, then, when the import writes, rows written so far
 * out of the rows that change. A line at least every few seconds keeps the connection alive.
 */
export const productImportProgress = z.object({
  checked: z.number().int(),
  total: z.number().int(),
  fetched: z.number().int().optional(),
  to_fetch: z.number().int().optional(),
  written: z.number().int().optional(),
  to_write: z.number().int().optional(),
});
export type ProductImportProgress = z.infer<typeof productImportProgress>;
