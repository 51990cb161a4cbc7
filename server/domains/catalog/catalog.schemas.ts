import { z } from 'zod';
import { PG_INTEGER_MAX } from '../../shared/ids';
import { rowIdFromText } from '../../shared/ids.schemas';
import { currencyCode } from '../../shared/money.schemas';
import { singleLineText } from '../../shared/text';

export const PRODUCT_SORTS = ['newest', 'best_selling', 'price_asc', 'price_desc'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const MAX_PAGE_SIZE = 50;
export const MAX_KEYWORD_LENGTH = 100;

/** `GET /v1/good/list` and the category and search pages: one schema for both doors. */
export const productListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
    group_id: rowIdFromText.optional(),
    keyword: singleLineText(MAX_KEYWORD_LENGTH).optional(),
    /** Bounds in minor units of the settlement currency. */
    price_min: z.coerce.number().int().min(0).max(PG_INTEGER_MAX).optional(),
    price_max: z.coerce.number().int().min(0).max(PG_INTEGER_MAX).optional(),
    sort: z.enum(PRODUCT_SORTS).default('newest'),
  })
  .refine(
    (query) => query.price_min === undefined || query.price_max === undefined || query.price_min <= query.price_max,
    {
      message: 'validation.priceRange',
      path: ['price_min'],
    },
  );

export type ProductListQuery = z.infer<typeof productListQuery>;

export const idParams = z.object({ id: rowIdFromText });

// Answers of the catalogue endpoints (and of the storefront pages that call the same functions).

const image = z.object({ url: z.string(), width: z.number().int(), height: z.number().int(), alt: z.string() });
const swatch = z.object({
  value_id: z.number().int(),
  name: z.string(),
  color: z.string(),
  image: z.string().nullable(),
});
export type SwatchView = z.infer<typeof swatch>;

export const productCard = z.object({
  id: z.number().int(),
  name: z.string(),
  image: image.nullable(),
  price: z.string().describe('lowest SKU price as a decimal string in `currency`'),
  price_minor: z.number().int().describe('the same price in minor units (fen, cents; yen have none)'),
  currency: currencyCode,
  sold: z.number().int(),
  in_stock: z.boolean(),
  swatches: z.array(swatch),
});
export type ProductCard = z.infer<typeof productCard>;

export const productPage = z.object({
  records: z.array(productCard),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  has_more: z.boolean(),
});
export type ProductPage = z.infer<typeof productPage>;

/** A node of the category tree (navigation): `children` nests to any depth. */
export const groupNode = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  image: z.string().nullable(),
  parent_id: z.number().int().nullable(),
  leaf: z.boolean(),
  get children() {
    return z.array(groupNode);
  },
});
export type GroupNode = z.infer<typeof groupNode>;

/** One group with its direct children (one level) and the trail of its ancestors. */
export const groupDetail = groupNode.extend({
  kind: z.enum(['category', 'collection']),
  breadcrumb: z.array(z.object({ id: z.number().int(), name: z.string() })),
  updated_at: z.string(),
});
export type GroupDetail = z.infer<typeof groupDetail>;

/** A home-page section: a collection with its first products. */
export const homeSection = groupNode
  .pick({ id: true, slug: true, name: true, description: true, image: true })
  .extend({ products: z.array(productCard) });
export type HomeSection = z.infer<typeof homeSection>;

/** SPEC section 3's service notes: 1 fast after-sale, 2 seven-day return, 3 partial free shipping, 4 free shipping. */
const serviceNote = z.literal([1, 2, 3, 4]);

export const productDetail = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  /** The page's search-engine title and description when the console set them; empty: the name and description. */
  seo_title: z.string(),
  seo_description: z.string(),
  images: z.array(image),
  property: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      values: z.array(
        z.object({
          id: z.number().int(),
          name: z.string(),
          swatch: z.string().nullable(),
          image: z.string().nullable(),
        }),
      ),
    }),
  ),
  good_sku: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      value_ids: z.array(z.number().int()).describe('one property value id per property'),
      price: z.string(),
      price_minor: z.number().int(),
      currency: currencyCode,
      stock: z.number().int(),
      image: z.string().nullable(),
    }),
  ),
  price_range: z.object({
    min: z.string(),
    max: z.string(),
    min_minor: z.number().int(),
    max_minor: z.number().int(),
    currency: currencyCode,
  }),
  sold: z.number().int(),
  service_notes: z.array(serviceNote),
  category: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  updated_at: z.string(),
});
export type ProductDetail = z.infer<typeof productDetail>;

export const listedProduct = z.object({ id: z.number().int(), updated_at: z.string() });
export type ListedProduct = z.infer<typeof listedProduct>;
