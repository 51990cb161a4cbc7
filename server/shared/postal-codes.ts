import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';

/**
 * The one postal-code rule, used by the address schema (so the API, the address form and the
 * OpenAPI document agree) and by checkout for addresses saved before the rule existed.
 * Formats come from postcode-validator (about 190 countries); a country it does not know is
 * taken to have no postal codes (Hong Kong, Macao, the UAE, Qatar...), where the field stays
 * optional. docs/decisions/0118-postal-codes-by-country.md
 */

/**
 * A real postal code of each country we name in messages, so "Enter a 5-digit postal code,
 * e.g. 10115" tells the buyer the shape; the default `country_list` and common destinations.
 * A country missing here gets the plain "Please enter a valid postal code".
 */
const EXAMPLES: Record<string, string> = {
  AT: '1010',
  AU: '2000',
  BE: '1000',
  BR: '01310-100',
  CA: 'K1A 0B1',
  CH: '8001',
  CN: '100000',
  DE: '10115',
  DK: '1050',
  ES: '28013',
  FR: '75001',
  GB: 'SW1A 1AA',
  IE: 'D02 X285',
  IN: '110001',
  IT: '00184',
  JP: '100-0001',
  KR: '03187',
  MX: '06000',
  MY: '50050',
  NL: '1012 JS',
  NO: '0150',
  NZ: '6011',
  PL: '00-950',
  PT: '1100-148',
  SE: '11455',
  SG: '018956',
  TH: '10200',
  TW: '100',
  US: '94103',
};

/**
 * How the post writes codes a buyer may type without their space or hyphen; `compact` has
 * neither. Elsewhere the compact form is kept where the country's pattern allows it.
 */
const CANONICAL: Record<string, (compact: string) => string> = {
  GB: (compact) => `${compact.slice(0, -3)} ${compact.slice(-3)}`,
  CA: (compact) => `${compact.slice(0, 3)} ${compact.slice(3)}`,
  IE: (compact) => `${compact.slice(0, 3)} ${compact.slice(3)}`,
  NL: (compact) => `${compact.slice(0, 4)} ${compact.slice(4)}`,
  JP: (compact) => `${compact.slice(0, 3)}-${compact.slice(3)}`,
  US: (compact) => (compact.length === 9 ? `${compact.slice(0, 5)}-${compact.slice(5)}` : compact),
};

/** Where a country has no pattern of its own: what a postal code anywhere may hold. */
const ANY_POSTAL_CODE = /^[A-Z0-9][A-Z0-9 -]*$/;

export type PostalCodeCheck =
  | { ok: true; postalCode: string }
  | { ok: false; message: PostalCodeMessage; params: { example?: string; digits?: number } };

type PostalCodeMessage =
  'address.postalCodeDigits' | 'address.postalCodeLike' | 'address.postalCodeInvalid' | 'address.postalCodeRequired';

function hasPattern(countryCode: string): boolean {
  return /^[A-Z]{2}$/.test(countryCode) && postcodeValidatorExistsForCountry(countryCode);
}

/** Whether an address in this country needs a postal code (a few patterns allow none). */
export function postalCodeRequired(countryCode: string): boolean {
  return hasPattern(countryCode) && !postcodeValidator('', countryCode);
}

/** The sentence that names the expected shape, for a code that is missing or wrong. */
function refusal(countryCode: string, missing: boolean): PostalCodeCheck & { ok: false } {
  const example = EXAMPLES[countryCode];
  if (!example)
    return { ok: false, message: missing ? 'address.postalCodeRequired' : 'address.postalCodeInvalid', params: {} };
  if (/^\d+$/.test(example))
    return { ok: false, message: 'address.postalCodeDigits', params: { digits: example.length, example } };
  return { ok: false, message: 'address.postalCodeLike', params: { example } };
}

/**
 * Checks a typed postal code against the country's format and answers it as the post writes
 * it: full-width characters folded (NFKC), upper case, single spaces, and the country's own
 * space or hyphen where the buyer left it out ("sw1a1aa" is "SW1A 1AA", "1000001" in Japan
 * "100-0001").
 */
export function checkPostalCode(countryCode: string, typed: string | undefined): PostalCodeCheck {
  const spaced = (typed ?? '').normalize('NFKC').toUpperCase().replace(/\s+/g, ' ').trim();
  if (!spaced) return postalCodeRequired(countryCode) ? refusal(countryCode, true) : { ok: true, postalCode: '' };
  if (!hasPattern(countryCode))
    return ANY_POSTAL_CODE.test(spaced) ? { ok: true, postalCode: spaced } : refusal(countryCode, false);
  const compact = spaced.replace(/[ -]/g, '');
  const canonical = CANONICAL[countryCode]?.(compact);
  const candidates = canonical ? [canonical, compact, spaced] : [compact, spaced];
  const postalCode = candidates.find((candidate) => postcodeValidator(candidate, countryCode));
  return postalCode ? { ok: true, postalCode } : refusal(countryCode, false);
}
