import { dutyRates, dutyTerms, importRegimes } from '../../db/schema';
import type { Database } from '../../db/client';

type RegimeSeed = Omit<typeof importRegimes.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
type RateSeed = Omit<typeof dutyRates.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
type TermsSeed = Omit<typeof dutyTerms.$inferInsert, 'updatedAt'>;

/** Every seeded figure is a starting point: the operator checks it against the source before relying on it. */
const CHECK = 'Starting point, check before relying on it:';
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const vat = { en: 'VAT', 'zh-cn': '增值税' };
const gst = { en: 'GST', 'zh-cn': '商品及服务税' };

const EU_IOSS = `${CHECK} EU VAT e-commerce package (Council Directive 2017/2455): consignments of intrinsic value up to EUR 150 pay VAT at sale through IOSS and no customs duty (Regulation 2021/1934 relief).`;
const EU_FLAT = `${CHECK} EU Council agreement of 12 Dec 2025: from 1 Jul 2026 the EUR 150 duty relief ends for IOSS parcels; a flat EUR 3 customs duty per distinct tariff subheading in the parcel applies until the EU customs data hub (planned 2028).`;
const CARRIER_FEE_EU =
  'clearance fee over EUR 150: a typical carrier disbursement fee (Deutsche Post/DHL Paket: EUR 6); use your carrier’s tariff';

/** The EU countries the shop ships to share the rules and the tariff; only the VAT rate differs. */
function euRegimes(countryCode: string, vatRateBps: number, vatSource: string): RegimeSeed[] {
  const common = {
    countryCode,
    dutyZone: 'EU',
    currency: 'EUR',
    lowValueThresholdMinor: 150_00,
    lowValueTax: 'at_sale' as const,
    taxLabel: vat,
    taxRateBps: vatRateBps,
    handlingFeeMinor: 6_00,
    shippingIsDutiable: true,
  };
  return [
    {
      ...common,
      validFrom: day('2021-07-01'),
      validTo: day('2026-07-01'),
      lowValueDuty: 'exempt',
      source: `${EU_IOSS} ${vatSource}; ${CARRIER_FEE_EU}.`,
    },
    {
      ...common,
      validFrom: day('2026-07-01'),
      validTo: null,
      lowValueDuty: 'flat_per_subheading',
      flatDutyPerSubheadingMinor: 3_00,
      source: `${EU_FLAT} ${vatSource}; ${CARRIER_FEE_EU}.`,
    },
  ];
}

export const DEMO_IMPORT_REGIMES: RegimeSeed[] = [
  ...euRegimes('DE', 19_00, 'Germany standard VAT 19% (UStG §12)'),
  ...euRegimes('FR', 20_00, 'France standard VAT 20% (CGI art. 278)'),
  {
    countryCode: 'GB',
    dutyZone: 'GB',
    validFrom: day('2021-01-01'),
    currency: 'GBP',
    lowValueThresholdMinor: 135_00,
    lowValueTax: 'at_sale',
    lowValueDuty: 'exempt',
    taxLabel: vat,
    taxRateBps: 20_00,
    handlingFeeMinor: 8_00,
    shippingIsDutiable: true,
    source: `${CHECK} gov.uk "VAT and overseas goods sold directly to customers in the UK": goods up to GBP 135 carry UK VAT 20% charged by the seller at sale and no customs duty (relief to be abolished by March 2029); above it import VAT and duty at the border; Royal Mail handling fee GBP 8.`,
  },
  {
    countryCode: 'AU',
    dutyZone: 'AU',
    validFrom: day('2018-07-01'),
    currency: 'AUD',
    fallbackRateMicros: 211_000,
    lowValueThresholdMinor: 1_000_00,
    lowValueTax: 'at_sale',
    lowValueDuty: 'exempt',
    taxLabel: gst,
    taxRateBps: 10_00,
    handlingFeeMinor: 50_00,
    shippingIsDutiable: true,
    source: `${CHECK} ato.gov.au GST on low value imported goods: 10% GST collected at sale on goods up to AUD 1,000 (vendors with AUD 75,000 Australian turnover); above it duty and GST on the value of the taxable importation (includes transport) at the border, plus the ABF import processing charge (about AUD 50). AUD rate 0.211 per CNY used only while the shop has no AUD exchange rate.`,
  },
  {
    countryCode: 'US',
    dutyZone: 'US',
    validFrom: day('2016-03-10'),
    validTo: day('2025-08-29'),
    currency: 'USD',
    lowValueThresholdMinor: 800_00,
    lowValueTax: 'exempt',
    lowValueDuty: 'exempt',
    taxLabel: { en: 'Import tax', 'zh-cn': '进口税' },
    taxRateBps: 0,
    handlingFeeMinor: 0,
    shippingIsDutiable: false,
    source: `${CHECK} 19 U.S.C. 1321 as raised by the Trade Facilitation and Trade Enforcement Act 2015: USD 800 de minimis.`,
  },
  {
    countryCode: 'US',
    dutyZone: 'US',
    validFrom: day('2025-08-29'),
    currency: 'USD',
    lowValueThresholdMinor: 0,
    lowValueTax: 'exempt',
    lowValueDuty: 'by_hs',
    taxLabel: { en: 'Import tax', 'zh-cn': '进口税' },
    taxRateBps: 0,
    handlingFeeMinor: 5_00,
    shippingIsDutiable: false,
    source: `${CHECK} Executive Order 14324: de minimis suspended for all countries from 29 Aug 2025 (repealed in law from 1 Jul 2027); every parcel pays duty by HTS code on its FOB value; no federal import VAT; USD 5 covers the informal-entry merchandise processing fee and the carrier's clearance (check your carrier).`,
  },
  {
    countryCode: 'CA',
    dutyZone: 'CA',
    validFrom: day('2013-01-01'),
    currency: 'CAD',
    fallbackRateMicros: 192_000,
    lowValueThresholdMinor: 20_00,
    lowValueTax: 'exempt',
    lowValueDuty: 'exempt',
    taxLabel: gst,
    taxRateBps: 5_00,
    handlingFeeMinor: 9_95,
    shippingIsDutiable: false,
    source: `${CHECK} CBSA Customs Notice 20-18: goods from China by post or courier are free of duty and tax only up to CAD 20; above it duty by tariff item and 5% GST (HST provinces charge more) at the border; Canada Post handling fee CAD 9.95. CAD rate 0.192 per CNY used only while the shop has no CAD exchange rate.`,
  },
  {
    countryCode: 'JP',
    dutyZone: 'JP',
    validFrom: day('2019-10-01'),
    currency: 'JPY',
    lowValueThresholdMinor: 10_000,
    lowValueTax: 'exempt',
    lowValueDuty: 'exempt',
    taxLabel: { en: 'Consumption tax', 'zh-cn': '消费税' },
    taxRateBps: 10_00,
    handlingFeeMinor: 200,
    valuationBps: 60_00,
    shippingIsDutiable: true,
    source: `${CHECK} Japan Customs (customs.go.jp, personal imports): goods for personal use are valued at 60% of the overseas retail price; a total taxable value up to JPY 10,000 is free of duty and consumption tax; above it simplified duty rates and 10% consumption tax; Japan Post customs clearance fee JPY 200.`,
  },
  {
    countryCode: 'SG',
    dutyZone: 'SG',
    validFrom: day('2024-01-01'),
    currency: 'SGD',
    fallbackRateMicros: 182_000,
    lowValueThresholdMinor: 400_00,
    lowValueTax: 'at_sale',
    lowValueDuty: 'exempt',
    taxLabel: gst,
    taxRateBps: 9_00,
    handlingFeeMinor: 0,
    shippingIsDutiable: true,
    source: `${CHECK} IRAS overseas vendor registration: 9% GST collected at sale on low-value goods up to SGD 400; above it GST at the border; Singapore charges no customs duty on these goods. SGD rate 0.182 per CNY used only while the shop has no SGD exchange rate.`,
  },
  {
    countryCode: 'MY',
    dutyZone: 'MY',
    validFrom: day('2024-01-01'),
    currency: 'MYR',
    fallbackRateMicros: 611_000,
    lowValueThresholdMinor: 500_00,
    lowValueTax: 'at_sale',
    lowValueDuty: 'exempt',
    taxLabel: { en: 'Sales tax', 'zh-cn': '销售税' },
    taxRateBps: 10_00,
    handlingFeeMinor: 0,
    shippingIsDutiable: true,
    source: `${CHECK} Royal Malaysian Customs, Sales Tax (Low Value Goods) 2024: 10% sales tax collected at sale on goods up to MYR 500; above it duty and sales tax at the border. MYR rate 0.611 per CNY used only while the shop has no MYR exchange rate.`,
  },
];

const rate = (
  dutyZone: string,
  measure: string,
  hsPrefix: string,
  rateBps: number,
  source: string,
  options: { originCountry?: string; validFrom?: string; validTo?: string } = {},
): RateSeed => ({
  dutyZone,
  measure,
  hsPrefix,
  rateBps,
  originCountry: options.originCountry ?? null,
  validFrom: day(options.validFrom ?? '2022-01-01'),
  validTo: options.validTo ? day(options.validTo) : null,
  source: `${CHECK} ${source}`,
});

const TARIC = 'EU TARIC third-country duty (ec.europa.eu/taxation_customs/dds2/taric)';
const UKGT = 'UK Global Tariff (trade-tariff.service.gov.uk)';
const HTS = 'US HTSUS general rate (hts.usitc.gov)';
const S301 = 'USTR Section 301 tariffs on goods of Chinese origin (lists 1-4A)';
const CCT = 'Canadian Customs Tariff MFN rate (cbsa-asfc.gc.ca)';
const JCT = 'Japan simplified duty rates for personal imports up to JPY 200,000 (customs.go.jp)';
const AUT = 'Australian Customs Tariff general rate (abf.gov.au)';

/** Duty by HS prefix for the goods the demo shop sells; longest prefix wins within a measure. */
export const DEMO_DUTY_RATES: RateSeed[] = [
  rate('EU', 'cet', '61', 12_00, `${TARIC}: knitted apparel`),
  rate('EU', 'cet', '62', 12_00, `${TARIC}: woven apparel`),
  rate('EU', 'cet', '621410', 8_00, `${TARIC}: silk scarves`),
  rate('EU', 'cet', '63', 12_00, `${TARIC}: made-up textile articles`),
  rate('EU', 'cet', '630130', 7_50, `${TARIC}: cotton blankets`),
  rate('EU', 'cet', '6505', 2_70, `${TARIC}: hats`),
  rate('EU', 'cet', '4202', 3_00, `${TARIC}: bags with leather or textile surface`),
  rate('EU', 'cet', '420222', 3_70, `${TARIC}: handbags with textile surface`),
  rate('EU', 'cet', '48', 0, `${TARIC}: paper articles`),
  rate('EU', 'cet', '49', 0, `${TARIC}: printed matter`),
  rate('EU', 'cet', '9608', 3_70, `${TARIC}: pens`),
  rate('EU', 'cet', '9405', 3_70, `${TARIC}: lamps`),
  rate('EU', 'cet', '3406', 0, `${TARIC}: candles`),
  rate('EU', 'cet', '3307', 6_50, `${TARIC}: room perfuming preparations`),
  rate('EU', 'cet', '4602', 4_00, `${TARIC}: basketwork`),
  rate('EU', 'cet', '6912', 5_00, `${TARIC}: ceramic tableware other than porcelain`),
  rate('EU', 'cet', '6913', 6_00, `${TARIC}: ceramic ornaments`),
  rate('EU', 'cet', '6914', 4_00, `${TARIC}: other ceramic articles`),
  rate('EU', 'cet', '090210', 3_20, `${TARIC}: green tea in packs up to 3 kg`),
  rate('EU', 'cet', '090230', 0, `${TARIC}: black tea in packs up to 3 kg`),
  rate('EU', 'cet', '7013', 11_00, `${TARIC}: glassware`),

  rate('GB', 'ukgt', '61', 12_00, `${UKGT}: knitted apparel`),
  rate('GB', 'ukgt', '62', 12_00, `${UKGT}: woven apparel`),
  rate('GB', 'ukgt', '621410', 8_00, `${UKGT}: silk scarves`),
  rate('GB', 'ukgt', '63', 12_00, `${UKGT}: made-up textile articles`),
  rate('GB', 'ukgt', '65', 2_00, `${UKGT}: hats`),
  rate('GB', 'ukgt', '42', 2_00, `${UKGT}: bags`),
  rate('GB', 'ukgt', '48', 0, `${UKGT}: paper articles`),
  rate('GB', 'ukgt', '49', 0, `${UKGT}: printed matter`),
  rate('GB', 'ukgt', '69', 4_00, `${UKGT}: ceramics`),
  rate('GB', 'ukgt', '0902', 0, `${UKGT}: tea`),
  rate('GB', 'ukgt', '7013', 6_00, `${UKGT}: glassware`),

  rate('US', 'mfn', '6109', 16_50, `${HTS}: cotton T-shirts`),
  rate('US', 'mfn', '6110', 16_00, `${HTS}: sweaters`),
  rate('US', 'mfn', '6115', 13_50, `${HTS}: socks`),
  rate('US', 'mfn', '62', 19_70, `${HTS}: woven shirts`),
  rate('US', 'mfn', '6214', 1_20, `${HTS}: silk scarves`),
  rate('US', 'mfn', '63', 6_00, `${HTS}: made-up textile articles`),
  rate('US', 'mfn', '6505', 7_00, `${HTS}: hats`),
  rate('US', 'mfn', '4202', 17_60, `${HTS}: bags with textile surface`),
  rate('US', 'mfn', '420221', 9_00, `${HTS}: leather handbags`),
  rate('US', 'mfn', '420231', 8_00, `${HTS}: leather wallets`),
  rate('US', 'mfn', '48', 0, `${HTS}: paper articles`),
  rate('US', 'mfn', '49', 0, `${HTS}: printed matter`),
  rate('US', 'mfn', '9405', 3_90, `${HTS}: lamps`),
  rate('US', 'mfn', '6912', 9_80, `${HTS}: ceramic tableware`),
  rate('US', 'mfn', '6913', 6_00, `${HTS}: ceramic ornaments`),
  rate('US', 'mfn', '090210', 6_40, `${HTS}: green tea`),
  rate('US', 'mfn', '090230', 0, `${HTS}: black tea`),
  rate('US', 'mfn', '7013', 7_20, `${HTS}: glassware`),
  rate('US', 'section_301', '61', 7_50, `${S301}: apparel, list 4A`, { originCountry: 'CN', validFrom: '2020-02-14' }),
  rate('US', 'section_301', '62', 7_50, `${S301}: apparel, list 4A`, { originCountry: 'CN', validFrom: '2020-02-14' }),
  rate('US', 'section_301', '42', 25_00, `${S301}: bags, list 3`, { originCountry: 'CN', validFrom: '2019-05-10' }),
  rate('US', 'section_301', '69', 25_00, `${S301}: ceramics, list 3`, { originCountry: 'CN', validFrom: '2019-05-10' }),
  rate('US', 'section_301', '0902', 25_00, `${S301}: tea, list 3`, { originCountry: 'CN', validFrom: '2019-05-10' }),
  rate(
    'US',
    'section_122',
    '',
    10_00,
    'Section 122 balance-of-payments surcharge after the IEEPA tariffs were struck down (150-day limit)',
    { validFrom: '2026-02-24', validTo: '2026-07-24' },
  ),

  rate('CA', 'mfn', '61', 18_00, `${CCT}: knitted apparel`),
  rate('CA', 'mfn', '62', 18_00, `${CCT}: woven apparel`),
  rate('CA', 'mfn', '63', 17_00, `${CCT}: made-up textile articles`),
  rate('CA', 'mfn', '65', 15_50, `${CCT}: hats`),
  rate('CA', 'mfn', '42', 8_00, `${CCT}: bags`),
  rate('CA', 'mfn', '69', 7_00, `${CCT}: ceramics`),
  rate('CA', 'mfn', '0902', 0, `${CCT}: tea`),

  rate('JP', 'simplified', '61', 10_00, `${JCT}: clothing`),
  rate('JP', 'simplified', '62', 10_00, `${JCT}: clothing`),
  rate('JP', 'simplified', '42', 8_00, `${JCT}: bags`),
  rate('JP', 'simplified', '0902', 15_00, `${JCT}: tea`),
  rate('JP', 'simplified', '69', 0, `${JCT}: ceramics`),

  rate('AU', 'general', '', 5_00, `${AUT}: most goods`),
  rate(
    'AU',
    'general',
    '',
    0,
    `China-Australia Free Trade Agreement preference for goods of Chinese origin (abf.gov.au ChAFTA)`,
    {
      originCountry: 'CN',
      validFrom: '2019-01-01',
    },
  ),
];

/**
 * The demo shop's choice: duties paid at checkout where the shop must collect VAT/GST anyway
 * and for the US, where surprise charges at the door are most common; estimates elsewhere.
 */
export const DEMO_DUTY_TERMS: TermsSeed[] = [
  { countryCode: 'DE', incoterm: 'DDP' },
  { countryCode: 'FR', incoterm: 'DDP' },
  { countryCode: 'GB', incoterm: 'DDP' },
  { countryCode: 'AU', incoterm: 'DDP' },
  { countryCode: 'US', incoterm: 'DDP' },
  { countryCode: 'SG', incoterm: 'DDP' },
  { countryCode: 'MY', incoterm: 'DDP' },
  { countryCode: 'CA', incoterm: 'DDU' },
  { countryCode: 'JP', incoterm: 'DDU' },
  { countryCode: '*', incoterm: 'DDU' },
];

/** Writes the demo import rules that are missing; never overwrites an operator's change. */
export async function seedImportRules(db: Database): Promise<void> {
  await db.insert(importRegimes).values(DEMO_IMPORT_REGIMES).onConflictDoNothing();
  await db.insert(dutyRates).values(DEMO_DUTY_RATES).onConflictDoNothing();
  await db.insert(dutyTerms).values(DEMO_DUTY_TERMS).onConflictDoNothing();
}
