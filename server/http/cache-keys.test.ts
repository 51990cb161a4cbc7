import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import routes from '../../app/routes';
import { isSharedPage, pageKey, pageScopeOf, stockPageProductId } from './cache-keys';

interface RouteEntry {
  path?: string;
  file: string;
  children?: RouteEntry[];
}

/** Every page path under `/:locale` in app/routes.ts, with whether the account guard wraps it. */
function localePages(): Array<{ path: string; guarded: boolean }> {
  const localeRoute = (routes as RouteEntry[]).find((route) => route.path === ':locale');
  if (!localeRoute) throw new Error('app/routes.ts has no :locale route');
  const pages: Array<{ path: string; guarded: boolean }> = [];
  const walk = (entries: RouteEntry[], guarded: boolean) => {
    for (const entry of entries) {
      const inGuard = guarded || entry.file === 'routes/account-guard.tsx';
      if (entry.path !== undefined && !entry.path.includes('*')) pages.push({ path: entry.path, guarded: inGuard });
      else if (entry.path === undefined && !entry.children) pages.push({ path: '', guarded: inGuard });
      walk(entry.children ?? [], inGuard);
    }
  };
  walk(localeRoute.children ?? [], false);
  return pages;
}

describe('isSharedPage', () => {
  // The list in cache-keys.ts and app/routes.ts must agree: a page is shared exactly when it is
  // outside the account guard and shows the catalogue (everything but the preferences form post
  // and the visitor's own cart).
  it.each(localePages())('knows whether /en/$path is shared (guarded: $guarded)', ({ path, guarded }) => {
    const url = `/en/${path.replaceAll(/:\w+/g, '7')}`;
    expect(isSharedPage(url)).toBe(!guarded && path !== 'preferences' && path !== 'cart');
  });

  it('takes React Router data requests and queries of shared pages, and nothing outside a locale', () => {
    expect(isSharedPage('/en.data')).toBe(true);
    expect(isSharedPage('/zh-cn/product/3.data?_routes=root')).toBe(true);
    expect(isSharedPage('/en/search?keyword=tea')).toBe(true);
    expect(isSharedPage('/en/my/account.data')).toBe(false);
    expect(isSharedPage('/product/3')).toBe(false);
    expect(isSharedPage('/en/product/3/extra')).toBe(false);
  });
});

describe('pageKey', () => {
  const keyOf = (url: string, cookie?: string) =>
    pageKey({ url, headers: cookie ? { cookie } : {} } as IncomingMessage, 'v1', { hostInKey: false });

  it("gives the visitor's cart page no key, with or without a cart or a session, also as a data request", () => {
    for (const url of ['/en/cart', '/zh-cn/cart', '/en/cart.data', '/en/cart?login_error=google']) {
      expect(keyOf(url), url).toBeUndefined();
      expect(keyOf(url, 'cart_id=AAAAAAAAAAAAAAAAAAAAAAAA'), url).toBeUndefined();
    }
    expect(keyOf('/en/faq')).toBe('page|/en/faq|||v1');
    expect(keyOf('/en/cartoon')).toBe('page|/en/cartoon|||v1');
  });
});

describe('stockPageProductId', () => {
  it('names the product of its page, data request and API answer, and nothing else', () => {
    expect(
      [
        '/en/product/12',
        '/zh-cn/product/12.data',
        '/en/product/12/_.data',
        '/v1/good/12',
        '/en/product/12?utm_source=x',
      ].map(stockPageProductId),
    ).toEqual([12, 12, 12, 12, 12]);
    expect(
      [
        '/en/product/cate/12',
        '/en',
        '/v1/good/list',
        '/v1/good/GetldList',
        '/en/product/12/reviews',
        '/en/product/x1',
      ].map(stockPageProductId),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('pageScopeOf', () => {
  it('names the part of the catalogue each address shows', () => {
    expect(
      [
        '/en/product/12',
        '/v1/good/12',
        '/zh-cn/product/cate/7',
        '/en/product/cate/7.data?sort=price_asc',
        '/v1/goodGroup/7',
        '/v1/good/list?page=2&group_id=7&sort=newest',
        '/v1/good/list?page_size=3',
        '/v1/good/list',
        '/en/search?keyword=tea',
        '/v1/good/GetldList',
        '/en',
        '/zh-cn/',
        '/en.data',
        '/en/_.data',
        '/v1/goodGroup/list/1',
      ].map(pageScopeOf),
    ).toEqual([
      'product:12',
      'product:12',
      'group:7',
      'group:7',
      'group:7',
      'group:7',
      'listings',
      'listings',
      'listings',
      'listings',
      'home',
      'home',
      'home',
      'home',
      'home',
    ]);
    expect(['/en/faq', '/zh-cn/our-story', '/en/contact-us.data', '/zh-cn/videos'].map(pageScopeOf)).toEqual([
      'content:faq',
      'content:our-story',
      'content:contact-us',
      'content:videos',
    ]);
    expect(
      ['/xx/faq', '/en/faqs', '/v1/goodGroup/list/2', '/v1/siteManage', '/admin', '/en/cart'].map(pageScopeOf),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
