import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { NotFoundError } from '../../shared/errors';
import { DEFAULT_SITE_SETTINGS } from '../site-settings/site-settings.defaults';
import {
  buildAreaTree,
  getAreaChildren,
  getAreaTree,
  localizeAreas,
  normalizeCountryList,
  type BilingualArea,
} from './areas.service';
import type { AreaNode } from './areas.schemas';
import { englishNameOfChinesePlace, isChineseName, romanize } from './chinese-names';
import { createMemoryStore } from '../../shared/kv-store';

/**
 * A context whose database holds only a `country_list` row: getSiteSettings reads
 * `ctx.db.select().from(siteSettings)`, and a fresh db object per context defeats its
 * few-second cache, so each test sees its own setting.
 */
function contextWithCountries(countryList?: unknown): AppContext {
  const rows = countryList === undefined ? [] : [{ key: 'country_list', value: countryList }];
  return { db: { select: () => ({ from: async () => rows }) }, kv: createMemoryStore() } as unknown as AppContext;
}

function walk<T extends { children?: T[] }>(
  nodes: readonly T[],
  visit: (node: T, depth: number) => void,
  depth = 0,
): void {
  for (const node of nodes) {
    visit(node, depth);
    if (node.children) walk(node.children, visit, depth + 1);
  }
}

function find<T extends { id: string; children?: T[] }>(nodes: readonly T[], id: string): T {
  let found: T | undefined;
  walk(nodes, (node) => {
    if (node.id === id) found = node;
  });
  if (!found) throw new Error(`no node ${id}`);
  return found;
}

const DEFAULT_COUNTRIES = DEFAULT_SITE_SETTINGS.country_list;
let tree: BilingualArea[];

beforeAll(async () => {
  tree = await buildAreaTree(DEFAULT_COUNTRIES);
});

/** The place with this id in the built tree as `[code, English name, Chinese name, leaf]`, to compare in one line. */
function placeRow(id: string) {
  const { code, name_en, name_zh, leaf } = find(tree, id);
  return [code, name_en, name_zh, leaf];
}

describe('countries', () => {
  it('lists every configured country, in the setting order, with English and Chinese names', () => {
    expect(tree.map((country) => [country.id, country.code, country.name_en, country.name_zh])).toEqual([
      ['US', 'US', 'United States', '美国'],
      ['GB', 'GB', 'United Kingdom', '英国'],
      ['CA', 'CA', 'Canada', '加拿大'],
      ['AU', 'AU', 'Australia', '澳大利亚'],
      ['DE', 'DE', 'Germany', '德国'],
      ['FR', 'FR', 'France', '法国'],
      ['JP', 'JP', 'Japan', '日本'],
      ['SG', 'SG', 'Singapore', '新加坡'],
      ['MY', 'MY', 'Malaysia', '马来西亚'],
      ['CN', 'CN', 'China', '中国'],
    ]);
  });

  it('normalizes the setting: case, spaces, duplicates and junk', () => {
    expect(normalizeCountryList([' jp', 'CN', 'cn', 'USA', 7, null, 'de'])).toEqual(['JP', 'CN', 'DE']);
    expect(normalizeCountryList('US')).toEqual([]);
  });
});

describe('provinces and states', () => {
  it('has the US states with Chinese names', () => {
    const us = find(tree, 'US');
    expect(us.children!.length).toBeGreaterThanOrEqual(50);
    expect(placeRow('US-CA')).toEqual(['CA', 'California', '加利福尼亚州', true]);
    expect(find(tree, 'US-TX')).toMatchObject({ name_en: 'Texas', name_zh: '德克萨斯州' });
    // The source's Traditional characters come out Simplified (喬治亞州 -> 乔治亚州).
    expect(find(tree, 'US-GA').name_zh).toBe('乔治亚州');
    // Its zh entry for Illinois is not Chinese at all: English stands in.
    expect(find(tree, 'US-IL').name_zh).toBe('Illinois');
  });

  it('has the 47 Japanese prefectures in Simplified Chinese', () => {
    const jp = find(tree, 'JP');
    expect(jp.children).toHaveLength(47);
    expect(find(tree, 'JP-13').name_zh).toBe('东京都');
    expect(find(tree, 'JP-01').name_zh).toBe('北海道');
    expect(find(tree, 'JP-27').name_zh).toBe('大阪府');
    for (const prefecture of jp.children!) expect(isChineseName(prefecture.name_zh), prefecture.name_en).toBe(true);
  });

  it('has Chinese names for every state of Canada, Australia, Germany and Malaysia', () => {
    for (const code of ['CA', 'AU', 'DE', 'MY']) {
      for (const state of find(tree, code).children!) expect(isChineseName(state.name_zh), state.id).toBe(true);
    }
    expect(find(tree, 'DE-BY')).toMatchObject({ name_en: 'Bavaria', name_zh: '巴伐利亚' });
  });

  it('keeps one tier for France and the UK (departments, counties), not the regions/nations above them', () => {
    const frIds = find(tree, 'FR').children!.map((state) => state.id);
    expect(frIds).toContain('FR-75C');
    expect(frIds).toContain('FR-2A');
    expect(frIds).not.toContain('FR-IDF');
    const gbIds = find(tree, 'GB').children!.map((state) => state.id);
    expect(gbIds).toContain('GB-KEN');
    expect(gbIds).not.toContain('GB-ENG');
  });

  it('has the 34 provincial divisions of China in GB/T 2260 order with Chinese and English names', () => {
    const cn = find(tree, 'CN');
    expect(cn.children).toHaveLength(34);
    expect(cn.children![0]).toMatchObject({ id: 'CN-BJ', name_en: 'Beijing', name_zh: '北京市' });
    expect(placeRow('CN-GD')).toEqual(['GD', 'Guangdong', '广东省', false]);
    expect(find(tree, 'CN-XJ').name_zh).toBe('新疆维吾尔自治区');
    for (const province of cn.children!) expect(province.id).toMatch(/^CN-[A-Z]{2}$/);
  });
});

describe('cities of mainland China', () => {
  it('lists prefecture-level cities with GB/T 2260 codes', () => {
    expect(find(tree, 'CN-GD').children).toHaveLength(21);
    expect(placeRow('CN-GD-440100')).toEqual(['440100', 'Guangzhou', '广州市', true]);
    expect(find(tree, 'CN-GD-440300')).toMatchObject({ name_en: 'Shenzhen', name_zh: '深圳市' });
  });

  it('lists the districts of municipalities and the province-administered county-level cities', () => {
    expect(find(tree, 'CN-BJ-110105')).toMatchObject({ name_en: 'Chaoyang District', name_zh: '朝阳区' });
    expect(find(tree, 'CN-SH-310115')).toMatchObject({ name_en: 'Pudong New Area', name_zh: '浦东新区' });
    expect(find(tree, 'CN-HA-419001')).toMatchObject({ name_en: 'Jiyuan', name_zh: '济源市' });
    let groupings = 0;
    walk(tree, (node) => {
      if (node.name_zh.includes('直辖')) groupings++;
    });
    expect(groupings).toBe(0);
  });

  it('makes Hong Kong, Macao and Taiwan leaves (no paired bilingual district list exists)', () => {
    for (const id of ['CN-HK', 'CN-MO', 'CN-TW']) {
      expect(find(tree, id).leaf).toBe(true);
      expect(find(tree, id).children).toBeUndefined();
    }
  });

  it('has Chinese names everywhere and readable English names', () => {
    walk(find(tree, 'CN').children!, (node, depth) => {
      expect(isChineseName(node.name_zh), node.id).toBe(true);
      expect(node.name_en, node.id).toMatch(/^[A-Z][A-Za-zü' ]+$/);
      // Every ethnic designation was recognized (none left romanized as "...zu").
      if (depth === 1 && node.name_zh.includes('自治'))
        expect(node.name_en, node.id).toMatch(/[a-z] (\w+ and )?\w+ Autonomous/);
      expect(node.name_en, node.id).not.toMatch(/zu Autonomous/);
    });
  });
});

describe('tree shape', () => {
  it('marks leaves exactly where there are no children, and gives leaves no children key', () => {
    walk(tree, (node, depth) => {
      expect(node.leaf, node.id).toBe(!node.children?.length);
      if (node.leaf) expect('children' in node, node.id).toBe(false);
      if (depth === 2) expect(node.leaf).toBe(true);
      if (depth === 1 && !node.id.startsWith('CN-')) expect(node.leaf, node.id).toBe(true);
    });
  });

  it('gives every node a unique id in the documented scheme', () => {
    const ids = new Set<string>();
    let count = 0;
    walk(tree, (node, depth) => {
      count++;
      ids.add(node.id);
      const pattern = [/^[A-Z]{2}$/, /^[A-Z]{2}-[A-Z0-9]{1,3}$/, /^CN-[A-Z]{2}-\d{6}$/][depth];
      expect(node.id).toMatch(pattern!);
    });
    expect(ids.size).toBe(count);
    expect(count).toBeGreaterThan(900);
  });

  it('has the same structure in both languages; only name differs', () => {
    const strip = (nodes: AreaNode[]): unknown =>
      nodes.map(({ name: _name, children, ...rest }) => ({ ...rest, children: children && strip(children) }));
    const en = localizeAreas(tree, 'en');
    const zh = localizeAreas(tree, 'zh-cn');
    expect(strip(en)).toEqual(strip(zh));
    expect(find(en, 'CN-GD-440100').name).toBe('Guangzhou');
    expect(find(zh, 'CN-GD-440100').name).toBe('广州市');
    expect(find(zh, 'US').name).toBe('美国');
  });

  it('stays small: about 110 KB of JSON, about 22 KB gzipped', () => {
    for (const locale of ['en', 'zh-cn'] as const) {
      const body = JSON.stringify({ code: 200, msg: 'ok', data: localizeAreas(tree, locale) });
      expect(Buffer.byteLength(body)).toBeLessThan(160_000);
      expect(gzipSync(body).length).toBeLessThan(35_000);
    }
  });
});

describe('getAreaTree (reads the country_list setting)', () => {
  it('answers the default list when nothing is stored', async () => {
    const { areas, etag } = await getAreaTree(contextWithCountries(), { locale: 'en' });
    expect(areas.map((country) => country.id)).toEqual(DEFAULT_COUNTRIES);
    expect(etag).toMatch(/^"[\w-]+"$/);
  });

  it('follows a changed country_list, and the ETag changes with it', async () => {
    const before = await getAreaTree(contextWithCountries(), { locale: 'zh-cn' });
    const after = await getAreaTree(contextWithCountries(['jp', 'CN', 'ZZ']), { locale: 'zh-cn' });
    expect(after.areas.map((country) => [country.id, country.name])).toEqual([
      ['JP', '日本'],
      ['CN', '中国'],
    ]);
    expect(after.etag).not.toBe(before.etag);
  });

  it('builds once per list and language: a second call answers the same object', async () => {
    const first = await getAreaTree(contextWithCountries(['SG']), { locale: 'en' });
    const second = await getAreaTree(contextWithCountries(['SG']), { locale: 'en' });
    expect(second).toBe(first);
    expect(await buildAreaTree(['SG'])).toBe(await buildAreaTree(['sg']));
    const chinese = await getAreaTree(contextWithCountries(['SG']), { locale: 'zh-cn' });
    expect(chinese.etag).not.toBe(first.etag);
  });
});

describe('getAreaChildren (lazy loading by parent_id)', () => {
  const ctx = () => contextWithCountries(['US', 'CN']);

  it("answers a country's states; outside China a state with cities is not a leaf here", async () => {
    const { areas } = await getAreaChildren(ctx(), { parentId: 'US', locale: 'en' });
    expect(find(areas, 'US-CA')).toMatchObject({ name: 'California', leaf: false });
    expect(areas.every((state) => state.children === undefined)).toBe(true);
  });

  it('answers the full city list of a state, English names standing in for Chinese', async () => {
    const { areas } = await getAreaChildren(ctx(), { parentId: 'US-CA', locale: 'zh-cn' });
    expect(areas.length).toBeGreaterThan(500);
    const losAngeles = areas.find((city) => city.name_en === 'Los Angeles');
    expect(losAngeles).toMatchObject({ leaf: true, name: 'Los Angeles', name_zh: 'Los Angeles' });
    expect(losAngeles!.id).toMatch(/^US-CA-\d+$/);
    expect(new Set(areas.map((city) => city.id)).size).toBe(areas.length);
  });

  it("answers China's provinces and a province's cities from the same tree", async () => {
    const provinces = await getAreaChildren(ctx(), { parentId: 'CN', locale: 'zh-cn' });
    expect(find(provinces.areas, 'CN-GD')).toMatchObject({ name: '广东省', leaf: false });
    expect(provinces.areas.every((province) => province.children === undefined)).toBe(true);
    const cities = await getAreaChildren(ctx(), { parentId: 'CN-GD', locale: 'en' });
    expect(cities.areas.map((city) => city.id)).toEqual(find(tree, 'CN-GD').children!.map((city) => city.id));
  });

  it('refuses ids outside the configured countries or unknown to the data', async () => {
    await expect(getAreaChildren(ctx(), { parentId: 'JP', locale: 'en' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getAreaChildren(ctx(), { parentId: 'US-ZZ', locale: 'en' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(getAreaChildren(ctx(), { parentId: 'CN-GD-440100', locale: 'en' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('English names of Chinese places', () => {
  it.each([
    ['广州市', 'Guangzhou'],
    ['西安市', "Xi'an"],
    ['吕梁市', 'Lüliang'],
    ['喀什地区', 'Kashi Prefecture'],
    ['闵行区', 'Minhang District'],
    ['忠县', 'Zhong County'],
    ['兴安盟', "Xing'an League"],
    ['神农架林区', 'Shennongjia Forestry District'],
    ['延边朝鲜族自治州', 'Yanbian Korean Autonomous Prefecture'],
    ['海西蒙古族藏族自治州', 'Haixi Mongol and Tibetan Autonomous Prefecture'],
    ['博尔塔拉蒙古自治州', "Bo'ertala Mongol Autonomous Prefecture"],
    ['保亭黎族苗族自治县', 'Baoting Li and Miao Autonomous County'],
  ])('%s -> %s', (chinese, english) => {
    expect(englishNameOfChinesePlace(chinese)).toBe(english);
  });

  it('romanizes without tones', () => {
    expect(romanize('北京')).toBe('Beijing');
  });
});
