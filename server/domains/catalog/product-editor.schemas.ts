import { z } from 'zod';
import { LOCALES, type Locale } from '../../../i18n/locales';
import { PG_INTEGER_MAX } from '../../shared/ids';
import { rowId, rowIdFromText } from '../../shared/ids.schemas';

/**
 * The console's product editor (docs/console.md, "Products"): one schema per shape, read by
 * the routes, the service and the console's form alike. Prices are minor units of the
 * settlement currency; texts are kept in both shop languages, and a language left empty is
 * shown in the console as a missing translation.
 */

export const PRODUCT_STATUSES = ['draft', 'published', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** SPEC section 3's service notes: fast after-sale, seven-day return, partial free shipping, free shipping. */
export const SERVICE_NOTES = [1, 2, 3, 4] as const;

export const MAX_OPTIONS = 3;
export const MAX_SKUS = 200;
export const MAX_IMAGES = 20;

const bothLanguages = (max: number) =>
  z.object({ en: z.string().trim().max(max), 'zh-cn': z.string().trim().max(max) }).strict();
export type BothLanguages = z.infer<ReturnType<typeof bothLanguages>>;

/** The languages a text is still missing in (empty or blank). */
export function missingLanguages(text: Record<Locale, string> | null | undefined): Locale[] {
  return LOCALES.filter((locale) => !text?.[locale]?.trim());
}

/**
 * Only pictures the shop serves itself (ADR 0160): the console's uploads at `/images/h/...`
 * and the seed's under `/images/` (not buyers' `/uploads/`: a buyer may delete those). Plain
 * path segments only, so no
 * scheme (`javascript:`, `data:`), no other host (`//host`, `https:`), no `..`, no control
 * characters: the storefront puts these into `src` and `srcset` as they are.
 */
export const SHOP_IMAGE_PATH = /^\/images(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;

const imageUrl = z.string().trim().max(500).regex(SHOP_IMAGE_PATH, 'adminProducts.imageUrl');

export const productImageInput = z.object({
  url: imageUrl,
  width: z.number().int().min(1).max(20_000),
  height: z.number().int().min(1).max(20_000),
  alt: bothLanguages(200),
});

export const productOptionInput = z.object({
  name: bothLanguages(40),
  values: z
    .array(
      z.object({
        value: bothLanguages(60),
        /** A CSS colour for swatches (colour options only). */
        swatch: z
          .string()
          .trim()
          .regex(/^#[0-9a-fA-F]{3,8}$/, 'adminProducts.swatch')
          .nullable(),
      }),
    )
    .min(1)
    .max(30),
});

export const skuInput = z.object({
  /** An existing SKU of this product; absent for a new one. */
  id: rowId.optional(),
  /** For each option, the position of this SKU's value in that option's `values`. */
  values: z.array(z.number().int().min(0).max(29)).max(MAX_OPTIONS),
  code: z
    .string()
    .trim()
    .min(1, 'adminProducts.skuCodeFormat')
    .max(64, 'adminProducts.skuCodeFormat')
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'adminProducts.skuCodeFormat'),
  price_minor: z.number().int().min(0, 'adminProducts.negativePrice').max(PG_INTEGER_MAX),
  /** Stock of a new SKU; an existing SKU's stock changes only through orders and inventory adjustments. */
  initial_stock: z.number().int().min(0).max(1_000_000),
  hs_code: z
    .string()
    .trim()
    .regex(/^\d{6,12}$/, 'adminProducts.hsCode')
    .nullable(),
  origin_country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'adminProducts.originCountry')
    .nullable(),
  customs_description: z.string().trim().max(200).nullable(),
  image: imageUrl.nullable(),
});

export const productBody = z
  .object({
    name: bothLanguages(120),
    /** Rich text (HTML); the server keeps only the safe subset (sanitizeRichText). */
    description: bothLanguages(20_000),
    seo_title: bothLanguages(120),
    seo_description: bothLanguages(300),
    /** Shipping weight of one item in grams (the shipping-fee rules read it). */
    weight_grams: z.number().int().min(1).max(1_000_000),
    service_notes: z.array(z.union(SERVICE_NOTES.map((note) => z.literal(note)))).max(4),
    final_sale: z.boolean(),
    group_ids: z.array(rowId).max(50),
    options: z.array(productOptionInput).max(MAX_OPTIONS),
    skus: z.array(skuInput).min(1, 'adminProducts.noSku').max(MAX_SKUS),
    images: z.array(productImageInput).max(MAX_IMAGES),
  })
  .superRefine((body, issues) => {
    if (!body.name.en && !body.name['zh-cn'])
      issues.addIssue({ code: 'custom', message: 'adminProducts.nameRequired', path: ['name', 'en'] });
    const combinations = new Set<string>();
    const codes = new Set<string>();
    body.skus.forEach((sku, index) => {
      const fits =
        sku.values.length === body.options.length &&
        sku.values.every((position, axis) => position < (body.options[axis]?.values.length ?? 0));
      if (!fits)
        issues.addIssue({ code: 'custom', message: 'adminProducts.skuValues', path: ['skus', index, 'values'] });
      const combination = sku.values.join('/');
      if (fits && combinations.has(combination))
        issues.addIssue({ code: 'custom', message: 'adminProducts.skuRepeated', path: ['skus', index, 'values'] });
      combinations.add(combination);
      const code = sku.code.toLowerCase();
      if (codes.has(code))
        issues.addIssue({
          code: 'custom',
          message: 'adminProducts.duplicateSku',
          params: { code: sku.code },
          path: ['skus', index, 'code'],
        });
      codes.add(code);
    });
  });
export type ProductBody = z.infer<typeof productBody>;

export const productStatusBody = z.object({ status: z.enum(PRODUCT_STATUSES) });
export const productIdParams = z.object({ id: rowIdFromText });

export const productListQuery = z.object({
  q: z.string().trim().min(1).max(100).optional().describe('name in either language, or a SKU code'),
  status: z.enum(PRODUCT_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
export type ProductListQuery = z.infer<typeof productListQuery>;

const localizedView = z.object({ en: z.string(), 'zh-cn': z.string() });
const localeList = z.array(z.enum(LOCALES));

export const productRow = z.object({
  id: z.number().int(),
  name: localizedView,
  status: z.enum(PRODUCT_STATUSES),
  cover: z.string().nullable(),
  sku_count: z.number().int(),
  min_price_minor: z.number().int().nullable(),
  stock: z.number().int(),
  /** Languages where the name, description or SEO fields are still empty. */
  missing: localeList,
  updated_at: z.string(),
});
export type ProductRow = z.infer<typeof productRow>;

export const productPage = z.object({
  records: z.array(productRow),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  currency: z.string(),
});

export const productView = z.object({
  id: z.number().int(),
  status: z.enum(PRODUCT_STATUSES),
  name: localizedView,
  description: localizedView,
  seo_title: localizedView,
  seo_description: localizedView,
  weight_grams: z.number().int(),
  service_notes: z.array(z.number().int()),
  final_sale: z.boolean(),
  group_ids: z.array(z.number().int()),
  options: z.array(
    z.object({
      name: localizedView,
      values: z.array(z.object({ value: localizedView, swatch: z.string().nullable() })),
    }),
  ),
  skus: z.array(
    z.object({
      id: z.number().int(),
      values: z.array(z.number().int()),
      code: z.string(),
      price_minor: z.number().int(),
      stock: z.number().int(),
      hs_code: z.string().nullable(),
      origin_country: z.string().nullable(),
      customs_description: z.string().nullable(),
      image: z.string().nullable(),
    }),
  ),
  images: z.array(z.object({ url: z.string(), width: z.number().int(), height: z.number().int(), alt: localizedView })),
  /** Per field, the languages still missing. */
  missing: z.record(z.string(), localeList),
  currency: z.string(),
  updated_at: z.string(),
});
export type ProductView = z.infer<typeof productView>;

/** The groups a product may join, for the editor's picker. */
export const productGroupChoices = z.array(
  z.object({ id: z.number().int(), kind: z.enum(['category', 'collection']), name: localizedView }),
);
