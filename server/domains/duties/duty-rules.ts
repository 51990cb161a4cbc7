import type { LocalizedText } from '../../../i18n/locales';
import type { dutyRates, dutyTerms, importRegimes } from '../../db/schema';
import { MINOR_DIGITS, RATE_SCALE, isCurrency, rateToScaled } from '../../shared/money';

export type ImportRegime = typeof importRegimes.$inferSelect;
export type DutyRate = typeof dutyRates.$inferSelect;
export type DutyTerms = typeof dutyTerms.$inferSelect;
export type Incoterm = DutyTerms['incoterm'];

/** Country code of the shop's DDP/DDU choice for every destination without its own. */
export const ANY_DESTINATION = '*';

/** The import rules of one destination as stored: its regimes over time, its tariff, and the shop's choice. */
export interface ImportRules {
  regimes: readonly ImportRegime[];
  rates: readonly DutyRate[];
  terms: readonly Pick<DutyTerms, 'countryCode' | 'incoterm'>[];
}

/** One order line as customs sees it; `valueMinor` is what the buyer pays for it, in settlement minor units. */
export interface DutiableLine {
  key: number;
  hsCode: string | null;
  originCountry: string | null;
  valueMinor: number;
}

export interface Parcel {
  destination: string;
  lines: readonly DutiableLine[];
  /** The shipping fee the buyer pays, in settlement minor units. */
  shippingMinor: number;
  settlementCurrency: string;
  /** The shop's exchange rates: units of each currency per settlement unit. */
  exchangeRates: Readonly<Record<string, number>>;
}

/** One line's duties and taxes: figures in the destination currency, the two sums in the settlement currency. */
export interface DutyLineQuote {
  key: number;
  hsCode: string | null;
  originCountry: string | null;
  customsValueMinor: number;
  dutyRateBps: number;
  dutyMinor: number;
  taxRateBps: number;
  taxMinor: number;
  feeMinor: number;
  /** Paid with the order (settlement minor units). */
  chargedMinor: number;
  /** Payable to the carrier on delivery (settlement minor units). */
  estimateMinor: number;
}

export interface DutyQuote {
  destination: string;
  incoterm: Incoterm;
  /** A line has no HS code: nothing is charged and no estimate is shown. */
  estimateHidden: boolean;
  /** The regime row and its start, e.g. 'DE#2@2026-07-01'; stored with the order. */
  rulesVersion: string;
  currency: string;
  /** Destination units per settlement unit, in millionths. */
  rateMicros: number;
  /** The parcel is within the destination's low-value threshold. */
  lowValue: boolean;
  taxLabel: LocalizedText;
  lines: DutyLineQuote[];
  /** Settlement minor units. */
  chargedMinor: number;
  estimateMinor: number;
}

/** Digits after the decimal point of any ISO 4217 currency (JPY and KRW have none). */
export function minorDigits(currency: string): number {
  if (isCurrency(currency)) return MINOR_DIGITS[currency];
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** `amount x numerator / denominator`, rounded half up, in integers. */
function scale(amount: bigint, numerator: bigint, denominator: bigint): number {
  return Number((amount * numerator * 2n + denominator) / (denominator * 2n));
}

/** Converts between currencies at `to` units per `from` unit = numerator / denominator, minding their minor digits. */
export function convertAt(
  amountMinor: number,
  from: string,
  to: string,
  numerator: bigint,
  denominator: bigint,
): number {
  const shift = minorDigits(to) - minorDigits(from);
  return scale(
    BigInt(amountMinor),
    numerator * 10n ** BigInt(Math.max(0, shift)),
    denominator * 10n ** BigInt(Math.max(0, -shift)),
  );
}

/** A percentage in basis points of an amount, rounded half up. */
const percentOf = (amountMinor: number, bps: number) => scale(BigInt(amountMinor), BigInt(bps), 10_000n);

/**
 * Shares `total` out in proportion to `weights`, the remainder one minor unit at a time to the
 * largest fractions (ties to the earlier), so the shares always add up to `total` exactly.
 */
export function shareOut(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((acc, weight) => acc + weight, 0);
  if (sum <= 0) return weights.map((_, index) => (index === 0 ? total : 0));
  const exact = weights.map((weight) => (total * weight) / sum);
  const shares = exact.map(Math.floor);
  let remainder = total - shares.reduce((acc, share) => acc + share, 0);
  const order = exact.map((value, index) => ({ index, fraction: value - Math.floor(value) }));
  order.sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (const { index } of order) {
    if (remainder <= 0) break;
    shares[index]! += 1;
    remainder -= 1;
  }
  return shares;
}

const inForce = (row: { validFrom: Date; validTo: Date | null }, at: Date) =>
  row.validFrom.getTime() <= at.getTime() && (row.validTo === null || at.getTime() < row.validTo.getTime());

/** The regime in force for a destination at a moment: the latest start that has begun and not ended. */
export function regimeAt(regimes: readonly ImportRegime[], destination: string, at: Date): ImportRegime | null {
  const candidates = regimes.filter((row) => row.countryCode === destination && inForce(row, at));
  candidates.sort((a, b) => b.validFrom.getTime() - a.validFrom.getTime());
  return candidates[0] ?? null;
}

/**
 * The duty rate of an HS code in a tariff: for each measure the most specific row (longest
 * prefix, then one limited to the goods' origin), and the measures added up.
 */
export function dutyRateBps(
  rates: readonly DutyRate[],
  zone: string,
  hsCode: string,
  originCountry: string | null,
  at: Date,
): number {
  const best = new Map<string, DutyRate>();
  for (const row of rates) {
    if (row.dutyZone !== zone || !inForce(row, at) || !hsCode.startsWith(row.hsPrefix)) continue;
    if (row.originCountry !== null && row.originCountry !== originCountry) continue;
    const current = best.get(row.measure);
    const moreSpecific =
      !current ||
      row.hsPrefix.length > current.hsPrefix.length ||
      (row.hsPrefix.length === current.hsPrefix.length && current.originCountry === null && row.originCountry !== null);
    if (moreSpecific) best.set(row.measure, row);
  }
  return [...best.values()].reduce((sum, row) => sum + row.rateBps, 0);
}

/** The shop's DDP/DDU choice for a destination. */
export function incotermFor(terms: ImportRules['terms'], destination: string): Incoterm {
  return (
    terms.find((row) => row.countryCode === destination)?.incoterm ??
    terms.find((row) => row.countryCode === ANY_DESTINATION)?.incoterm ??
    'DDU'
  );
}

/** Destination units per settlement unit (millionths): the shop's own rates first, else the regime's. */
function destinationRateMicros(parcel: Parcel, regime: ImportRegime): number | null {
  const toRate = parcel.exchangeRates[regime.currency];
  const fromRate = parcel.exchangeRates[parcel.settlementCurrency];
  if (regime.currency === parcel.settlementCurrency) return Number(RATE_SCALE);
  if (toRate && fromRate && toRate > 0 && fromRate > 0)
    return Number((rateToScaled(toRate) * RATE_SCALE) / rateToScaled(fromRate));
  return regime.fallbackRateMicros ?? null;
}

/**
 * The duties and import taxes of a parcel at a moment, per line, from the destination's
 * rules in force then. Amounts are worked out in the destination's currency (thresholds are
 * set in it) and each line's sums are converted back to the settlement currency.
 *
 * - Under the low-value threshold (goods value without shipping, at the customs valuation):
 *   the tax is collected with the sale (`at_sale`), not due (`exempt`) or due at the border;
 *   duty is none, a flat amount per distinct 6-digit subheading, or the ordinary rate.
 * - Over it: duty by HS code on the customs value, the tax on value plus duty, and the
 *   per-parcel handling fee.
 * - Tax collected at sale is always charged; the rest is charged under DDP and estimated
 *   under DDU. A line without an HS code hides the estimate and charges nothing.
 *
 * Null when the destination has no import rules (a domestic parcel).
 */
export function dutiesFor(parcel: Parcel, rules: ImportRules, at: Date): DutyQuote | null {
  const regime = regimeAt(rules.regimes, parcel.destination, at);
  if (!regime || parcel.lines.length === 0) return null;
  const rateMicros = destinationRateMicros(parcel, regime);
  const unclassified = parcel.lines.some((line) => !line.hsCode);
  const base = {
    destination: parcel.destination,
    rulesVersion: `${regime.countryCode}#${regime.id}@${regime.validFrom.toISOString().slice(0, 10)}`,
    currency: regime.currency,
    taxLabel: regime.taxLabel,
  };
  if (unclassified || rateMicros === null) {
    return {
      ...base,
      incoterm: 'DDU',
      estimateHidden: true,
      rateMicros: rateMicros ?? 0,
      lowValue: false,
      lines: parcel.lines.map((line) => ({
        key: line.key,
        hsCode: line.hsCode,
        originCountry: line.originCountry,
        customsValueMinor: 0,
        dutyRateBps: 0,
        dutyMinor: 0,
        taxRateBps: 0,
        taxMinor: 0,
        feeMinor: 0,
        chargedMinor: 0,
        estimateMinor: 0,
      })),
      chargedMinor: 0,
      estimateMinor: 0,
    };
  }

  const incoterm = incotermFor(rules.terms, parcel.destination);
  const toDestination = (minor: number) =>
    convertAt(minor, parcel.settlementCurrency, regime.currency, BigInt(rateMicros), RATE_SCALE);
  const toSettlement = (minor: number) =>
    convertAt(minor, regime.currency, parcel.settlementCurrency, RATE_SCALE, BigInt(rateMicros));

  const goods = parcel.lines.map((line) => percentOf(toDestination(line.valueMinor), regime.valuationBps));
  const goodsTotal = goods.reduce((sum, value) => sum + value, 0);
  const lowValue = regime.lowValueThresholdMinor > 0 && goodsTotal <= regime.lowValueThresholdMinor;
  const shipping = regime.shippingIsDutiable
    ? shareOut(toDestination(parcel.shippingMinor), goods)
    : goods.map(() => 0);
  const customsValues = goods.map((value, index) => value + shipping[index]!);

  const dutyMode = lowValue ? regime.lowValueDuty : 'by_hs';
  const rateBps = parcel.lines.map((line) =>
    dutyMode === 'by_hs' ? dutyRateBps(rules.rates, regime.dutyZone, line.hsCode!, line.originCountry, at) : 0,
  );
  const duties = customsValues.map((value, index) => percentOf(value, rateBps[index]!));
  if (dutyMode === 'flat_per_subheading') {
    const subheadings = new Map<string, number[]>();
    parcel.lines.forEach((line, index) => {
      const subheading = line.hsCode!.slice(0, 6);
      subheadings.set(subheading, [...(subheadings.get(subheading) ?? []), index]);
    });
    for (const indexes of subheadings.values()) {
      const shares = shareOut(
        regime.flatDutyPerSubheadingMinor,
        indexes.map((index) => customsValues[index]!),
      );
      indexes.forEach((index, n) => (duties[index] = shares[n]!));
    }
  }

  const taxMode = lowValue ? regime.lowValueTax : 'at_border';
  const taxRate = taxMode === 'exempt' ? 0 : regime.taxRateBps;
  const taxes = customsValues.map((value, index) => percentOf(value + duties[index]!, taxRate));
  const fees = lowValue ? goods.map(() => 0) : shareOut(regime.handlingFeeMinor, customsValues);

  const lines = parcel.lines.map((line, index): DutyLineQuote => {
    const duty = duties[index]!;
    const tax = taxes[index]!;
    const fee = fees[index]!;
    // VAT/GST the law makes the seller collect is paid with the order whatever the shop chose;
    // under the low-value rules the flat duty goes with it (collected by the same registration).
    const withSale = taxMode === 'at_sale' ? tax + duty : 0;
    const rest = duty + tax + fee - withSale;
    const charged = incoterm === 'DDP' ? withSale + rest : withSale;
    return {
      key: line.key,
      hsCode: line.hsCode,
      originCountry: line.originCountry,
      customsValueMinor: customsValues[index]!,
      dutyRateBps: rateBps[index]!,
      dutyMinor: duty,
      taxRateBps: taxRate,
      taxMinor: tax,
      feeMinor: fee,
      chargedMinor: toSettlement(charged),
      estimateMinor: toSettlement(duty + tax + fee - charged),
    };
  });
  return {
    ...base,
    incoterm,
    estimateHidden: false,
    rateMicros,
    lowValue,
    lines,
    chargedMinor: lines.reduce((sum, line) => sum + line.chargedMinor, 0),
    estimateMinor: lines.reduce((sum, line) => sum + line.estimateMinor, 0),
  };
}
