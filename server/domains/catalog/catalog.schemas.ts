import { z } from 'zod';
import { singleLineText } from '../../shared/text';

export const PRODUCT_SORTS = ['newest', 'best_selling', 'price_asc', 'price_desc'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const MAX_PAGE_SIZE = 50;
export const MAX_KEYWORD_LENGTH = 100;

const optionalPositiveInt = z.coerce.number().int().min(1).max(2_147_483_647).optional();

/** `GET /v1/good/list` and the category and search pages: one schema for both doors. */
export const productListQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
    group_id: optionalPositiveInt,
    keyword: singleLineText(MAX_KEYWORD_LENGTH).optional(),
    /** Bounds in minor units of the settlement currency. */
    price_min: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
    price_max: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
    sort: z.enum(PRODUCT_SORTS).default('newest'),
  })
  .refine((query) => query.price_min === undefined || query.price_max === undefined || query.price_min <= query.price_max, {
    message: 'validation.priceRange',
    path: ['price_min'],
  });

export type ProductListQuery = z.infer<typeof productListQuery>;

export const idParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
