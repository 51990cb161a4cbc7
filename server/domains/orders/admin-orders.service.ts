import { and, asc, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Locale } from '../../../i18n';
import { orders, refunds, users } from '../../db/schema';
import type { AppContext } from '../../context';
import { isCurrency, type Currency } from '../../shared/money';
import type { AdminOrderExportQuery, AdminOrderListQuery, AdminOrderPage, AdminOrderRow } from './admin-orders.schemas';
import { orderStatusText, payStatusText } from './orders.service';
import { unitsOrdered } from './order-units';

/**
 * The console's order list and its CSV export (the detail is in admin-order-detail.service.ts).
 * Paged on the server; every filter leads with a column of one of the list indexes
 * (orders_created_idx, orders_status_created_idx, orders_pay_status_created_idx,
 * orders_country_created_idx), so a filtered page reads an index range, not the table.
 */

/** The export stops here: a bigger one is a reporting job, not a download. */
export const ADMIN_ORDER_EXPORT_MAX = 10_000;

const countryOf = sql<string>`(${orders.address}->>'country_code')`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/**
 * The search box: a number of eight digits or more is an order number (the unique index
 * answers it); text with an @ is the start of a buyer's email (the buyers matched first, then
 * their orders by orders_user_created_idx); anything else is also looked for in contact names,
 * which reads every order the other filters leave, so pair it with a date range on a big shop.
 */
function searchOf(q: string): SQL | undefined {
  if (/^\d{8,}$/.test(q)) return eq(orders.orderNo, q);
  const buyers = sql`${orders.userId} in (select ${users.id} from ${users} where ${users.email} ilike ${`${escapeLike(q.toLowerCase())}%`})`;
  if (q.includes('@')) return buyers;
  return or(eq(orders.orderNo, q), buyers, sql`(${orders.address}->>'contact_name') ilike ${`%${escapeLike(q)}%`}`);
}

function filtersOf(query: AdminOrderExportQuery): SQL | undefined {
  const conditions: Array<SQL | undefined> = [];
  if (query.status !== undefined) conditions.push(eq(orders.status, query.status));
  if (query.pay_status !== undefined) conditions.push(eq(orders.payStatus, query.pay_status));
  if (query.from) conditions.push(gte(orders.createdAt, dayStart(query.from)));
  if (query.to) conditions.push(lt(orders.createdAt, new Date(dayStart(query.to).getTime() + 86_400_000)));
  if (query.country) conditions.push(sql`${countryOf} = ${query.country}`);
  if (query.q) conditions.push(searchOf(query.q.trim()));
  return and(...conditions);
}

function orderingOf(query: AdminOrderExportQuery): SQL[] {
  const direction = query.dir === 'asc' ? asc : desc;
  switch (query.sort) {
    case 'total':
      return [direction(orders.totalMinor), direction(orders.id)];
    case 'status':
      return [direction(orders.status), desc(orders.createdAt), desc(orders.id)];
    default:
      return [direction(orders.createdAt), direction(orders.id)];
  }
}

/** The columns a list row needs: counts and sums come from correlated subqueries on indexed foreign keys. */
const rowColumns = {
  id: orders.id,
  orderNo: orders.orderNo,
  status: orders.status,
  payStatus: orders.payStatus,
  createdAt: orders.createdAt,
  paidAt: orders.paidAt,
  email: users.email,
  contactName: sql<string>`(${orders.address}->>'contact_name')`,
  countryCode: countryOf,
  totalMinor: orders.totalMinor,
  currency: orders.currency,
  itemCount: unitsOrdered,
  refundedMinor:
    sql<number>`(select coalesce(sum(${refunds.amountMinor}), 0) from ${refunds} where ${refunds.orderId} = ${orders.id} and ${refunds.status} = 'succeeded')`.mapWith(
      Number,
    ),
};

type ListRow = Awaited<ReturnType<typeof selectRows>>[number];

function settlementCurrency(code: string): Currency {
  return isCurrency(code) ? code : 'CNY';
}

function rowView(row: ListRow, locale: Locale): AdminOrderRow {
  return {
    id: row.id,
    order_no: row.orderNo,
    status: row.status,
    status_text: orderStatusText(locale, row.status),
    pay_status: row.payStatus,
    pay_status_text: payStatusText(locale, row.payStatus),
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    buyer_email: row.email,
    contact_name: row.contactName ?? '',
    country_code: row.countryCode ?? '',
    item_count: row.itemCount,
    total_minor: row.totalMinor,
    refunded_minor: row.refundedMinor,
    currency: settlementCurrency(row.currency),
  };
}

function selectRows(ctx: Pick<AppContext, 'db'>, query: AdminOrderExportQuery) {
  return ctx.db
    .select(rowColumns)
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(filtersOf(query))
    .orderBy(...orderingOf(query));
}

/** The page and the count of a list request, unrun (bench/console.mjs EXPLAINs them). */
export function adminOrderListQueries(ctx: Pick<AppContext, 'db'>, query: AdminOrderListQuery) {
  return {
    page: selectRows(ctx, query)
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    count: ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(filtersOf(query)),
  };
}

/** `GET /v1/admin/orders`: one page of the filtered, sorted list and how many match. */
export async function listAdminOrders(
  ctx: AppContext & { locale: Locale },
  query: AdminOrderListQuery,
): Promise<AdminOrderPage> {
  const queries = adminOrderListQueries(ctx, query);
  const [rows, counted] = await Promise.all([queries.page, queries.count]);
  return {
    records: rows.map((row) => rowView(row, ctx.locale)),
    total: counted[0]?.n ?? 0,
    page: query.page,
    page_size: query.page_size,
  };
}

/**
 * A spreadsheet program runs a cell that starts with = + - @ (or a tab or carriage return
 * that hides one) as a formula: such cells get a leading apostrophe (OWASP's CSV injection
 * advice), then any cell holding a comma, quote or line break is quoted.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const CSV_COLUMNS = [
  'order_no',
  'created_at',
  'status',
  'pay_status',
  'buyer_email',
  'contact_name',
  'country',
  'items',
  'total_minor',
  'refunded_minor',
  'currency',
] as const;

/**
 * `GET /v1/admin/orders/export`: the filtered list as CSV (RFC 4180, CRLF lines), at most
 * ADMIN_ORDER_EXPORT_MAX rows. Statuses are written as words in the member's language.
 */
export async function exportAdminOrdersCsv(
  ctx: AppContext & { locale: Locale },
  query: AdminOrderExportQuery,
): Promise<string> {
  const rows = await selectRows(ctx, query).limit(ADMIN_ORDER_EXPORT_MAX);
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const view = rowView(row, ctx.locale);
    lines.push(
      [
        view.order_no,
        view.created_at,
        view.status_text,
        view.pay_status_text,
        view.buyer_email,
        view.contact_name,
        view.country_code,
        view.item_count,
        view.total_minor,
        view.refunded_minor,
        view.currency,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
