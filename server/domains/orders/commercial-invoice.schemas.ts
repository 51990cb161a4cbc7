import { z } from 'zod';
import { currencyCode } from '../../shared/money.schemas';

/**
 * `GET /v1/admin/orders/{id}/commercial-invoice`: what the parcel's commercial invoice says
 * (docs/console.md). Amounts are settlement minor units with their text.
 */
export const commercialInvoice = z.object({
  order_no: z.string(),
  invoice_date: z.string(),
  currency: currencyCode,
  exporter: z.object({ name: z.string(), address: z.string() }),
  consignee: z.object({
    name: z.string(),
    phone: z.string(),
    address: z.string(),
    country_code: z.string(),
    country: z.string(),
  }),
  incoterm: z.enum(['DDP', 'DDU']).nullable().describe('null for a domestic parcel'),
  registration: z
    .object({ scheme: z.enum(['IOSS', 'UK VAT']), number: z.string() })
    .nullable()
    .describe("the shop's IOSS or UK VAT number when the parcel's VAT was collected at sale and the number is set"),
  lines: z.array(
    z.object({
      sku_code: z.string(),
      description: z.string().describe('the customs description, else the product name'),
      hs_code: z.string().nullable(),
      origin_country: z.string().nullable(),
      quantity: z.number().int(),
      unit_value_minor: z.number().int(),
      unit_value: z.string(),
      value_minor: z
        .number()
        .int()
        .describe('what the buyer paid for the line: its total less its share of the discount'),
      value: z.string(),
      weight_grams: z.number().int(),
    }),
  ),
  goods_minor: z.number().int(),
  goods: z.string(),
  shipping_minor: z.number().int(),
  shipping: z.string(),
  duties_minor: z.number().int(),
  duties: z.string(),
  total_minor: z.number().int(),
  total: z.string(),
  weight_grams: z.number().int(),
});
export type CommercialInvoice = z.infer<typeof commercialInvoice>;
