import { parseArgs } from 'node:util';
import { translate } from '../../i18n';
import {
  addTrackingEvent,
  listOrdersToShip,
  markDelivered,
  shipOrder,
} from '../domains/orders/order-operations.service';
import { CARRIERS } from '../domains/tracking/carriers';
import { setFinalSale } from '../domains/catalog/final-sale.service';
import { CLI_ACTOR } from '../domains/audit/audit.service';
import { emailField } from '../domains/customers/accounts.schemas';
import { issueSetupLink } from '../domains/staff/setup.service';
import { closeAppContext, openAppContext, StartupError } from '../runtime';
import type { AppContext } from '../context';
import { loadEnv } from '../shared/env';
import { AppError } from '../shared/errors';
import { createLogger } from '../shared/logger';
import { formatAmount, isCurrency } from '../shared/money';

/**
 * `npm run shop -- <command>`: the operator's order desk.
 *   orders:to-ship                                      paid orders waiting to ship
 *   orders:ship <id> --carrier <code> --tracking <no>   ship (10 -> 20), emails the buyer
 *   orders:track <id> --event "<text>" [--at <ISO>]     add a tracking event
 *   orders:deliver <id> [--at <ISO>]                    record delivery (status stays 20)
 *   carriers                                            carrier codes
 *   products:final-sale <id> on|off                     sold final: after-sales only for the shop's fault
 *   staff:create-owner --email <address>                a first-start setup link for that email
 */
const USAGE = `usage: npm run shop -- <command>
  orders:to-ship
  orders:ship <order id> --carrier <code> --tracking <number>
  orders:track <order id> --event "<text>" [--at <ISO time>]
  orders:deliver <order id> [--at <ISO time>]
  carriers
  products:final-sale <product id> on|off
  staff:create-owner --email <address>`;

export function formatTable(rows: Array<Record<string, string | number>>): string {
  if (rows.length === 0) return '(none)';
  const columns = Object.keys(rows[0] ?? {});
  const width = (column: string) => Math.max(column.length, ...rows.map((row) => String(row[column]).length));
  const widths = columns.map(width);
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map((row) => line(columns.map((column) => String(row[column])))),
  ].join('\n');
}

function orderId(value: string | undefined): number {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1) throw new UsageError('an order id (a positive whole number) is required');
  return id;
}

function time(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()))
    throw new UsageError(`--at must be a date and time, e.g. 2026-11-22T10:30:00Z (got "${value}")`);
  return at;
}

class UsageError extends Error {}

export async function runShopCommand(ctx: AppContext, argv: string[], out: (line: string) => void): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      carrier: { type: 'string' },
      tracking: { type: 'string' },
      event: { type: 'string' },
      at: { type: 'string' },
      email: { type: 'string' },
    },
  });
  const [command, id] = positionals;
  // Changes made from the command line are audited with the actor `cli`.
  const acting = { ...ctx, actor: CLI_ACTOR };
  switch (command) {
    case 'orders:to-ship': {
      const rows = await listOrdersToShip(ctx);
      out(
        formatTable(
          rows.map((row) => ({
            id: row.id,
            order_no: row.orderNo,
            paid_at: row.paidAt?.toISOString().slice(0, 16).replace('T', ' ') ?? '',
            country: row.country,
            contact: row.contact,
            items: row.items,
            total: `${formatAmount({ amountMinor: row.totalMinor, currency: isCurrency(row.currency) ? row.currency : 'CNY' })} ${row.currency}`,
          })),
        ),
      );
      out(`${rows.length} order(s) waiting to ship`);
      return;
    }
    case 'orders:ship': {
      if (!values.carrier || !values.tracking) throw new UsageError('--carrier and --tracking are required');
      const order = await shipOrder(acting, {
        orderId: orderId(id),
        carrierCode: values.carrier,
        trackingNo: values.tracking,
      });
      out(
        `order ${order.id} (${order.orderNo}) shipped with ${order.carrierCode}, tracking ${order.trackingNo}; status ${order.status}`,
      );
      return;
    }
    case 'orders:track': {
      if (!values.event) throw new UsageError('--event "<text>" is required');
      await addTrackingEvent(acting, { orderId: orderId(id), description: values.event, at: time(values.at) });
      out(`tracking event added to order ${id}`);
      return;
    }
    case 'orders:deliver': {
      const order = await markDelivered(acting, { orderId: orderId(id), at: time(values.at) });
      out(
        `order ${order.id} delivered at ${order.deliveredAt?.toISOString()}; status stays ${order.status} until the buyer confirms (or the auto-confirm sweep)`,
      );
      return;
    }
    case 'carriers':
      out(
        formatTable(
          CARRIERS.map((carrier) => ({ code: carrier.code, en: carrier.name.en, zh: carrier.name['zh-cn'] })),
        ),
      );
      return;
    case 'products:final-sale': {
      const setting = positionals[2];
      if (setting !== 'on' && setting !== 'off') throw new UsageError('say on or off after the product id');
      const productId = Number(id);
      if (!Number.isInteger(productId) || productId < 1)
        throw new UsageError('a product id (a positive whole number) is required');
      await setFinalSale(acting, { productId, finalSale: setting === 'on' });
      out(
        `product ${productId} is ${setting === 'on' ? 'sold final: returns only for damaged, wrong or not as described' : 'returnable as usual'}`,
      );
      return;
    }
    case 'staff:create-owner': {
      const email = emailField.safeParse(values.email ?? '');
      if (!email.success) throw new UsageError('--email <address> is required');
      const link = await issueSetupLink({ ...ctx, actor: CLI_ACTOR }, { email: email.data });
      out(`setup link for ${email.data} (valid until ${link.expiresAt.toISOString()}, single use):`);
      out(link.url);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main(): Promise<void> {
  const env = loadEnv({ LOG_LEVEL: 'warn', ...process.env });
  const log = createLogger(env);
  let ctx: AppContext;
  try {
    ctx = await openAppContext(env, log);
  } catch (error) {
    console.error(error instanceof StartupError ? error.message : error);
    process.exit(1);
  }
  let status = 0;
  try {
    await runShopCommand(ctx, process.argv.slice(2), (line) => console.log(line));
  } catch (error) {
    status = error instanceof UsageError ? 2 : 1;
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof AppError) console.error(translate('en', error.messageKey, error.params));
    else console.error(error);
  } finally {
    await closeAppContext(ctx);
  }
  process.exit(status);
}

if (process.argv[1] && /shop\.(ts|js)$/.test(process.argv[1])) await main();
