import { Converter } from 'opencc-js/t2cn';
import { customPinyin, pinyin } from 'pinyin-pro';

/**
 * Helpers that turn the Chinese names the data packages give us into what the shop shows:
 * Simplified Chinese for `name_zh`, and an English rendering of mainland place names
 * (Hanyu Pinyin plus the usual English generic terms) for `name_en`.
 */

let toSimplifiedConverter: ((text: string) => string) | undefined;

/** Traditional (and Japanese-style) characters to Simplified Chinese, via OpenCC. */
export function toSimplifiedChinese(text: string): string {
  toSimplifiedConverter ??= Converter({ from: 't', to: 'cn' });
  return toSimplifiedConverter(text);
}

const CHINESE_NAME = /^[\p{Script=Han}·\-－（）()]+$/u;

/**
 * Whether a string can serve as a Chinese place name. Crowd-sourced name lists sometimes
 * hold an English or a Cyrillic word under their Chinese key; those must not be shown.
 */
export function isChineseName(text: string | null | undefined): text is string {
  return typeof text === 'string' && CHINESE_NAME.test(text) && /\p{Script=Han}/u.test(text);
}

/**
 * Generic terms of mainland Chinese administrative names and their customary English
 * (as in official English usage: "Pudong New Area", "Xing'an League"). Longest first.
 */
const GENERIC_TERMS: ReadonlyArray<readonly [string, string]> = [
  ['自治州', 'Autonomous Prefecture'],
  ['自治县', 'Autonomous County'],
  ['新区', 'New Area'],
  ['林区', 'Forestry District'],
  ['地区', 'Prefecture'],
  ['盟', 'League'],
  ['市', ''],
  ['区', 'District'],
  ['县', 'County'],
];

/**
 * Ethnic designations inside autonomous prefecture and county names, with the English
 * word official names use ("Yanbian Korean Autonomous Prefecture"). Only designations
 * that occur in GB/T 2260 prefecture-level names and municipality/province-administered
 * county names are listed; an unknown one is romanized as part of the place name.
 */
const ETHNIC_DESIGNATIONS: Readonly<Record<string, string>> = {
  朝鲜族: 'Korean',
  土家族: 'Tujia',
  苗族: 'Miao',
  藏族: 'Tibetan',
  羌族: 'Qiang',
  彝族: 'Yi',
  布依族: 'Buyei',
  侗族: 'Dong',
  哈尼族: 'Hani',
  壮族: 'Zhuang',
  傣族: 'Dai',
  白族: 'Bai',
  景颇族: 'Jingpo',
  傈僳族: 'Lisu',
  回族: 'Hui',
  黎族: 'Li',
  蒙古族: 'Mongol',
  蒙古: 'Mongol',
  哈萨克: 'Kazak',
  柯尔克孜: 'Kirgiz',
};
const ETHNIC_KEYS_LONGEST_FIRST = Object.keys(ETHNIC_DESIGNATIONS).sort((a, b) => b.length - a.length);

let pinyinCorrected = false;

/**
 * pinyin-pro reads a few place names with the common reading of a polyphonic character;
 * these are the place-name readings (喀什 Kashi, 闵行 Minhang, 昌都 Changdu, 丰都 Fengdu),
 * found by reading every name the tree romanizes.
 */
function ensurePlaceNameReadings(): void {
  if (pinyinCorrected) return;
  customPinyin({ 喀什: 'kā shí', 闵行: 'mǐn háng', 昌都: 'chāng dū', 丰都: 'fēng dū' });
  pinyinCorrected = true;
}

/** "西安" -> "Xi'an": one word, syllables joined, apostrophe before a/o/e after the first. */
export function romanize(chinese: string): string {
  ensurePlaceNameReadings();
  const syllables = pinyin(chinese, { toneType: 'none', type: 'array', nonZh: 'consecutive' }).filter(Boolean);
  const word = syllables
    .map((syllable, index) => (index > 0 && /^[aoe]/.test(syllable) ? `'${syllable}` : syllable))
    .join('');
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function englishList(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * English name of a mainland Chinese city, prefecture, district or county from its Chinese
 * name: "广州市" -> "Guangzhou", "朝阳区" -> "Chaoyang District",
 * "延边朝鲜族自治州" -> "Yanbian Korean Autonomous Prefecture". Names from minority
 * languages come out in Pinyin ("乌鲁木齐市" -> "Wulumuqi", not "Ürümqi").
 */
export function englishNameOfChinesePlace(chinese: string): string {
  let rest = chinese.trim();
  let generic = '';
  for (const [term, english] of GENERIC_TERMS) {
    // A one-character name such as "忠县" keeps its proper part; "市" is dropped only
    // when at least two characters remain.
    if (rest.endsWith(term) && rest.length - term.length >= 1 && !(term === '市' && rest.length - term.length < 2)) {
      rest = rest.slice(0, -term.length);
      generic = english;
      break;
    }
  }
  const ethnic: string[] = [];
  if (generic.startsWith('Autonomous')) {
    let matched = true;
    while (matched) {
      matched = false;
      for (const key of ETHNIC_KEYS_LONGEST_FIRST) {
        if (rest.endsWith(key) && rest.length > key.length) {
          ethnic.unshift(ETHNIC_DESIGNATIONS[key]!);
          rest = rest.slice(0, -key.length);
          matched = true;
          break;
        }
      }
    }
  }
  return [romanize(rest), englishList(ethnic), generic].filter(Boolean).join(' ');
}
