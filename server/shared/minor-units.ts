/**
 * ISO 4217 minor units (digits after the decimal point) of every currency the shop shows or
 * any of its gateways may be asked to charge. Gateways take amounts in these units (Stripe's
 * `amount`, PayPal's `value`, Alipay's `total_amount`), so a wrong entry charges 100x or 1/100.
 * Source: ISO 4217 list one (SIX), checked against Stripe's zero-decimal and three-decimal lists.
 */
const MINOR_UNIT_GROUPS: ReadonlyArray<readonly [digits: number, codes: string]> = [
  [0, 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'],
  [3, 'BHD IQD JOD KWD LYD OMR TND'],
  // Two decimals, the usual case, listed so that an unknown code is an error rather than a guess.
  [
    2,
    'AED AUD BGN BRL CAD CHF CNY CZK DKK EUR GBP HKD HUF IDR ILS INR MXN MYR NOK NZD PHP PLN RON SAR SEK SGD THB TRY TWD USD ZAR',
  ],
];
export const ISO_MINOR_UNITS: Readonly<Record<string, number>> = Object.fromEntries(
  MINOR_UNIT_GROUPS.flatMap(([digits, codes]) => codes.split(' ').map((code) => [code, digits])),
);

/** The ISO 4217 minor unit of `code`; throws for a code not in the table (never guesses 2). */
export function minorDigitsOf(code: string): number {
  const digits = ISO_MINOR_UNITS[code];
  if (digits === undefined) throw new RangeError(`no ISO 4217 minor unit known for ${code}`);
  return digits;
}
