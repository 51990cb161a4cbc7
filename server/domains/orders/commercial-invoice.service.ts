import { asc, eq } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n';
import { orderItems, orders } from '../../db/schema';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../shared/errors';
import { formatAmount, isCurrency } from '../../shared/money';
import { loadSkuCustoms } from '../catalog/sku-customs';
import { collectedAtSale, orderDuties } from '../duties/duties.service';
import { shareOut } from '../duties/duty-rules';
import { getSiteSettings } from '../site-settings/site-settings.service';
import type { CommercialInvoice } from './commercial-invoice.schemas';

/**
 * The commercial invoice of an order's parcel: what customs reads (HS code, origin, plain
 * description, value paid per line) and, where the parcel's VAT was collected at sale, the
 * shop's registration for it. HS code and origin come from the order's duty snapshot when it
 * has one, else from the catalogue as it is now.
 */
export async function getCommercialInvoice(
  ctx: AppContext & { locale: Locale },
  orderId: number,
): Promise<CommercialInvoice> {
  const [order] = await ctx.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new NotFoundError('order.notFound');
  const [items, duties, settings] = await Promise.all([
    ctx.db.select().from(orderItems).where(eq(orderItems.orderId, order.id)).orderBy(asc(orderItems.id)),
    orderDuties(ctx, [order.id]),
    getSiteSettings(ctx),
  ]);
  const customs = await loadSkuCustoms(
    ctx,
    items.map((item) => item.skuId),
  );
  const dutyLines = duties.get(order.id) ?? [];
  const currency = isCurrency(order.currency) ? order.currency : 'CNY';
  const text = (amountMinor: number) => formatAmount({ amountMinor, currency });
  const discounts = shareOut(
    order.discountMinor,
    items.map((item) => item.lineTotalMinor),
  );
  const registration = await collectedAtSale(ctx, dutyLines, order.goodsAmountMinor - order.discountMinor, currency);
  const number =
    registration === 'EU' ? ctx.env.IOSS_NUMBER : registration === 'GB' ? ctx.env.UK_VAT_NUMBER : undefined;
  const address = order.address;
  const locale = ctx.locale;
  const lines = items.map((item, index) => {
    const duty = dutyLines.find((line) => line.orderItemId === item.id);
    const facts = customs.get(item.skuId);
    const valueMinor = item.lineTotalMinor - discounts[index]!;
    return {
      sku_code: item.skuCode,
      description: facts?.customsDescription ?? pickText(item.productName, 'en'),
      hs_code: duty?.hsCode ?? facts?.hsCode ?? null,
      origin_country: duty?.originCountry ?? facts?.originCountry ?? null,
      quantity: item.quantity,
      unit_value_minor: Math.round(valueMinor / item.quantity),
      unit_value: text(Math.round(valueMinor / item.quantity)),
      value_minor: valueMinor,
      value: text(valueMinor),
      weight_grams: item.weightGrams * item.quantity,
    };
  });
  const goodsMinor = order.goodsAmountMinor - order.discountMinor;
  return {
    order_no: order.orderNo,
    invoice_date: order.createdAt.toISOString(),
    currency,
    exporter: { name: pickText(settings.shop_name, locale), address: ctx.env.AFTER_SALE_RETURN_ADDRESS },
    consignee: {
      name: address.contact_name,
      phone: address.contact_phone,
      address: [
        address.detail,
        pickText(address.city_name, locale),
        pickText(address.province_name, locale),
        address.postal_code,
      ]
        .filter(Boolean)
        .join(', '),
      country_code: address.country_code,
      country: pickText(address.country_name, locale),
    },
    incoterm: dutyLines[0]?.incoterm ?? null,
    registration: registration && number ? { scheme: registration === 'EU' ? 'IOSS' : 'UK VAT', number } : null,
    lines,
    goods_minor: goodsMinor,
    goods: text(goodsMinor),
    shipping_minor: order.shippingFeeMinor,
    shipping: text(order.shippingFeeMinor),
    duties_minor: order.dutiesMinor,
    duties: text(order.dutiesMinor),
    total_minor: order.totalMinor,
    total: text(order.totalMinor),
    weight_grams: lines.reduce((sum, line) => sum + line.weight_grams, 0),
  };
}
