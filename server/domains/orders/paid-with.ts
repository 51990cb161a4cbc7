import { and, eq, sql } from 'drizzle-orm';
import { translate, type Locale } from '../../../i18n';
import { payments } from '../../db/schema';
import type { AppContext } from '../../context';
import { preparedPerDatabase } from '../../db/prepared';
import { formatPrice, type Currency } from '../../shared/money';
import type { PaymentMethodName } from '../../shared/payment-methods';
import type { PaidWithView } from './orders.schemas';
import { inListedIds } from '../../db/listed-ids';

/** What the gateway took for an order: its method, and the amount in the currency it charged (ADR 0144). */
export interface PaidWith {
  method: PaymentMethodName;
  chargedAmountMinor: number;
  chargedCurrency: Currency;
}

/**
 * The payment that paid `order`, or null while it is unpaid. The order keeps that payment's id
 * (the payments domain records it in the paying transaction); anything else there (an order
 * marked paid by hand in a test or an import) has no charge to show.
 */
export async function paymentThatPaid(
  ctx: AppContext,
  order: { id: number; paymentId: string | null },
): Promise<PaidWith | null> {
  const id = paymentIdOf(order);
  if (id === null) return null;
  const [row] = await paymentOfOrder(ctx.db).execute({ id, orderId: order.id });
  return row ?? null;
}

/** The payment id an order keeps, when it is one the payments table can hold. */
function paymentIdOf(order: { paymentId: string | null }): number | null {
  const id = Number(order.paymentId);
  return order.paymentId && Number.isSafeInteger(id) ? id : null;
}

/** `paymentThatPaid` for many orders in one statement: by order id, the paid ones only. */
export async function paymentsThatPaid(
  ctx: AppContext,
  orders: ReadonlyArray<{ id: number; paymentId: string | null }>,
): Promise<Map<number, PaidWith>> {
  const ids = [...new Set(orders.map(paymentIdOf).filter((id) => id !== null))];
  const paid = new Map<number, PaidWith>();
  if (ids.length === 0) return paid;
  const byId = new Map((await paymentsByIds(ctx.db).execute({ ids })).map((row) => [row.id, row]));
  for (const order of orders) {
    const id = paymentIdOf(order);
    const row = id === null ? undefined : byId.get(id);
    // As `paymentThatPaid`: only the order the payment was for shows it.
    if (row?.orderId === order.id)
      paid.set(order.id, {
        method: row.method,
        chargedAmountMinor: row.chargedAmountMinor,
        chargedCurrency: row.chargedCurrency,
      });
  }
  return paid;
}

const paymentsByIds = preparedPerDatabase((db) =>
  db
    .select({
      id: payments.id,
      orderId: payments.orderId,
      method: payments.method,
      chargedAmountMinor: payments.chargedAmountMinor,
      chargedCurrency: payments.chargedCurrency,
    })
    .from(payments)
    .where(inListedIds(payments.id, sql`${sql.placeholder('ids')}`))
    .prepare('payments_by_ids'),
);

const paymentOfOrder = preparedPerDatabase((db) =>
  db
    .select({
      method: payments.method,
      chargedAmountMinor: payments.chargedAmountMinor,
      chargedCurrency: payments.chargedCurrency,
    })
    .from(payments)
    .where(and(eq(payments.id, sql.placeholder('id')), eq(payments.orderId, sql.placeholder('orderId'))))
    .limit(1)
    .prepare('payment_of_order'),
);

export function paidWithView(paid: PaidWith, locale: Locale): PaidWithView {
  return {
    method: paid.method,
    method_name: translate(locale, `pay.method.${paid.method}.name`),
    charged_amount_minor: paid.chargedAmountMinor,
    charged_currency: paid.chargedCurrency,
    charged_text: formatPrice(
      { amountMinor: paid.chargedAmountMinor, currency: paid.chargedCurrency },
      'symbol',
      locale,
    ),
  };
}
