import type { LocalizedText } from '../../i18n/locales';
import type { ArtKind } from './art';

/** One option of a property, e.g. the colour "Sage" or the size "M". */
export interface SeedValue {
  /** Stable within its property; used in image names and sold-out markers. */
  key: string;
  name: LocalizedText;
  /** CSS colour shown as a swatch; only colour axes have one. */
  swatch?: string;
  /** Colour the product is drawn in for this value; defaults to the swatch. */
  tint?: string;
  /** Added to the product's base price, in fen. */
  priceDelta?: number;
}

export interface SeedProperty {
  name: LocalizedText;
  values: SeedValue[];
}

export interface SeedProduct {
  slug: string;
  /** Slug of the one category the product sits in. */
  category: string;
  /** Slugs of 0-2 collections. */
  collections?: string[];
  art: ArtKind;
  /** Colour to draw in when no property value carries one. */
  tint?: string;
  name: LocalizedText;
  description: LocalizedText;
  /** Base price in fen (CNY minor units). */
  priceMinor: number;
  properties: SeedProperty[];
  /** Combinations with no stock, as value keys joined by '/', e.g. 'ink/xl'. */
  soldOut?: string[];
  soldCount: number;
  weightGrams: number;
  serviceNotes: number[];
}

export interface SeedGroup {
  slug: string;
  kind: 'category' | 'collection';
  parent?: string;
  name: LocalizedText;
  description: LocalizedText;
  /** Products drawn on the group banner: all flat things or all standing things. */
  hero: string[];
}

const t = (en: string, zh: string): LocalizedText => ({ en, 'zh-cn': zh });
export { t as text };

/** The shop's colour names, shared so a colour reads the same on every product. */
const COLOURS = {
  oat: [t('Oat', '燕麦色'), '#e4d6bf'],
  sage: [t('Sage', '鼠尾草绿'), '#9caf88'],
  ink: [t('Ink', '墨蓝'), '#2f3a4a'],
  terracotta: [t('Terracotta', '陶土红'), '#c4653f'],
  natural: [t('Natural', '亚麻原色'), '#dccfb6'],
  sky: [t('Sky', '天青'), '#a7c3d9'],
  olive: [t('Olive', '橄榄绿'), '#7a7d4c'],
  'off-white': [t('Off-white', '米白'), '#f1ece2'],
  charcoal: [t('Charcoal', '炭灰'), '#3d3d3d'],
  indigo: [t('Indigo', '靛蓝'), '#3b4f6e'],
  stone: [t('Stone', '岩灰'), '#bdb5a6'],
  forest: [t('Forest', '森林绿'), '#3f5a46'],
  rust: [t('Rust', '铁锈红'), '#a2532e'],
  cream: [t('Cream', '奶油白'), '#efe6d3'],
  'dusty-blue': [t('Dusty Blue', '雾霾蓝'), '#8ea3b5'],
  mustard: [t('Mustard', '芥末黄'), '#d4a03a'],
  berry: [t('Berry', '莓果紫'), '#8e3b57'],
  persimmon: [t('Persimmon', '柿子橙'), '#e0703a'],
  jade: [t('Jade', '玉石绿'), '#6fa38f'],
  khaki: [t('Khaki', '卡其'), '#c2b08a'],
  black: [t('Black', '黑色'), '#2b2b2b'],
  ivory: [t('Ivory', '象牙白'), '#ede6d6'],
  clay: [t('Clay', '陶土色'), '#c98b6b'],
  sand: [t('Sand', '沙色'), '#d8c3a0'],
  moss: [t('Moss', '苔绿'), '#6e7b4e'],
  slate: [t('Slate', '石板蓝'), '#5e6e7e'],
  celadon: [t('Celadon', '青瓷'), '#a8c3b1'],
  tenmoku: [t('Tenmoku', '天目褐'), '#5a3a2a'],
  ash: [t('Ash Glaze', '灰釉'), '#b9b4aa'],
  speckled: [t('Speckled White', '斑点白'), '#e9e3d7'],
  'ink-blue': [t('Ink Blue', '靛青'), '#34506b'],
  'purple-clay': [t('Purple Clay', '紫砂'), '#7a4a3a'],
  tobacco: [t('Tobacco', '烟草棕'), '#8a6a45'],
  navy: [t('Navy', '藏青'), '#2d3b55'],
  tan: [t('Tan', '棕褐'), '#b5764a'],
  burgundy: [t('Burgundy', '酒红'), '#6e2b33'],
  rose: [t('Rose', '豆沙粉'), '#d6a5a0'],
  brass: [t('Raw Brass', '原色黄铜'), '#b08d57'],
  'matte-black': [t('Matte Black', '哑光黑'), '#2b2b2b'],
  chalk: [t('Chalk', '粉白'), '#eeeae2'],
} as const satisfies Record<string, readonly [LocalizedText, string]>;

export type ColourKey = keyof typeof COLOURS;

/** A colour axis, e.g. colour('sage', 'oat'). */
export function colour(...keys: ColourKey[]): SeedProperty {
  return {
    name: t('Colour', '颜色'),
    values: keys.map((key) => ({ key, name: COLOURS[key][0], swatch: COLOURS[key][1] })),
  };
}

/** A colour axis named differently, e.g. "Finish" or "Glaze". */
export function colourAs(name: LocalizedText, ...keys: ColourKey[]): SeedProperty {
  return { ...colour(...keys), name };
}

/** Clothing sizes S, M, L, XL (any subset). */
export function sizes(...keys: Array<'xs' | 's' | 'm' | 'l' | 'xl'>): SeedProperty {
  return {
    name: t('Size', '尺码'),
    values: keys.map((key) => ({ key, name: t(key.toUpperCase(), key.toUpperCase()) })),
  };
}

/** Any other axis: each value as [key, en, zh, priceDelta?]. */
export function axis(
  name: LocalizedText,
  values: Array<[string, string, string, number?] | [string, string, string, number, string]>,
): SeedProperty {
  return {
    name,
    values: values.map(([key, en, zh, priceDelta, tint]) => ({
      key,
      name: t(en, zh),
      ...(priceDelta ? { priceDelta } : {}),
      ...(tint ? { tint } : {}),
    })),
  };
}
