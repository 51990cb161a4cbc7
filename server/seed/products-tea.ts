import { axis, colourAs, text as t, type SeedProduct } from './catalog-model';

const weight = (values: Array<[string, number]>) =>
  axis(
    t('Weight', '净含量'),
    values.map(
      ([grams, delta]) => [`${grams}g`, `${grams} g`, `${grams} 克`, delta] as [string, string, string, number],
    ),
  );

/** Loose-leaf teas from single gardens, and the things to brew them in. */
export const TEA: SeedProduct[] = [
  {
    slug: 'west-lake-longjing',
    category: 'tea',
    collections: ['best-sellers', 'gift-ideas'],
    art: 'teaTin',
    tint: '#6f8f5a',
    name: t('West Lake Longjing Green Tea', '西湖龙井绿茶'),
    description: t(
      'Pre-Qingming Longjing from a family garden in Meijiawu, pan-fired by hand the same day it is picked. Flat, jade-green leaves brew a sweet, chestnut-like cup with no bitterness. Brew at 80 °C in a glass or a gaiwan and watch the leaves rise and fall.',
      '梅家坞茶农自家茶园的明前龙井，当天采摘、当天手工炒制。扁平翠绿的茶叶冲泡后汤色清亮，带板栗香，回甘无苦涩。建议 80°C 水温，用玻璃杯或盖碗冲泡，看茶叶在水中起落。',
    ),
    priceMinor: 16800,
    properties: [
      weight([
        ['50', 0],
        ['100', 13000],
        ['250', 49000],
      ]),
    ],
    soldCount: 1468,
    weightGrams: 180,
    serviceNotes: [1, 3],
  },
  {
    slug: 'tieguanyin-oolong',
    category: 'tea',
    art: 'teaPouch',
    tint: '#7c8b5a',
    name: t('Anxi Tieguanyin Oolong', '安溪铁观音乌龙茶'),
    description: t(
      'A lightly oxidised, tightly rolled oolong from Anxi with a lingering orchid fragrance. Each ball of leaf unfurls over five or six infusions, so a single spoonful lasts a whole afternoon. Resealable pouch with a nitrogen flush to keep it fresh.',
      '来自安溪的轻发酵铁观音，颗粒紧结，兰花香持久。一泡可冲五六道，一小勺就能喝上一个下午。可重复密封包装，充氮保鲜。',
    ),
    priceMinor: 12800,
    properties: [
      weight([
        ['100', 0],
        ['250', 16000],
      ]),
    ],
    soldCount: 934,
    weightGrams: 160,
    serviceNotes: [1, 3],
  },
  {
    slug: 'aged-white-tea-cake',
    category: 'tea',
    collections: ['gift-ideas'],
    art: 'teaCake',
    tint: '#a4432e',
    name: t('Aged Fuding White Tea Cake', '福鼎老白茶饼'),
    description: t(
      'Shoumei white tea from Fuding, pressed into a 357 g cake and left to age slowly in dry, airy storage. With the years it turns honeyed and mellow, with notes of dried dates. Prise off a few grams with a tea knife and brew with boiling water, or simmer it in a pot in winter.',
      '福鼎寿眉压制成 357 克茶饼，在干燥通风的环境中缓慢陈化。年份越久越显蜜香醇和，带枣香。用茶刀撬取几克，沸水冲泡；冬天也可以放入壶中煮饮。',
    ),
    priceMinor: 29800,
    properties: [
      axis(t('Vintage', '年份'), [
        ['2021', '2021 harvest', '2021 年'],
        ['2018', '2018 harvest', '2018 年', 10000],
      ]),
    ],
    soldOut: ['2018'],
    soldCount: 286,
    weightGrams: 420,
    serviceNotes: [1, 3],
  },
  {
    slug: 'yunnan-dianhong-black-tea',
    category: 'tea',
    art: 'teaTin',
    tint: '#9b3f2c',
    name: t('Yunnan Golden Tip Black Tea', '云南滇红金芽'),
    description: t(
      'Downy golden buds from old tea trees in Fengqing, rolled and fully oxidised into a black tea that is malty, sweet and naturally smooth. Excellent on its own and sturdy enough to take a splash of milk.',
      '凤庆古树茶的金毫芽头，揉捻全发酵制成的红茶，麦芽香浓、甜润顺滑。清饮很好，加一点牛奶也不失风味。',
    ),
    priceMinor: 9800,
    properties: [
      weight([
        ['50', 0],
        ['100', 8000],
      ]),
    ],
    soldCount: 752,
    weightGrams: 150,
    serviceNotes: [1, 3],
  },
  {
    slug: 'jasmine-pearls',
    category: 'tea',
    collections: ['new-arrivals'],
    art: 'teaPouch',
    tint: '#c8b36a',
    name: t('Jasmine Dragon Pearls', '茉莉龙珠'),
    description: t(
      'Young green tea leaves hand-rolled into pearls and scented six times with fresh jasmine blossoms over summer nights. The pearls open slowly in the cup and release a fragrance that is floral but never perfumed.',
      '嫩绿茶芽手工揉成珠形，在夏夜用新鲜茉莉花窨制六次。茶珠在杯中缓缓舒展，花香清雅而不浓艳。',
    ),
    priceMinor: 11800,
    properties: [
      weight([
        ['100', 0],
        ['250', 15000],
      ]),
    ],
    soldCount: 603,
    weightGrams: 160,
    serviceNotes: [1, 3],
  },
  {
    slug: 'side-handle-teapot',
    category: 'tea',
    collections: ['best-sellers'],
    art: 'sideHandleTeapot',
    name: t('Side-Handle Clay Teapot', '侧把陶土茶壶'),
    description: t(
      'A 240 ml kyusu-style teapot with a side handle that pours with a simple turn of the wrist. A fine built-in clay mesh keeps leaves in without a separate strainer. The unglazed clay slowly seasons with every pot you brew.',
      '240 毫升侧把急须式茶壶，手腕轻转即可出汤。内置细密陶土滤孔，无需另配滤网。未上釉的陶土会随着每一次冲泡慢慢养出光泽。',
    ),
    priceMinor: 36800,
    properties: [colourAs(t('Clay', '泥料'), 'purple-clay', 'celadon', 'speckled')],
    soldCount: 431,
    weightGrams: 640,
    serviceNotes: [1, 2, 4],
  },
  {
    slug: 'glass-infuser-teapot',
    category: 'tea',
    art: 'glassTeapot',
    tint: '#c9d6d2',
    name: t('Glass Teapot with Infuser', '玻璃滤芯茶壶'),
    description: t(
      'Heat-resistant borosilicate glass with a removable infuser, so you can watch the leaves open and lift them out the moment the tea tastes right. Safe on a gas flame with a diffuser, in the microwave and in the dishwasher.',
      '耐热高硼硅玻璃，配可拆卸滤芯，看着茶叶舒展，在茶味刚好时提起滤芯。可配隔热垫在燃气灶上加热，也可用微波炉和洗碗机。',
    ),
    priceMinor: 15900,
    properties: [
      axis(t('Capacity', '容量'), [
        ['500', '500 ml', '500 毫升'],
        ['800', '800 ml', '800 毫升', 3000],
      ]),
    ],
    soldCount: 819,
    weightGrams: 560,
    serviceNotes: [1, 2, 3],
  },
  {
    slug: 'gongfu-tea-cups',
    category: 'tea',
    art: 'teaCups',
    name: t('Gongfu Tea Cups, Set of Three', '功夫茶杯（三只装）'),
    description: t(
      'Three small 60 ml cups for gongfu brewing, each thrown and trimmed by hand. The thin rim brings out the aroma of oolong and pu-erh, and the cups nest neatly for travel.',
      '三只 60 毫升功夫茶杯，每一只都手工拉坯、修坯。薄口沿更能突显乌龙与普洱的香气，叠放收纳，出行也方便。',
    ),
    priceMinor: 12800,
    properties: [colourAs(t('Glaze', '釉色'), 'celadon', 'chalk', 'tenmoku')],
    soldOut: ['tenmoku'],
    soldCount: 562,
    weightGrams: 300,
    serviceNotes: [1, 2, 3],
  },
];
