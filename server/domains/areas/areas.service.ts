import { createHash } from 'node:crypto';
import type { Locale } from '../../../i18n/locales';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../shared/errors';
import { getSiteSettings } from '../site-settings/site-settings.service';
import {
  loadChinaDivisions,
  loadCities,
  loadCountryNames,
  loadStates,
  loadSubdivisionChineseNames,
  type ChineseDivision,
  type ICity,
  type IState,
} from './area-sources';
import { englishNameOfChinesePlace, isChineseName, toSimplifiedChinese } from './chinese-names';
import type { AreaNode } from './areas.schemas';

/**
 * The country -> province/state -> city tree behind the address form's cascading select
 * (SPEC section 3 "Cascader options: id, a leaf flag, children"; `GET /v1/area/all`).
 *
 * Ids are stable strings built from public codes (docs/areas.md):
 * - country: ISO 3166-1 alpha-2, 'US'
 * - province/state: ISO 3166-2, 'US-CA', 'CN-GD', 'JP-13'
 * - city in mainland China: province id + GB/T 2260 code, 'CN-GD-440100'
 * - city elsewhere: state id + the @countrystatecity city id, 'US-CA-111001'
 *
 * The whole tree carries cities only for mainland China (about 450 prefecture-level
 * cities, municipality districts and province-administered counties). Elsewhere the
 * states are the tree's leaves and their city lists, which run to thousands per country,
 * are answered one state at a time by `getAreaChildren`.
 */

/** A node before the request's language picks `name`. */
export type BilingualArea = Omit<AreaNode, 'name' | 'children'> & { children?: BilingualArea[] };

export interface AreaAnswer {
  areas: AreaNode[];
  /** Strong HTTP entity tag of `areas`, quotes included. */
  etag: string;
}

const CHINA = 'CN';

/** Upper-cases, trims and de-duplicates the `country_list` setting, keeping its order. */
export function normalizeCountryList(countryList: unknown): string[] {
  if (!Array.isArray(countryList)) return [];
  const codes: string[] = [];
  for (const entry of countryList) {
    if (typeof entry !== 'string') continue;
    const code = entry.trim().toUpperCase();
    if (/^[A-Z]{2}$/.test(code) && !codes.includes(code)) codes.push(code);
  }
  return codes;
}

// ---------------------------------------------------------------- building

function byCode(a: { code: string }, b: { code: string }): number {
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

function stateChineseName(state: IState, fromIso3166: Map<string, string>): string {
  // A future @countrystatecity release may carry zh-CN state names (its upstream database
  // has them); they win when present. Until then iso3166-2-db, then English.
  const translated = state.translations?.['zh-CN'];
  if (translated) {
    const simplified = toSimplifiedChinese(translated);
    if (isChineseName(simplified)) return simplified;
  }
  return fromIso3166.get(state.iso2) ?? state.name;
}

function stateId(countryCode: string, state: IState): string {
  return `${countryCode}-${state.iso2}`;
}

/** The province's prefecture-level children, as a buyer picks a "city". */
function chineseCitiesOf(province: ChineseDivision): ChineseDivision[] {
  const { cities, areas } = loadChinaDivisions();
  const prefectures = cities.filter((city) => city.province === province.province);
  if (prefectures.length === 0) {
    // Municipalities (Beijing, Tianjin, Shanghai, Chongqing) have no prefecture level:
    // their districts and counties stand in. Hong Kong, Macao and Taiwan have none here.
    return areas.filter((area) => area.province === province.province).sort(byCode);
  }
  return prefectures
    .flatMap((prefecture) =>
      // "省直辖县级行政区划" is a grouping, not a city: its county-level cities
      // (e.g. 济源市, 仙桃市, 石河子市) are listed in its place.
      prefecture.name.includes('直辖')
        ? areas.filter((area) => area.province === prefecture.province && area.city === prefecture.city)
        : [prefecture],
    )
    .sort(byCode);
}

async function buildChina(countryNames: { en: string; zh: string }): Promise<BilingualArea> {
  const provinces = [...loadChinaDivisions().provinces].sort(byCode);
  const states = await loadStates(CHINA);
  // @countrystatecity names each province in Chinese too (`native`); its first two
  // characters tell the 34 provinces apart, which pairs its ISO code and English name with
  // the GB/T 2260 record.
  const stateByPrefix = new Map<string, IState>();
  for (const state of states) {
    const chinese = toSimplifiedChinese(state.native ?? '');
    if (isChineseName(chinese)) stateByPrefix.set(chinese.slice(0, 2), state);
  }
  const children: BilingualArea[] = provinces.map((province) => {
    const state = stateByPrefix.get(province.name.slice(0, 2));
    const id = state ? stateId(CHINA, state) : `${CHINA}-${province.province}`;
    const cities: BilingualArea[] = chineseCitiesOf(province).map((city) => ({
      id: `${id}-${city.code}`,
      code: city.code,
      name_en: englishNameOfChinesePlace(city.name),
      name_zh: city.name,
      leaf: true,
    }));
    return {
      id,
      code: state?.iso2 ?? province.province,
      name_en: state?.name ?? englishNameOfChinesePlace(province.name),
      name_zh: province.name,
      leaf: cities.length === 0,
      ...(cities.length > 0 ? { children: cities } : {}),
    };
  });
  return {
    id: CHINA,
    code: CHINA,
    name_en: countryNames.en,
    name_zh: countryNames.zh,
    leaf: children.length === 0,
    ...(children.length ? { children } : {}),
  };
}

async function buildCountry(code: string, countryNames: { en: string; zh: string }): Promise<BilingualArea> {
  if (code === CHINA) return buildChina(countryNames);
  const chineseNames = loadSubdivisionChineseNames(code);
  const children: BilingualArea[] = (await loadStates(code)).map((state) => ({
    id: stateId(code, state),
    code: state.iso2,
    name_en: state.name,
    name_zh: stateChineseName(state, chineseNames),
    leaf: true,
  }));
  return {
    id: code,
    code,
    name_en: countryNames.en,
    name_zh: countryNames.zh,
    leaf: children.length === 0,
    ...(children.length ? { children } : {}),
  };
}

/**
 * The bilingual tree for a list of ISO country codes, in the list's order. Codes no data
 * package knows are skipped. Cached per list for the life of the process.
 */
export function buildAreaTree(countryList: readonly string[]): Promise<BilingualArea[]> {
  const codes = normalizeCountryList([...countryList]);
  const key = codes.join(',');
  let tree = bilingualTrees.get(key);
  if (!tree) {
    tree = (async () => {
      const names = await loadCountryNames();
      const countries: BilingualArea[] = [];
      for (const code of codes) {
        const countryNames = names.get(code);
        if (countryNames) countries.push(await buildCountry(code, countryNames));
      }
      return countries;
    })();
    remember(bilingualTrees, key, tree, 8);
    tree.catch(() => bilingualTrees.delete(key));
  }
  return tree;
}

// ---------------------------------------------------------------- caches

const bilingualTrees = new Map<string, Promise<BilingualArea[]>>();
const localizedTrees = new Map<string, AreaAnswer>();
/** City lists of single states (outside China), the most recently used first out last. */
const stateCities = new Map<string, Promise<BilingualArea[]>>();
/** Per country (outside China): how many cities each state has. */
const cityCounts = new Map<string, Promise<Map<string, number>>>();

function remember<V>(cache: Map<string, V>, key: string, value: V, limit: number): void {
  cache.delete(key);
  cache.set(key, value);
  while (cache.size > limit) cache.delete(cache.keys().next().value as string);
}

// ---------------------------------------------------------------- answers

export function localizeAreas(nodes: readonly BilingualArea[], locale: Locale): AreaNode[] {
  return nodes.map((node) => {
    const { children, ...rest } = node;
    const localized: AreaNode = { ...rest, name: locale === 'en' ? node.name_en : node.name_zh };
    if (children) localized.children = localizeAreas(children, locale);
    return localized;
  });
}

function answer(areas: AreaNode[]): AreaAnswer {
  const digest = createHash('sha1').update(JSON.stringify(areas)).digest('base64url');
  return { areas, etag: `"${digest}"` };
}

/**
 * `GET /v1/area/all`: every country of the `country_list` site setting with its
 * provinces/states (and, for mainland China, cities), names in the request's language
 * plus both `name_en` and `name_zh`.
 */
export async function getAreaTree(ctx: AppContext, input: { locale: Locale }): Promise<AreaAnswer> {
  const codes = normalizeCountryList((await getSiteSettings(ctx)).country_list);
  const key = `${codes.join(',')}|${input.locale}`;
  const cached = localizedTrees.get(key);
  if (cached) return cached;
  const result = answer(localizeAreas(await buildAreaTree(codes), input.locale));
  remember(localizedTrees, key, result, 16);
  return result;
}

function cityNode(parentId: string, city: ICity): BilingualArea {
  const translated = city.translations?.['zh-CN'] ? toSimplifiedChinese(city.translations['zh-CN']) : undefined;
  return {
    id: `${parentId}-${city.id}`,
    code: String(city.id),
    name_en: city.name,
    // No maintained package has Chinese names for these cities yet: English stands in
    // unless a future @countrystatecity release brings zh-CN translations.
    name_zh: isChineseName(translated) ? translated : city.name,
    leaf: true,
  };
}

function citiesOfState(countryCode: string, state: BilingualArea): Promise<BilingualArea[]> {
  let cities = stateCities.get(state.id);
  if (!cities) {
    cities = loadCities(countryCode, state.code).then((list) => list.map((city) => cityNode(state.id, city)));
    cities.catch(() => stateCities.delete(state.id));
  }
  remember(stateCities, state.id, cities, 64);
  return cities;
}

function cityCountsOf(countryCode: string, states: readonly BilingualArea[]): Promise<Map<string, number>> {
  let counts = cityCounts.get(countryCode);
  if (!counts) {
    counts = (async () => {
      const result = new Map<string, number>();
      for (const state of states) result.set(state.id, (await loadCities(countryCode, state.code)).length);
      return result;
    })();
    cityCounts.set(countryCode, counts);
    counts.catch(() => cityCounts.delete(countryCode));
  }
  return counts;
}

function withoutChildren(node: BilingualArea): BilingualArea {
  const { children: _children, ...rest } = node;
  return rest;
}

/**
 * `GET /v1/area/all?parent_id=...`: one level below a country or a province/state, for a
 * lazily loading cascader. Unlike the whole tree, a state outside China here is a leaf
 * only when it has no cities, and its `parent_id` answer lists all of them (English
 * names). Children come without their own `children`: ask again one level down.
 */
export async function getAreaChildren(
  ctx: AppContext,
  input: { parentId: string; locale: Locale },
): Promise<AreaAnswer> {
  const codes = normalizeCountryList((await getSiteSettings(ctx)).country_list);
  const [countryCode = ''] = input.parentId.split('-');
  if (!codes.includes(countryCode)) throw new NotFoundError();
  const country = (await buildAreaTree(codes)).find((node) => node.id === countryCode);
  if (!country) throw new NotFoundError();

  let children: BilingualArea[];
  if (input.parentId === country.id) {
    const states = country.children ?? [];
    if (countryCode === CHINA) {
      children = states.map(withoutChildren);
    } else {
      const counts = await cityCountsOf(countryCode, states);
      children = states.map((state) => ({ ...state, leaf: (counts.get(state.id) ?? 0) === 0 }));
    }
  } else {
    const state = country.children?.find((node) => node.id === input.parentId);
    if (!state) throw new NotFoundError();
    children = countryCode === CHINA ? (state.children ?? []) : await citiesOfState(countryCode, state);
  }
  return answer(localizeAreas(children, input.locale));
}
