import { describe, expect, it } from 'vitest';
import { dutiesFor, dutyRateBps, minorDigits, shareOut, type ImportRules, type Parcel } from './duty-rules';
import { DEMO_DUTY_RATES, DEMO_DUTY_TERMS, DEMO_IMPORT_REGIMES } from './import-rules.seed';

/** The seeded rules as the database would answer them. */
function seededRules(terms: ImportRules['terms'] = DEMO_DUTY_TERMS): ImportRules {
  const stamps = { createdAt: new Date(0), updatedAt: new Date(0) };
  return {
    regimes: DEMO_IMPORT_REGIMES.map((row, index) => ({
      fallbackRateMicros: null,
      validTo: null,
      flatDutyPerSubheadingMinor: 0,
      handlingFeeMinor: 0,
      valuationBps: 10_000,
      ...row,
      ...stamps,
      id: index + 1,
    })),
    rates: DEMO_DUTY_RATES.map((row, index) => ({
      originCountry: null,
      validTo: null,
      ...row,
      ...stamps,
      id: index + 1,
    })),
    terms,
  };
}

const at = (iso: string) => new Date(`${iso}T12:00:00Z`);
const TEE = { hsCode: '610910', originCountry: 'CN' };
const MUG = { hsCode: '691200', originCountry: 'CN' };
const CROSSBODY = { hsCode: '420221', originCountry: 'CN' };
const SWEATER = { hsCode: '611011', originCountry: 'CN' };
const GREEN_TEA = { hsCode: '090210', originCountry: 'CN' };

/** A parcel priced in the destination's own currency, so the worked figures need no conversion. */
function parcelIn(currency: string, destination: string, shippingMinor: number, lines: Parcel['lines']): Parcel {
  return { destination, lines, shippingMinor, settlementCurrency: currency, exchangeRates: { [currency]: 1 } };
}

describe('dutiesFor: EU (Germany)', () => {
  // T-shirt EUR 100 + mug EUR 40 = EUR 140 of goods, EUR 10 shipping.
  const parcel = parcelIn('EUR', 'DE', 10_00, [
    { key: 1, ...TEE, valueMinor: 100_00 },
    { key: 2, ...MUG, valueMinor: 40_00 },
  ]);

  it('EUR 140 from 1 July 2026: VAT at sale under IOSS plus EUR 3 for each of the two subheadings', () => {
    const quote = dutiesFor(parcel, seededRules(), at('2026-07-15'))!;
    // Shipping EUR 10 shared 100:40 -> 7.14 + 2.86; customs values 107.14 and 42.86.
    // Duty: EUR 3.00 per subheading (610910, 691200).
    // VAT 19%: (107.14 + 3.00) x 0.19 = 20.93; (42.86 + 3.00) x 0.19 = 8.71.
    expect(quote.lowValue).toBe(true);
    expect(quote.incoterm).toBe('DDP');
    expect(quote.currency).toBe('EUR');
    expect(quote.lines.map((line) => [line.customsValueMinor, line.dutyMinor, line.taxMinor, line.feeMinor])).toEqual([
      [107_14, 3_00, 20_93, 0],
      [42_86, 3_00, 8_71, 0],
    ]);
    expect(quote.lines.map((line) => line.chargedMinor)).toEqual([23_93, 11_71]);
    expect(quote.chargedMinor).toBe(35_64);
    expect(quote.estimateMinor).toBe(0);
  });

  it('EUR 140 before 1 July 2026: VAT at sale and no duty', () => {
    const quote = dutiesFor(parcel, seededRules(), at('2026-06-30'))!;
    // 107.14 x 0.19 = 20.36; 42.86 x 0.19 = 8.14.
    expect(quote.lines.map((line) => [line.dutyMinor, line.taxMinor])).toEqual([
      [0, 20_36],
      [0, 8_14],
    ]);
    expect(quote.chargedMinor).toBe(28_50);
  });

  it('two lines of one subheading pay the flat EUR 3 once, shared by value', () => {
    const quote = dutiesFor(
      parcelIn('EUR', 'DE', 0, [
        { key: 1, ...TEE, valueMinor: 30_00 },
        { key: 2, ...TEE, valueMinor: 60_00 },
      ]),
      seededRules(),
      at('2026-07-15'),
    )!;
    expect(quote.lines.map((line) => line.dutyMinor)).toEqual([1_00, 2_00]);
  });

  it('EUR 160 (over EUR 150): duty by HS code, import VAT on value plus duty, and the handling fee', () => {
    const quote = dutiesFor(
      parcelIn('EUR', 'DE', 10_00, [{ key: 1, ...CROSSBODY, valueMinor: 160_00 }]),
      seededRules(),
      at('2026-07-15'),
    )!;
    // Customs value 160 + 10 = 170.00; duty 3% (4202) = 5.10; VAT 19% of 175.10 = 33.27; fee 6.00.
    expect(quote.lowValue).toBe(false);
    expect(quote.lines).toEqual([
      expect.objectContaining({
        customsValueMinor: 170_00,
        dutyRateBps: 3_00,
        dutyMinor: 5_10,
        taxRateBps: 19_00,
        taxMinor: 33_27,
        feeMinor: 6_00,
        chargedMinor: 44_37,
        estimateMinor: 0,
      }),
    ]);
  });

  it('France uses the same threshold with its own 20% VAT', () => {
    const quote = dutiesFor(
      parcelIn('EUR', 'FR', 0, [{ key: 1, ...TEE, valueMinor: 50_00 }]),
      seededRules(),
      at('2026-06-01'),
    )!;
    expect(quote.lines[0]!.taxMinor).toBe(10_00);
  });
});

describe('dutiesFor: UK', () => {
  const parcel = parcelIn('GBP', 'GB', 8_00, [{ key: 1, ...SWEATER, valueMinor: 120_00 }]);

  it('GBP 120: 20% VAT on goods and shipping charged at sale, no duty', () => {
    const quote = dutiesFor(parcel, seededRules(), at('2026-11-27'))!;
    // (120 + 8) x 0.20 = 25.60.
    expect(quote.lowValue).toBe(true);
    expect(quote.lines[0]).toEqual(
      expect.objectContaining({ customsValueMinor: 128_00, dutyMinor: 0, taxMinor: 25_60, chargedMinor: 25_60 }),
    );
  });

  it('VAT the law makes the seller collect is charged even when the shop chose DDU', () => {
    const quote = dutiesFor(parcel, seededRules([{ countryCode: 'GB', incoterm: 'DDU' }]), at('2026-11-27'))!;
    expect(quote.incoterm).toBe('DDU');
    expect(quote.chargedMinor).toBe(25_60);
    expect(quote.estimateMinor).toBe(0);
  });

  it('GBP 150 under DDU: duty, VAT and the handling fee are an estimate payable on delivery', () => {
    const quote = dutiesFor(
      parcelIn('GBP', 'GB', 0, [{ key: 1, ...SWEATER, valueMinor: 150_00 }]),
      seededRules([{ countryCode: 'GB', incoterm: 'DDU' }]),
      at('2026-11-27'),
    )!;
    // Duty 12% of 150 = 18.00; VAT 20% of 168 = 33.60; fee 8.00: 59.60.
    expect(quote.chargedMinor).toBe(0);
    expect(quote.estimateMinor).toBe(59_60);
  });
});

describe('dutiesFor: US', () => {
  // T-shirt USD 30 and green tea USD 20, USD 15 shipping (not dutiable: FOB).
  const parcel = parcelIn('USD', 'US', 15_00, [
    { key: 1, ...TEE, valueMinor: 30_00 },
    { key: 2, ...GREEN_TEA, valueMinor: 20_00 },
  ]);

  it('no de minimis since 29 August 2025: MFN plus Section 301 by HS code, and the entry fee', () => {
    const quote = dutiesFor(parcel, seededRules(), at('2026-11-27'))!;
    // Tee: 16.5% + 7.5% = 24% of 30.00 = 7.20. Tea: 6.4% + 25% = 31.4% of 20.00 = 6.28.
    // Fee USD 5 shared 30:20 = 3.00 + 2.00.
    expect(quote.lowValue).toBe(false);
    expect(
      quote.lines.map((line) => [line.customsValueMinor, line.dutyRateBps, line.dutyMinor, line.feeMinor]),
    ).toEqual([
      [30_00, 24_00, 7_20, 3_00],
      [20_00, 31_40, 6_28, 2_00],
    ]);
    expect(quote.chargedMinor).toBe(18_48);
  });

  it('the Section 122 surcharge adds 10% while it was in force', () => {
    const quote = dutiesFor(parcel, seededRules(), at('2026-05-01'))!;
    // Tee 34% of 30.00 = 10.20; tea 41.4% of 20.00 = 8.28; + 5.00.
    expect(quote.lines.map((line) => line.dutyMinor)).toEqual([10_20, 8_28]);
    expect(quote.chargedMinor).toBe(23_48);
  });

  it('before 29 August 2025 the USD 800 de minimis left nothing to pay', () => {
    const quote = dutiesFor(parcel, seededRules(), at('2025-06-01'))!;
    expect(quote.lowValue).toBe(true);
    expect(quote.chargedMinor + quote.estimateMinor).toBe(0);
  });
});

describe('dutiesFor: Japan, from a CNY order (JPY has no minor unit)', () => {
  const rates = { CNY: 1, USD: 0.1389, EUR: 0.1302, JPY: 21.37, GBP: 0.1101 };
  const japan = (lines: Parcel['lines'], shippingMinor: number): Parcel => ({
    destination: 'JP',
    lines,
    shippingMinor,
    settlementCurrency: 'CNY',
    exchangeRates: rates,
  });

  it('CNY 1,680.00 of green tea: 60% valuation, duty and consumption tax estimated in yen, shown back in fen', () => {
    const quote = dutiesFor(
      japan([{ key: 1, ...GREEN_TEA, valueMinor: 1_680_00 }], 45_00),
      seededRules(),
      at('2026-11-27'),
    )!;
    // CNY 1,680.00 x 21.37 = JPY 35,902 (35,901.6); at 60% = 21,541 (21,541.2), over JPY 10,000.
    // Shipping CNY 45.00 = JPY 962 (961.65); customs value 22,503.
    // Duty 15% = 3,375 (3,375.45); tax 10% of 25,878 = 2,588 (2,587.8); fee 200: JPY 6,163.
    // JPY 6,163 / 21.37 = CNY 288.39 (288.3949).
    expect(quote.currency).toBe('JPY');
    expect(quote.rateMicros).toBe(21_370_000);
    expect(quote.incoterm).toBe('DDU');
    expect(quote.lines[0]).toEqual(
      expect.objectContaining({
        customsValueMinor: 22_503,
        dutyMinor: 3_375,
        taxMinor: 2_588,
        feeMinor: 200,
        chargedMinor: 0,
        estimateMinor: 288_39,
      }),
    );
  });

  it('CNY 298.00 is JPY 6,368, valued at JPY 3,821: within JPY 10,000, nothing is due', () => {
    const quote = dutiesFor(japan([{ key: 1, ...GREEN_TEA, valueMinor: 298_00 }], 0), seededRules(), at('2026-11-27'))!;
    expect(quote.lowValue).toBe(true);
    expect(quote.chargedMinor + quote.estimateMinor).toBe(0);
  });

  it('knows every currency’s minor digits', () => {
    expect([minorDigits('JPY'), minorDigits('KRW'), minorDigits('EUR'), minorDigits('AUD')]).toEqual([0, 0, 2, 2]);
  });
});

describe('dutiesFor: Australia and Canada', () => {
  it('Australia under AUD 1,000: 10% GST at sale, converted with the fallback rate while the shop has no AUD rate', () => {
    const quote = dutiesFor(
      {
        destination: 'AU',
        lines: [{ key: 1, ...SWEATER, valueMinor: 1_000_00 }],
        shippingMinor: 0,
        settlementCurrency: 'CNY',
        exchangeRates: { CNY: 1, USD: 0.1389 },
      },
      seededRules(),
      at('2026-11-27'),
    )!;
    // CNY 1,000.00 x 0.211 = AUD 211.00; GST 21.10 = CNY 100.00 (21.10 / 0.211).
    expect(quote.lines[0]).toEqual(
      expect.objectContaining({ customsValueMinor: 211_00, taxMinor: 21_10, chargedMinor: 100_00 }),
    );
  });

  it('Canada over CAD 20: duty and GST estimated (the shop chose DDU), with the Canada Post fee', () => {
    const quote = dutiesFor(
      parcelIn('CAD', 'CA', 10_00, [{ key: 1, ...TEE, valueMinor: 40_00 }]),
      seededRules(),
      at('2026-11-27'),
    )!;
    // FOB: duty 18% of 40.00 = 7.20; GST 5% of 47.20 = 2.36; fee 9.95: 19.51.
    expect(quote.chargedMinor).toBe(0);
    expect(quote.estimateMinor).toBe(19_51);
  });

  it('Canada up to CAD 20: nothing is due', () => {
    const quote = dutiesFor(
      parcelIn('CAD', 'CA', 0, [{ key: 1, ...TEE, valueMinor: 20_00 }]),
      seededRules(),
      at('2026-11-27'),
    )!;
    expect(quote.chargedMinor + quote.estimateMinor).toBe(0);
  });
});

describe('dutiesFor: what it does not price', () => {
  it('a line without an HS code falls back to DDU with the estimate hidden and nothing charged', () => {
    const quote = dutiesFor(
      parcelIn('EUR', 'DE', 0, [
        { key: 1, ...TEE, valueMinor: 100_00 },
        { key: 2, hsCode: null, originCountry: null, valueMinor: 40_00 },
      ]),
      seededRules(),
      at('2026-07-15'),
    )!;
    expect(quote).toEqual(
      expect.objectContaining({ incoterm: 'DDU', estimateHidden: true, chargedMinor: 0, estimateMinor: 0 }),
    );
  });

  it('a destination without import rules (domestic China) has no duties at all', () => {
    expect(
      dutiesFor(parcelIn('CNY', 'CN', 0, [{ key: 1, ...TEE, valueMinor: 100_00 }]), seededRules(), at('2026-07-15')),
    ).toBeNull();
  });
});

describe('dutyRateBps', () => {
  it('takes the longest prefix within a measure and prefers a row for the goods’ origin', () => {
    const rules = seededRules();
    expect(dutyRateBps(rules.rates, 'EU', '420222', 'CN', at('2026-11-27'))).toBe(3_70);
    expect(dutyRateBps(rules.rates, 'EU', '420292', 'CN', at('2026-11-27'))).toBe(3_00);
    expect(dutyRateBps(rules.rates, 'AU', '611011', 'CN', at('2026-11-27'))).toBe(0);
    expect(dutyRateBps(rules.rates, 'AU', '611011', 'VN', at('2026-11-27'))).toBe(5_00);
  });
});

describe('shareOut', () => {
  it('adds up exactly, the remainder to the largest fractions', () => {
    expect(shareOut(10_00, [100_00, 40_00])).toEqual([714, 286]);
    expect(shareOut(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(shareOut(5, [0, 0])).toEqual([5, 0]);
  });
});
