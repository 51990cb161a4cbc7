import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../support/test-server';

const server = useTestServer();

interface Sku {
  id: number;
  code: string;
  value_ids: number[];
  price: string;
  stock: number;
}
interface Product {
  id: number;
  name: string;
  description: string;
  images: { url: string }[];
  property: { values: { id: number; name: string }[] }[];
  good_sku: Sku[];
  category: { id: number; name: string } | null;
}

/** A product with at least two properties and a sold-out SKU, found through the API. */
let product: Product;
let soldOut: Sku;
let inStock: Sku;

async function productFor(id: number, lang: string): Promise<Product> {
  return (await server.request(`/v1/good/${id}`, { headers: { lang } })).body.data;
}

beforeAll(async () => {
  const list = (await server.request('/v1/good/list?page_size=50', { headers: { lang: 'en' } })).body.data.records;
  for (const card of list) {
    const candidate = await productFor(card.id, 'en');
    const sku = candidate.good_sku.find((item) => item.stock === 0);
    if (sku && candidate.property.length > 1) {
      product = candidate;
      soldOut = sku;
      inStock = candidate.good_sku.find((item) => item.stock > 0)!;
      break;
    }
  }
  expect(product, 'the seed has a product with a sold-out SKU').toBeDefined();
});

function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) =>
    JSON.parse(match[1]!),
  );
}

/** The text of every `<h1>` of a page, tags inside it dropped. */
function mainHeadings(html: string): string[] {
  return [...html.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((match) => decode(match[1]!.replace(/<[^>]+>/g, '')));
}

/** The opening tag of every `<button>` whose text is `label`. */
function buttonsNamed(html: string, label: string): string[] {
  return [...html.matchAll(/(<button\b[^>]*>)([^<]*)<\/button>/g)]
    .filter((match) => match[2]!.trim() === label)
    .map((match) => match[1]!);
}

const decode = (html: string) =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');

describe('product page', () => {
  it('renders the product in both languages', async () => {
    const en = await server.request(`/en/product/${product.id}`);
    expect(en.status).toBe(200);
    expect(mainHeadings(en.text)).toEqual([product.name]);
    expect(en.text).toContain('Buy Now');
    expect(en.text).toContain('In Stock');
    const chinese = await productFor(product.id, 'zh-cn');
    const zh = await server.request(`/zh-cn/product/${product.id}`);
    expect(zh.status).toBe(200);
    expect(mainHeadings(zh.text)).toEqual([chinese.name]);
    expect(zh.text).toContain('立即购买');
    expect(zh.text).toContain('有货');
    expect(zh.text).toContain('已选');
  });

  it.each(['999999', 'abc', '0', '-1', '1e9', '007', '99999999999', '1.5'])(
    'answers /product/%s with 404',
    async (id) => {
      const response = await server.request(`/en/product/${id}`);
      expect(response.status).toBe(404);
      expect(response.text).toContain('Page Not Found');
      expect(response.text).toContain('<meta name="robots" content="noindex"');
    },
  );

  it('opens with the first SKU in stock, its price and a Buy Now link to the order confirmation', async () => {
    const { text } = await server.request(`/en/product/${product.id}`);
    const first = product.good_sku.find((sku) => sku.stock > 0)!;
    expect(decode(text)).toContain(`href="/en/order/confirm_order?sku_id=${first.id}&quantity=1"`);
    expect(text).toContain(`${first.price}`);
    expect(text).toMatch(/Selected<\/span>/);
  });

  it('renders the SKU named by ?sku=; a sold-out one says so and disables Buy Now', async () => {
    const { text, status } = await server.request(`/en/product/${product.id}?sku=${soldOut.id}`);
    expect(status).toBe(200);
    expect(text).toContain('Out of stock');
    const buyNow = buttonsNamed(text, 'Buy Now');
    expect(buyNow).toHaveLength(1);
    expect(buyNow[0]).toMatch(/\sdisabled(="")?[\s>]/);
    expect(text).not.toContain('confirm_order?sku_id=');
    const names = product.property.map(
      (property) => property.values.find((value) => soldOut.value_ids.includes(value.id))!.name,
    );
    expect(decode(text)).toContain(names.join(' / '));
    const chosen = await server.request(`/en/product/${product.id}?sku=${inStock.id}`);
    expect(decode(chosen.text)).toContain(`confirm_order?sku_id=${inStock.id}&quantity=1`);
  });

  it('links every available value to the SKU it leads to, so choosing works without JavaScript', async () => {
    const { text } = await server.request(`/en/product/${product.id}?sku=${inStock.id}`);
    const links = [...text.matchAll(/<a href="\?sku=(\d+)" role="radio"/g)].map((match) => Number(match[1]));
    expect(links.length).toBeGreaterThan(1);
    for (const id of links) expect(product.good_sku.find((sku) => sku.id === id)!.stock).toBeGreaterThan(0);
    expect(text).toMatch(/role="radiogroup"/);
  });

  it('shows the price range for a partial choice made with ?v=', async () => {
    const value = product.property[0]!.values[0]!;
    const { text } = await server.request(`/en/product/${product.id}?v=${value.id}`);
    expect(text).toContain('Please choose');
    expect(text).not.toContain('confirm_order?sku_id=');
  });

  it('ignores a ?sku= of another product', async () => {
    const { status, text } = await server.request(`/en/product/${product.id}?sku=999999`);
    expect(status).toBe(200);
    expect(text).toContain('In Stock');
  });
});

describe('product page head', () => {
  it('has title, description, canonical and hreflang links', async () => {
    const { text } = await server.request(`/en/product/${product.id}?sku=${inStock.id}`);
    expect(decode(text)).toMatch(new RegExp(`<title>${product.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| `));
    expect(text).toMatch(/<meta name="description" content="[^"]{20,160}"/);
    expect(text).toMatch(new RegExp(`<link rel="canonical" href="http://[^"]+/en/product/${product.id}"`));
    expect(text).toMatch(
      new RegExp(`<link rel="alternate" hrefLang="zh-Hans" href="http://[^"]+/zh-cn/product/${product.id}"`),
    );
    expect(text).toMatch(
      new RegExp(`<link rel="alternate" hrefLang="en" href="http://[^"]+/en/product/${product.id}"`),
    );
    expect(text).toMatch(/<meta property="og:type" content="product"/);
    expect(text).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/images\//);
  });

  it('carries schema.org Product and BreadcrumbList JSON-LD with one offer per SKU', async () => {
    const { text } = await server.request(`/en/product/${product.id}`);
    const blocks = jsonLd(text);
    const item = blocks.find((block) => block['@type'] === 'Product');
    expect(item).toMatchObject({ '@context': 'https://schema.org', name: product.name, brand: { '@type': 'Brand' } });
    expect(item.image[0]).toMatch(/^http:\/\/.+\/images\//);
    expect(item.sku).toEqual(expect.any(String));
    expect(item.offers['@type']).toBe('AggregateOffer');
    expect(item.offers.offers).toHaveLength(product.good_sku.length);
    for (const offer of item.offers.offers) {
      const sku = product.good_sku.find((candidate) => candidate.code === offer.sku)!;
      expect(offer.price).toBe(sku.price);
      expect(offer.price).toMatch(/^\d+(\.\d+)?$/);
      expect(offer.priceCurrency).toBe('CNY');
      expect(offer.availability).toBe(`https://schema.org/${sku.stock > 0 ? 'InStock' : 'OutOfStock'}`);
      expect(offer.url).toMatch(new RegExp(`/en/product/${product.id}\\?sku=${sku.id}$`));
    }
    const crumbs = blocks.find((block) => block['@type'] === 'BreadcrumbList');
    expect(crumbs.itemListElement.at(-1)).toMatchObject({
      name: product.name,
      position: crumbs.itemListElement.length,
    });
    if (product.category)
      expect(crumbs.itemListElement[1].item).toMatch(new RegExp(`/en/product/cate/${product.category.id}$`));
  });

  it('escapes the JSON-LD so it cannot close its script', async () => {
    const { text } = await server.request(`/en/product/${product.id}`);
    for (const match of text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
      expect(match[1]).not.toContain('<');
    }
  });
});

describe('display currency', () => {
  it('marks converted prices with ≈ in the chosen currency and says what is charged', async () => {
    const { text } = await server.request(`/en/product/${product.id}?sku=${inStock.id}`, {
      cookies: { currency: 'USD' },
    });
    expect(text).toContain('≈');
    expect(text).toMatch(/\$\d+\.\d{2}/);
    expect(text).toContain(`Charged in CNY: CN¥${inStock.price}`);
    // Offers stay in the settlement currency whatever the buyer looks at.
    const item = jsonLd(text).find((block) => block['@type'] === 'Product');
    expect(item.offers.priceCurrency).toBe('CNY');
  });

  it('shows settlement prices without ≈ by default', async () => {
    const { text } = await server.request(`/en/product/${product.id}`);
    expect(text).not.toContain('≈');
  });
});
