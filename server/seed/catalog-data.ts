import { text as t, type SeedGroup, type SeedProduct, type SeedValue } from './catalog-model';
import { APPAREL } from './products-apparel';
import { CARRY } from './products-carry';
import { HOME } from './products-home';
import { TEA } from './products-tea';

export type { SeedGroup, SeedProduct, SeedValue } from './catalog-model';

/**
 * The demo shop's navigation: six top-level categories (apparel split into three children)
 * and three curated collections that become home-page sections. Order here is display order.
 */
export const DEMO_GROUPS: SeedGroup[] = [
  {
    slug: 'apparel',
    kind: 'category',
    name: t('Apparel', '服饰'),
    description: t(
      'Everyday clothes in natural fibres: organic cotton, linen and fine merino, cut to be worn for years.',
      '天然纤维的日常衣物：有机棉、亚麻与精纺美利奴，剪裁经得起多年穿着。',
    ),
    hero: ['organic-cotton-tee', 'merino-crew-sweater', 'silk-twill-scarf'],
  },
  {
    slug: 'apparel-tops',
    kind: 'category',
    parent: 'apparel',
    name: t('Tees & Shirts', 'T 恤与衬衫'),
    description: t('Tees, linen shirts and overshirts for every season.', '四季可穿的 T 恤、亚麻衬衫与外套衬衫。'),
    hero: ['organic-cotton-tee', 'linen-camp-collar-shirt', 'washed-cotton-overshirt'],
  },
  {
    slug: 'apparel-knitwear',
    kind: 'category',
    parent: 'apparel',
    name: t('Knitwear', '针织'),
    description: t('Soft merino, cotton and lambswool knits.', '柔软的美利奴、纯棉与羔羊毛针织。'),
    hero: ['merino-crew-sweater', 'cotton-rib-cardigan'],
  },
  {
    slug: 'apparel-accessories',
    kind: 'category',
    parent: 'apparel',
    name: t('Accessories', '配饰'),
    description: t('Scarves, hats and socks: the finishing touches.', '方巾、帽子与袜子：细节处的点睛之笔。'),
    hero: ['silk-twill-scarf', 'ribbed-crew-socks'],
  },
  {
    slug: 'home',
    kind: 'category',
    name: t('Home & Living', '家居生活'),
    description: t(
      'Lamps, linen, candles and baskets that make a room feel calm and lived in.',
      '台灯、亚麻织物、蜡烛与藤编，让房间安静而有生活气息。',
    ),
    hero: ['paper-shade-table-lamp', 'soy-wax-candle', 'reed-diffuser'],
  },
  {
    slug: 'ceramics',
    kind: 'category',
    name: t('Ceramics', '陶瓷'),
    description: t(
      'Mugs, bowls, plates and vases thrown by hand in our Hangzhou studio.',
      '在我们杭州工作室手工拉坯的杯、碗、盘与花器。',
    ),
    hero: ['stoneware-mug', 'stoneware-bud-vase', 'glazed-rice-bowl'],
  },
  {
    slug: 'tea',
    kind: 'category',
    name: t('Tea', '茶饮'),
    description: t(
      'Single-garden teas from Zhejiang, Fujian and Yunnan, and the teaware to brew them.',
      '来自浙江、福建与云南的单一茶园好茶，以及冲泡它们的茶器。',
    ),
    hero: ['west-lake-longjing', 'side-handle-teapot', 'gongfu-tea-cups'],
  },
  {
    slug: 'bags',
    kind: 'category',
    name: t('Bags', '箱包'),
    description: t(
      'Canvas and leather bags built for daily carry and years of use.',
      '帆布与皮革包袋，为日常携带与多年使用而做。',
    ),
    hero: ['canvas-market-tote', 'waxed-canvas-backpack', 'leather-saddle-crossbody'],
  },
  {
    slug: 'stationery',
    kind: 'category',
    name: t('Stationery', '文具'),
    description: t(
      'Notebooks, pens and paper goods for slow, thoughtful writing.',
      '笔记本、笔与纸品，留给从容的书写。',
    ),
    hero: ['linen-cover-notebook', 'brass-ballpoint-pen', 'letterpress-postcard-set'],
  },
  {
    slug: 'new-arrivals',
    kind: 'collection',
    name: t('New Arrivals', '新品上架'),
    description: t('Just out of the studio this season.', '本季刚从工作室出炉的新品。'),
    hero: ['paper-shade-table-lamp', 'stoneware-bud-vase', 'waxed-canvas-backpack'],
  },
  {
    slug: 'best-sellers',
    kind: 'collection',
    name: t('Best Sellers', '人气热卖'),
    description: t('The pieces our customers come back for again and again.', '顾客一再回购的人气好物。'),
    hero: ['stoneware-mug', 'canvas-market-tote', 'soy-wax-candle'],
  },
  {
    slug: 'gift-ideas',
    kind: 'collection',
    name: t('Gift Ideas', '送礼之选'),
    description: t(
      'Thoughtful presents, wrapped in recycled paper at no extra cost.',
      '用心之礼，免费使用再生纸包装。',
    ),
    hero: ['west-lake-longjing', 'espresso-cup-pair', 'lambswool-beanie'],
  },
];

export const DEMO_PRODUCTS: SeedProduct[] = [...APPAREL, ...HOME, ...TEA, ...CARRY];

/** Colour used to draw a product when none of its values carries one. */
const DEFAULT_TINT = '#c9a26b';

/**
 * The property whose values change how the product looks (colour, glaze, scent...): each
 * of its values gets its own picture and SKUs of that value point at it.
 */
export function imageAxis(product: SeedProduct): number {
  return product.properties.findIndex((property) => property.values.every((value) => value.swatch || value.tint));
}

export function valueTint(value: SeedValue): string | undefined {
  return value.tint ?? value.swatch;
}

type ProductLook = { key: string | null; color: string };

/** The colours to draw a product in: one per value of its image axis, or its single tint. */
export function productLooks(product: SeedProduct): [ProductLook, ...ProductLook[]] {
  const axisIndex = imageAxis(product);
  const values = axisIndex < 0 ? [] : (product.properties[axisIndex]?.values ?? []);
  const looks = values.map((value) => ({ key: value.key, color: valueTint(value) ?? DEFAULT_TINT }));
  const [first = { key: null, color: product.tint ?? DEFAULT_TINT }, ...rest] = looks;
  return [first, ...rest];
}

/** Every combination of one value per property, in a stable order (first property slowest). */
export function combinations(product: SeedProduct): SeedValue[][] {
  return product.properties.reduce<SeedValue[][]>(
    (acc, property) => acc.flatMap((combo) => property.values.map((value) => [...combo, value])),
    [[]],
  );
}

export function skuCode(product: SeedProduct, index: number): string {
  return `LL-${product.slug}-${index + 1}`;
}

/** A believable, stable stock level for a SKU; zero for the combinations marked sold out. */
export function skuStock(product: SeedProduct, combo: SeedValue[], code: string): number {
  if (product.soldOut?.includes(combo.map((value) => value.key).join('/'))) return 0;
  let hash = 0;
  for (const ch of code) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return 6 + (hash % 84);
}
