import { eq, inArray } from 'drizzle-orm';
import { exchangeRates, staffMembers } from '../../db/schema';
import type { ActingContext, AppContext } from '../../context';
import { BadRequestError } from '../../shared/errors';
import { bumpContentVersion, keptUntilContentChanges } from '../../shared/content-version';
import { CURRENCIES, RATE_SCALE, rateText, type Currency } from '../../shared/money';
import { recordAudit } from '../audit/audit.service';
import {
  RATE_TEXT,
  type ExchangeRateBody,
  type ExchangeRatesView,
  type ExchangeRateView,
} from './exchange-rates.schemas';
import { DEMO_RATE_MICROS, DEMO_RATES_AS_OF, DEMO_RATES_BASE } from './demo-rates';

/*
 * The shop's exchange rates with their time and source (ADR 0144). Every process keeps them
 * in memory until the content version moves; setting one bumps it, which retires the cached
 * pages that show converted prices.
 */

export type ExchangeRate = typeof exchangeRates.$inferSelect;

/** No currency is worth a millionth of another, nor a million of it: anything outside is a typo. */
const MAX_RATE_MICROS = 1_000_000 * Number(RATE_SCALE);
/** A new rate more than twice or less than half the current one is refused as a likely slip (x100, a swapped pair). */
const MAX_STEP = 2;

const keptRates = keptUntilContentChanges(async (ctx): Promise<ExchangeRate[]> => ctx.db.select().from(exchangeRates));

/** Every stored rate, from memory. */
export function storedExchangeRates(ctx: AppContext): Promise<ExchangeRate[]> {
  return keptRates.read(ctx);
}

/**
 * Units of each currency per one settlement unit, as conversion wants them: the settlement
 * currency is 1; a currency without a stored rate keeps `fallback`'s.
 */
export function rateValues(
  rows: readonly ExchangeRate[],
  settlement: Currency,
  fallback: Record<Currency, number>,
): Record<Currency, number> {
  const values = { ...fallback };
  for (const row of rows) values[row.currency] = row.rateMicros / Number(RATE_SCALE);
  values[settlement] = 1;
  return values;
}

/** Whether a rate is older than EXCHANGE_RATE_MAX_AGE_HOURS. */
export function isStale(ctx: Pick<AppContext, 'env'>, rate: Pick<ExchangeRate, 'setAt'>, now = new Date()): boolean {
  return now.getTime() - rate.setAt.getTime() > ctx.env.EXCHANGE_RATE_MAX_AGE_HOURS * 3_600_000;
}

/**
 * Whether buyers may be charged in `currency`: the settlement currency always; another only
 * while its rate is fresh (ADR 0144: a stale rate still converts the prices shown, marked
 * approximate, but the money moves in the settlement currency).
 */
export async function chargeableInDisplay(ctx: AppContext, currency: Currency, settlement: Currency): Promise<boolean> {
  if (currency === settlement) return true;
  const rate = (await storedExchangeRates(ctx)).find((row) => row.currency === currency);
  return rate !== undefined && !isStale(ctx, rate);
}

/** "21.37" -> 21_370_000 with string arithmetic only. */
export function rateMicrosOf(text: string): number {
  if (!RATE_TEXT.test(text)) return NaN;
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * Number(RATE_SCALE) + Number(fraction.padEnd(6, '0'));
}

function viewOf(ctx: AppContext, row: ExchangeRate, now: Date): ExchangeRateView {
  return {
    currency: row.currency,
    rate: rateText(row.rateMicros),
    rate_micros: row.rateMicros,
    source: row.source,
    set_at: row.setAt.toISOString(),
    set_by: row.setBy,
    stale: isStale(ctx, row, now),
  };
}

/** `GET /v1/admin/exchange-rates`: every display currency but the settlement one, in the picker's order. */
export async function listExchangeRates(ctx: AppContext, settlement: Currency): Promise<ExchangeRatesView> {
  const rows = await ctx.db.select().from(exchangeRates);
  const staffIds = rows.map((row) => Number(row.setBy)).filter((id) => Number.isSafeInteger(id));
  const members = staffIds.length
    ? await ctx.db
        .select({ id: staffMembers.id, email: staffMembers.email })
        .from(staffMembers)
        .where(inArray(staffMembers.id, staffIds))
    : [];
  const emails = new Map(members.map((member) => [String(member.id), member.email]));
  const now = new Date();
  const byCurrency = new Map(rows.map((row) => [row.currency, row]));
  return {
    settlement_currency: settlement,
    max_age_hours: ctx.env.EXCHANGE_RATE_MAX_AGE_HOURS,
    rates: CURRENCIES.filter((code) => code !== settlement).flatMap((code) => {
      const row = byCurrency.get(code);
      return row ? [{ ...viewOf(ctx, row, now), set_by: emails.get(row.setBy) ?? row.setBy }] : [];
    }),
  };
}

/**
 * `PUT /v1/admin/exchange-rates/:currency`: sets one rate with its source, now, by the member
 * (audited before/after), and retires every cached page so prices follow at once.
 */
export async function setExchangeRate(
  ctx: ActingContext,
  input: ExchangeRateBody & { currency: Currency; settlement: Currency },
): Promise<ExchangeRateView> {
  if (input.currency === input.settlement)
    throw new BadRequestError('exchangeRate.settlement', { currency: input.currency });
  const rateMicros = rateMicrosOf(input.rate);
  if (!(rateMicros > 0) || rateMicros > MAX_RATE_MICROS) throw new BadRequestError('exchangeRate.outOfBounds');
  const setBy = ctx.actor.id === null ? ctx.actor.label : String(ctx.actor.id);
  const saved = await ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(exchangeRates)
      .where(eq(exchangeRates.currency, input.currency))
      .for('update');
    // A currency's first rate is checked against the demo rate buyers were shown until now.
    const current =
      before?.rateMicros ??
      (input.settlement === DEMO_RATES_BASE && input.currency !== DEMO_RATES_BASE
        ? DEMO_RATE_MICROS[input.currency]
        : undefined);
    if (current !== undefined && (rateMicros > current * MAX_STEP || rateMicros * MAX_STEP < current))
      throw new BadRequestError('exchangeRate.tooFar', {
        current: rateText(current),
        currency: input.currency,
      });
    const values = { rateMicros, source: input.source, setAt: new Date(), setBy };
    const [row] = await tx
      .insert(exchangeRates)
      .values({ currency: input.currency, ...values })
      .onConflictDoUpdate({ target: exchangeRates.currency, set: values })
      .returning();
    await recordAudit(
      { ...ctx, db: tx },
      {
        action: 'exchangeRate.set',
        entityType: 'exchange_rate',
        entityId: input.currency,
        before: before ? { rate: rateText(before.rateMicros), source: before.source } : null,
        after: { rate: rateText(rateMicros), source: input.source },
      },
    );
    return row!;
  });
  keptRates.forget();
  await bumpContentVersion(ctx);
  return viewOf(ctx, saved, new Date());
}

/**
 * Writes the demo rates that are not stored yet (source 'seed'), dated when they were true, so
 * they go stale like any unattended rate; never overwrites an operator's rate.
 */
export async function seedExchangeRates(ctx: AppContext): Promise<void> {
  await ctx.db
    .insert(exchangeRates)
    .values(
      Object.entries(DEMO_RATE_MICROS).map(([currency, rateMicros]) => ({
        currency: currency as Currency,
        rateMicros,
        source: 'seed',
        setAt: DEMO_RATES_AS_OF,
        setBy: 'seed',
      })),
    )
    .onConflictDoNothing();
  keptRates.forget();
}
