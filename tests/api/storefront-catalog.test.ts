import { describe, expect, it } from 'vitest';
import { MAX_KEYWORD_LENGTH } from '../../server/domains/catalog/catalog.schemas';
import { convert, type Currency } from '../../server/shared/money';
import { KEYWORD_MAX_LENGTH } from '../../app/components/catalog/listing';
import { parseMajorAmount, settlementBound } from '../../app/components/catalog/price-range';
import { useTestServer } from '../support/test-server';

const server = useTestServer();

const FORM = 'application/x-www-form-urlencoded';
const RATES: Record<Currency, number> = {
  CNY: 1,
  USD: 0.1389,
  EUR: 0.1302,
  JPY: 21.37,
  GBP: 0.1101,
  KRW: 196.85,
  AUD: 0.2112,
  CAD: 0.1921,
  HKD: 1.0812,
};

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');
}

/** The product cards of a page, in order: id and name from the card's link. */
function cards(html: string): Array<{ id: number; name: string }> {
  return [
    ...html.matchAll(/<a class="product-card__link" href="\/(?:en|zh-cn)\/product\/(\d+)"[^>]*>([^<]*)<\/a>/g),
  ].map((match) => ({ id: Number(match[1]), name: decode(match[2]!) }));
}

/** The visible texts of the card prices ('CN¥129.00', '≈$17.92'). */
function cardPrices(html: string): string[] {
  return [
    ...html.matchAll(/<span class="price price--md[^"]*"[^>]*>(.*?)<\/span><span class="product-card__sold"/g),
  ].map((match) => decode(match[1]!.replace(/<span class="sr-only">.*?<\/span>/g, '').replace(/<[^>]+>/g, '')));
}

interface ApiCard {
  id: number;
  name: string;
  price_minor: number;
}

async function apiList(
  query: Record<string, string | number>,
  lang = 'en',
): Promise<{ records: ApiCard[]; total: number }> {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const response = await server.request(`/v1/good/list?${params}`, { headers: { lang } });
  expect(response.status).toBe(200);
  return response.body.data;
}

describe('home page', () => {
  it.each([
    ['en', 'View all'],
    ['zh-cn', '查看全部'],
  ])('shows the collections with their products and the categories in %s', async (locale, viewAll) => {
    const [page, sections, tree] = await Promise.all([
      server.request(`/${locale}/`),
      server.request('/v1/goodGroup/list/1', { headers: { lang: locale } }),
      server.request('/v1/goodGroup/list/2', { headers: { lang: locale } }),
    ]);
    expect(page.status).toBe(200);
    const html = decode(page.text);
    expect(sections.body.data.length).toBeGreaterThan(0);
    for (const section of sections.body.data) {
      expect(html).toContain(section.name);
      expect(page.text).toContain(`href="/${locale}/product/cate/${section.id}"`);
      for (const product of section.products.slice(0, 4)) expect(html).toContain(product.name);
    }
    for (const category of tree.body.data) {
      expect(html).toContain(category.name);
      expect(page.text).toMatch(new RegExp(`src="${category.image}\\?w=480"`));
    }
    expect(html).toContain(viewAll);
    const names = cards(page.text).map((card) => card.name);
    expect(names).toContain(sections.body.data[0].products[0].name);
  });

  it('links every card to its product page and marks sold counts and swatches', async () => {
    const { text } = await server.request('/en/');
    const first = cards(text)[0];
    expect(first?.id).toBeGreaterThan(0);
    expect(text).toMatch(/Sold [\d,]+/);
    expect(text).toMatch(/<button type="button" class="swatch"/);
    expect((await server.request('/zh-cn/')).text).toMatch(/已售 [\d,]+/);
  });

  it('has a canonical URL, hreflang links and Organization / WebSite JSON-LD with a search action', async () => {
    const { text, headers } = await server.request('/en/');
    expect(headers.get('content-type')).toContain('text/html');
    expect(text).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/en"/);
    expect(text).toMatch(/hrefLang="zh-Hans"|hreflang="zh-Hans"/i);
    expect(text).toContain('"@type":"Organization"');
    expect(text).toContain('"@type":"SearchAction"');
    expect(text).toContain('/en/search?keyword={search_term_string}');
  });

  it('loads images lazily with resized variants', async () => {
    const { text } = await server.request('/en/');
    const images = [...text.matchAll(/<img class="product-card__image"[^>]*>/g)].map((match) => match[0]);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(image).toContain('loading="lazy"');
      expect(image).toMatch(/srcSet="[^"]*\?w=320 320w/);
      expect(image).toMatch(/width="\d+" height="\d+"/);
    }
  });
});

describe('category page', () => {
  it('lists the products of a category and its sub-categories, in the API order', async () => {
    const page = await server.request('/en/product/cate/1');
    expect(page.status).toBe(200);
    const expected = await apiList({ group_id: 1, page_size: 12 });
    expect(cards(page.text).map((card) => card.id)).toEqual(expected.records.map((card) => card.id));
    expect(page.text).toContain('<h1 class="catalog-header__title">Apparel</h1>');
    expect(page.text).toContain(`${expected.total} products`);
    // Sub-category chips and the first image loaded with priority.
    expect(page.text).toContain('href="/en/product/cate/10"');
    expect(page.text).toMatch(/<img class="product-card__image"[^>]*fetchpriority="high"/i);
  });

  it('shows the breadcrumb, with BreadcrumbList JSON-LD, for a sub-category', async () => {
    const { text, status } = await server.request('/zh-cn/product/cate/11');
    expect(status).toBe(200);
    expect(text).toContain('aria-current="page">针织</li>');
    expect(text).toContain('href="/zh-cn/product/cate/1"');
    expect(text).toContain('"@type":"BreadcrumbList"');
    expect(text).toMatch(/"item":"http:\/\/127\.0\.0\.1:\d+\/zh-cn\/product\/cate\/1"/);
    expect(text).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/zh-cn\/product\/cate\/11"/);
  });

  it.each(['999999', 'abc', '0', '1.5', '99999999999', '-1'])('answers 404 for the id %s', async (id) => {
    const response = await server.request(`/en/product/cate/${id}`);
    expect(response.status).toBe(404);
    expect(response.text).toContain('Page Not Found');
  });

  it('renders the requested page server-side, with pagination links and its own canonical URL', async () => {
    const first = await server.request('/en/product/cate/1?page_size=4');
    const second = await server.request('/en/product/cate/1?page=2&page_size=4');
    expect(second.status).toBe(200);
    const firstIds = cards(first.text).map((card) => card.id);
    const secondIds = cards(second.text).map((card) => card.id);
    expect(secondIds).toHaveLength(4);
    expect(secondIds.some((id) => firstIds.includes(id))).toBe(false);
    expect(secondIds).toEqual((await apiList({ group_id: 1, page: 2, page_size: 4 })).records.map((card) => card.id));
    expect(second.text).toContain('href="/en/product/cate/1?page=3&amp;page_size=4"');
    expect(second.text).toContain('href="/en/product/cate/1?page_size=4"');
    expect(second.text).toMatch(/<link rel="canonical" href="http:\/\/127\.0\.0\.1:\d+\/en\/product\/cate\/1\?page=2"/);
    expect(second.text).toContain('Apparel, page 2');
  });

  it('serves further pages as loader data for infinite scrolling', async () => {
    const response = await server.request('/en/product/cate/1.data?page=3&page_size=4');
    expect(response.status).toBe(200);
    const expected = await apiList({ group_id: 1, page: 3, page_size: 4 });
    for (const product of expected.records) expect(response.text).toContain(product.name);
  });

  it.each(['price_asc', 'price_desc', 'best_selling', 'newest'])('sorts by %s', async (sort) => {
    const page = await server.request(`/en/product/cate/1?sort=${sort}`);
    const expected = await apiList({ group_id: 1, page_size: 12, sort });
    expect(cards(page.text).map((card) => card.id)).toEqual(expected.records.map((card) => card.id));
    expect(page.text).toMatch(new RegExp(`<option value="${sort}" selected=""`));
  });

  it('filters by a price range in settlement minor units', async () => {
    const page = await server.request('/en/product/cate/1?price_min=15000&price_max=40000&sort=price_asc');
    const expected = await apiList({
      group_id: 1,
      page_size: 12,
      price_min: 15000,
      price_max: 40000,
      sort: 'price_asc',
    });
    expect(expected.records.length).toBeGreaterThan(0);
    expect(cards(page.text).map((card) => card.id)).toEqual(expected.records.map((card) => card.id));
  });

  it('filters by a price range typed in the display currency, agreeing with the prices shown', async () => {
    const page = await server.request('/en/product/cate/1?min=20&max=60&cur=USD', { cookies: { currency: 'USD' } });
    expect(page.status).toBe(200);
    const all = await apiList({ group_id: 1, page_size: 50 });
    const shownUsd = (minor: number) => convert({ amountMinor: minor, currency: 'CNY' }, 'USD', RATES).amountMinor;
    const expected = all.records.filter(
      (card) => shownUsd(card.price_minor) >= 2000 && shownUsd(card.price_minor) <= 6000,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(
      cards(page.text)
        .map((card) => card.id)
        .sort(),
    ).toEqual(expected.map((card) => card.id).sort());
    expect(page.text).toContain('$20.00 – $60.00');
    expect(page.text).toContain('name="min" ');
    expect(page.text).toMatch(/name="min"[^>]*value="20"/);
  });

  it('shows an empty state when nothing matches', async () => {
    const page = await server.request('/zh-cn/product/cate/1?price_min=1&price_max=2');
    expect(page.status).toBe(200);
    expect(page.text).toContain('无匹配数据');
    expect(cards(page.text)).toEqual([]);
  });

  it.each([
    ['sort=cheapest', 'Sort order'],
    ['page=abc', 'page'],
    ['page_size=500', 'page_size'],
    ['price_min=500&price_max=100', 'The lowest price cannot be above the highest price'],
    ['min=abc', 'Lowest price'],
    ['price_min=-5', 'Lowest price'],
  ])('answers bad input (%s) with a 400 page naming the problem', async (query, message) => {
    const page = await server.request(`/en/product/cate/1?${query}`);
    expect(page.status).toBe(400);
    expect(page.text).toContain('These filters could not be applied');
    expect(page.text).toContain(message);
    expect(page.text).toContain('<h1 class="catalog-header__title">Apparel</h1>');
  });
});

describe('search page', () => {
  it('finds products by an English word', async () => {
    const page = await server.request('/en/search?keyword=linen');
    expect(page.status).toBe(200);
    const found = cards(page.text);
    // Names and descriptions are searched, so not every hit says 'linen' in its name.
    expect(found.map((card) => card.id)).toEqual(
      (await apiList({ keyword: 'linen', page_size: 12 })).records.map((card) => card.id),
    );
    expect(found.filter((card) => card.name.toLowerCase().includes('linen')).length).toBeGreaterThan(1);
    expect(page.text).toContain('Results for “linen”');
    expect(page.text).toContain('<meta name="robots" content="noindex"/>');
  });

  it('finds products by a Chinese word, on Chinese and on English pages', async () => {
    const zh = await server.request(`/zh-cn/search?keyword=${encodeURIComponent('亚麻')}`);
    expect(zh.status).toBe(200);
    const zhCards = cards(zh.text);
    expect(zhCards.map((card) => card.id)).toEqual(
      (await apiList({ keyword: '亚麻', page_size: 12 }, 'zh-cn')).records.map((card) => card.id),
    );
    expect(zhCards.filter((card) => card.name.includes('亚麻')).length).toBeGreaterThan(1);
    const en = await server.request(`/en/search?keyword=${encodeURIComponent('亚麻')}`);
    expect(
      cards(en.text)
        .map((card) => card.id)
        .sort(),
    ).toEqual(zhCards.map((card) => card.id).sort());
  });

  it('sorts and filters results like the category page', async () => {
    const page = await server.request('/en/search?keyword=tea&sort=price_desc&price_max=20000');
    const expected = await apiList({ keyword: 'tea', sort: 'price_desc', price_max: 20000, page_size: 12 });
    expect(cards(page.text).map((card) => card.id)).toEqual(expected.records.map((card) => card.id));
    // The filter form keeps the keyword.
    expect(page.text).toContain('<input type="hidden" name="keyword" value="tea"/>');
  });

  it('lists every product without a keyword', async () => {
    const page = await server.request('/en/search');
    expect(page.status).toBe(200);
    expect(page.text).toContain('All products');
    expect(cards(page.text)).toHaveLength(12);
  });

  it('shows "No matching data" and suggestions when nothing matches', async () => {
    const en = await server.request('/en/search?keyword=qwertyuiop');
    expect(en.status).toBe(200);
    expect(en.text).toContain('No matching data');
    expect(en.text).toContain('href="/en/product/cate/1"');
    const zh = await server.request('/zh-cn/search?keyword=qwertyuiop');
    expect(zh.text).toContain('无匹配数据');
  });

  it('shortens a 2 KB keyword instead of failing', async () => {
    const keyword = 'linen '.repeat(342).slice(0, 2048);
    const page = await server.request(`/en/search?keyword=${encodeURIComponent(keyword)}`);
    expect([200, 400]).toContain(page.status);
    expect(page.text).toContain('Your search was shortened to its first 100 characters.');
    const chinese = await server.request(`/zh-cn/search?keyword=${encodeURIComponent('茶'.repeat(700))}`);
    expect([200, 400]).toContain(chinese.status);
  });

  it('never reflects a script tag in the keyword unescaped', async () => {
    for (const keyword of [
      '<script>alert(1)</script>',
      '"><script>alert(1)</script>',
      '</script><script>alert(1)</script>',
    ]) {
      const page = await server.request(`/en/search?keyword=${encodeURIComponent(keyword)}`);
      expect([200, 400]).toContain(page.status);
      expect(page.text).not.toContain('<script>alert(1)</script>');
      expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  it('keeps its keyword limit in step with the catalogue schema', () => {
    expect(KEYWORD_MAX_LENGTH).toBe(MAX_KEYWORD_LENGTH);
  });
});

describe('display currency', () => {
  it('shows settlement prices without a cookie', async () => {
    const prices = cardPrices((await server.request('/en/product/cate/4')).text);
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price).toMatch(/^CN¥\d+\.\d{2}$/);
    for (const price of cardPrices((await server.request('/zh-cn/product/cate/4')).text))
      expect(price).toMatch(/^\d+\.\d{2}元$/);
  });

  it('converts to US dollars, marked approximate with the amount charged', async () => {
    const page = await server.request('/en/product/cate/4', { cookies: { currency: 'USD' } });
    const prices = cardPrices(page.text);
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price).toMatch(/^≈\$\d+\.\d{2}$/);
    expect(page.text).toMatch(
      /title="Approximate price in USD\. You will be charged CN¥\d+\.\d{2} \(CNY\) at checkout\."/,
    );
    const zh = cardPrices((await server.request('/zh-cn/product/cate/4', { cookies: { currency: 'USD' } })).text);
    for (const price of zh) expect(price).toMatch(/^≈\d+\.\d{2}美元$/);
  });

  it('shows yen without decimals', async () => {
    const prices = cardPrices((await server.request('/en/product/cate/4', { cookies: { currency: 'JPY' } })).text);
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price).toMatch(/^≈¥\d+$/);
  });

  it('ignores a currency cookie that is not one of ours', async () => {
    const prices = cardPrices((await server.request('/en/product/cate/4', { cookies: { currency: 'XYZ' } })).text);
    for (const price of prices) expect(price).toMatch(/^CN¥\d+\.\d{2}$/);
  });

  it('offers the five currencies in the header picker', async () => {
    const { text } = await server.request('/en/', { cookies: { currency: 'EUR' } });
    for (const code of ['CNY', 'USD', 'EUR', 'JPY', 'GBP']) expect(text).toContain(`<option value="${code}"`);
    expect(text).toMatch(/<option value="EUR" selected="">/);
  });
});

describe('preferences', () => {
  const post = (body: string) =>
    server.request('/en/preferences', {
      method: 'POST',
      rawBody: body,
      headers: { origin: server.url, 'content-type': FORM },
    });

  it('remembers the display currency for a year and goes back to the page (no JavaScript)', async () => {
    const response = await post(`currency=USD&redirectTo=${encodeURIComponent('/en/product/cate/1?sort=price_asc')}`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/en/product/cate/1?sort=price_asc');
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('currency='));
    expect(cookie).toBe('currency=USD; Max-Age=31536000; Path=/; SameSite=Lax');
  });

  it('answers a fetcher post (no redirectTo) with data and the cookie', async () => {
    const response = await post('currency=JPY');
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((value) => value.startsWith('currency=JPY;'))).toBe(true);
  });

  it('refuses a currency that is not one of the five', async () => {
    for (const value of ['XYZ', 'usd', '', 'CNY;%20Path=/evil']) {
      const response = await post(`currency=${value}&redirectTo=/en/`);
      expect(response.status).toBe(303);
      expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('currency='))).toBe(false);
    }
    expect((await post('currency=XYZ')).status).toBe(400);
  });

  it('leaves the colour mode alone when only the currency changes, and still sets it when asked', async () => {
    const currency = await post('currency=GBP&redirectTo=/en/');
    expect(currency.headers.getSetCookie().some((cookie) => cookie.startsWith('color_mode='))).toBe(false);
    const mode = await post('colorMode=dark&redirectTo=/en/');
    expect(mode.headers.getSetCookie().some((cookie) => cookie.startsWith('color_mode=dark;'))).toBe(true);
  });

  it('refuses a post from another site', async () => {
    const response = await server.request('/en/preferences', {
      method: 'POST',
      rawBody: 'currency=USD&redirectTo=/en/',
      headers: { origin: 'https://evil.example', 'content-type': FORM },
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('currency='))).toBe(false);
  });
});

describe('page cache', () => {
  it.each(['/en/', '/en/product/cate/2?sort=best_selling', '/zh-cn/search?keyword=%E8%8C%B6&sort=price_asc'])(
    'serves %s from the cache with an ETag, separately per currency',
    async (path) => {
      const first = await server.request(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toBeTruthy();
      const second = await server.request(path);
      // The server's response cache marks what it answered from memory.
      expect(second.headers.get('x-cache') ?? second.headers.get('x-page-cache')).toBe('hit');
      expect(second.text).toBe(first.text);
      const revalidated = await server.request(path, { headers: { 'if-none-match': first.headers.get('etag')! } });
      expect(revalidated.status).toBe(304);
      const dollars = await server.request(path, { cookies: { currency: 'USD' } });
      expect(dollars.status).toBe(200);
      expect(dollars.text).not.toBe(first.text);
      expect(dollars.text).toContain('≈');
      expect(dollars.headers.get('etag')).not.toBe(first.headers.get('etag'));
    },
  );
});

describe('price range conversion', () => {
  const display = { settlement: 'CNY' as const, currency: 'USD' as const, rates: RATES };
  const shown = (minor: number) => convert({ amountMinor: minor, currency: 'CNY' }, 'USD', RATES).amountMinor;

  it('reads amounts in the currency’s own decimals', () => {
    expect(parseMajorAmount('17.5', 'USD')).toBe(1750);
    expect(parseMajorAmount('17,50', 'EUR')).toBe(1750);
    expect(parseMajorAmount('  20 ', 'USD')).toBe(2000);
    expect(parseMajorAmount('2000', 'JPY')).toBe(2000);
    expect(parseMajorAmount('2000.0', 'JPY')).toBe(2000);
    expect(parseMajorAmount('', 'USD')).toBeUndefined();
    for (const bad of ['abc', '-1', '1e5', '1.234', '2000.5', '99999999999']) {
      expect(parseMajorAmount(bad, bad === '2000.5' ? 'JPY' : 'USD')).toBeNull();
    }
  });

  it('turns display bounds into the settlement bounds that match what the buyer sees', () => {
    for (const typed of [1, 1792, 2000, 5555, 17_92_00]) {
      const min = settlementBound(typed, display, 'min');
      expect(shown(min)).toBeGreaterThanOrEqual(typed);
      expect(shown(min - 1)).toBeLessThan(typed);
      const max = settlementBound(typed, display, 'max');
      expect(shown(max)).toBeLessThanOrEqual(typed);
      expect(shown(max + 1)).toBeGreaterThan(typed);
    }
    // A product shown at exactly $17.92 is inside both [17.92, …] and […, 17.92].
    const price = 12900;
    expect(settlementBound(shown(price), display, 'min')).toBeLessThanOrEqual(price);
    expect(settlementBound(shown(price), display, 'max')).toBeGreaterThanOrEqual(price);
    expect(settlementBound(1234, { ...display, currency: 'CNY' }, 'min')).toBe(1234);
  });
});
