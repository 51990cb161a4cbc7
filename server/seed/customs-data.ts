import type { SeedProduct } from './catalog-model';

/**
 * How the demo goods are declared to customs: the 6-digit HS subheading (the part every
 * country shares) and a plain description for the commercial invoice. All demo goods are
 * made in China. A starting point for the operator, who confirms each classification.
 */
interface SeedCustoms {
  hsCode: string;
  description: string;
}

const DEMO_CUSTOMS: Record<string, SeedCustoms> = {
  'organic-cotton-tee': { hsCode: '610910', description: 'T-shirt, knitted, 100% organic cotton' },
  'heavyweight-pocket-tee': { hsCode: '610910', description: 'T-shirt, knitted, 100% cotton' },
  'linen-camp-collar-shirt': { hsCode: '620590', description: 'Shirt, woven, 100% linen (flax)' },
  'washed-cotton-overshirt': { hsCode: '620520', description: 'Overshirt, woven, 100% cotton' },
  'merino-crew-sweater': { hsCode: '611011', description: 'Sweater, knitted, 100% merino wool' },
  'cotton-rib-cardigan': { hsCode: '611020', description: 'Cardigan, knitted, 100% cotton' },
  'lambswool-beanie': { hsCode: '650500', description: 'Beanie hat, knitted, lambswool' },
  'silk-twill-scarf': { hsCode: '621410', description: 'Scarf, woven, 100% silk twill' },
  'cotton-bucket-hat': { hsCode: '650500', description: 'Bucket hat, woven cotton fabric' },
  'ribbed-crew-socks': { hsCode: '611595', description: 'Socks, knitted, cotton' },
  'canvas-market-tote': { hsCode: '420222', description: 'Tote bag, outer surface of cotton canvas' },
  'waxed-canvas-backpack': { hsCode: '420292', description: 'Backpack, outer surface of waxed cotton canvas' },
  'leather-saddle-crossbody': { hsCode: '420221', description: 'Crossbody handbag, outer surface of leather' },
  'quilted-zip-pouch': { hsCode: '420292', description: 'Zip pouch, outer surface of quilted cotton' },
  'leather-card-wallet': { hsCode: '420231', description: 'Card wallet, outer surface of leather' },
  'linen-cover-notebook': { hsCode: '482010', description: 'Notebook, paper, linen-covered' },
  'brass-ballpoint-pen': { hsCode: '960810', description: 'Ballpoint pen, brass body' },
  'canvas-pencil-case': { hsCode: '420292', description: 'Pencil case, outer surface of cotton canvas' },
  'undated-weekly-planner': { hsCode: '482010', description: 'Diary/planner, paper, bound' },
  'washi-tape-set': { hsCode: '481141', description: 'Self-adhesive decorative paper tape, in rolls' },
  'letterpress-postcard-set': { hsCode: '490900', description: 'Printed postcards, set' },
  'paper-shade-table-lamp': { hsCode: '940521', description: 'Electric table lamp, LED, paper shade' },
  'linen-cushion-cover': { hsCode: '630499', description: 'Cushion cover, woven linen (flax)' },
  'waffle-cotton-throw': { hsCode: '630130', description: 'Throw blanket, woven cotton' },
  'soy-wax-candle': { hsCode: '340600', description: 'Candle, soy wax, in a glass jar' },
  'reed-diffuser': { hsCode: '330749', description: 'Room fragrance, reed diffuser' },
  'linen-napkin-set': { hsCode: '630259', description: 'Table napkins, woven linen (flax)' },
  'rattan-storage-basket': { hsCode: '460212', description: 'Storage basket, woven rattan' },
  'stoneware-mug': { hsCode: '691200', description: 'Mug, stoneware (ceramic tableware, not porcelain)' },
  'glazed-rice-bowl': { hsCode: '691200', description: 'Bowl, glazed stoneware (ceramic tableware, not porcelain)' },
  'ash-glaze-dinner-plate': {
    hsCode: '691200',
    description: 'Dinner plate, stoneware (ceramic tableware, not porcelain)',
  },
  'stoneware-bud-vase': { hsCode: '691390', description: 'Vase, stoneware, ornamental' },
  'ridged-planter': { hsCode: '691490', description: 'Plant pot, stoneware' },
  'espresso-cup-pair': { hsCode: '691200', description: 'Espresso cups, stoneware (ceramic tableware, not porcelain)' },
  'west-lake-longjing': { hsCode: '090210', description: 'Green tea (Longjing), in packs of 3 kg or less' },
  'tieguanyin-oolong': { hsCode: '090230', description: 'Oolong tea (partly fermented), in packs of 3 kg or less' },
  'aged-white-tea-cake': { hsCode: '090210', description: 'White tea (unfermented), pressed cake, 3 kg or less' },
  'yunnan-dianhong-black-tea': { hsCode: '090230', description: 'Black tea (fermented), in packs of 3 kg or less' },
  'jasmine-pearls': { hsCode: '090210', description: 'Green tea scented with jasmine, in packs of 3 kg or less' },
  'side-handle-teapot': { hsCode: '691200', description: 'Teapot, clay (ceramic tableware, not porcelain)' },
  'glass-infuser-teapot': { hsCode: '701342', description: 'Teapot with infuser, borosilicate glass' },
  'gongfu-tea-cups': { hsCode: '691200', description: 'Tea cups, stoneware (ceramic tableware, not porcelain)' },
};

/** Customs facts for every SKU of a demo product. */
export function demoCustoms(product: SeedProduct): {
  hsCode: string;
  originCountry: string;
  customsDescription: string;
} {
  const customs = DEMO_CUSTOMS[product.slug];
  if (!customs) throw new Error(`demo product ${product.slug} has no customs classification`);
  return { hsCode: customs.hsCode, originCountry: 'CN', customsDescription: customs.description };
}
