import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGE_AREAS } from './areas';
import { LOCALES } from './locales';
import { MESSAGE_PACKS, type MessagePack } from './packs';

/**
 * The browser holds only the message packs its page asked for (i18n/packs.ts). These checks
 * read the storefront's sources and fail when a component uses a key that is not in a pack
 * loaded wherever that component renders, which would show the bare key to a buyer.
 */
const root = path.resolve(import.meta.dirname, '..');
const allKeys = new Set(Object.values(MESSAGE_AREAS).flatMap((area) => Object.keys(area.en)));

function packKeys(...packs: MessagePack[]): Set<string> {
  return new Set(packs.flatMap((pack) => MESSAGE_PACKS[pack].flatMap((area) => Object.keys(MESSAGE_AREAS[area].en))));
}

function sources(...patterns: string[]): string[] {
  return patterns.flatMap((pattern) => {
    const full = path.join(root, pattern);
    if (!pattern.endsWith('/')) return [full];
    return fs
      .readdirSync(full)
      .filter((name) => /\.tsx?$/.test(name) && !/\.(server|test)\.tsx?$/.test(name))
      .map((name) => path.join(full, name));
  });
}

/** Message keys a source file names: literal keys, and every key under a `prefix.${...}` template. */
function keysUsedBy(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const used: string[] = [];
  for (const [, literal = ''] of text.matchAll(/['"`]([a-zA-Z]+\.[a-zA-Z0-9.${}_-]+)['"`]/g)) {
    if (literal.includes('${')) {
      const prefix = literal.slice(0, literal.indexOf('${'));
      used.push(...[...allKeys].filter((key) => key.startsWith(prefix)));
    } else if (allKeys.has(literal)) {
      used.push(literal);
    }
  }
  return used;
}

function missingKeys(files: string[], available: Set<string>): string[] {
  return files.flatMap((file) =>
    keysUsedBy(file)
      .filter((key) => !available.has(key))
      .map((key) => `${path.relative(root, file)}: ${key}`),
  );
}

/** Rendered on every page (header, footer, toasts, product page, error pages). */
const EVERY_PAGE = sources(
  'app/root.tsx',
  'app/entry.client.tsx',
  'app/lib/',
  'app/components/layout/',
  'app/components/ui/',
  'app/components/product/',
  'app/components/catalog/header-search.tsx',
  'app/components/catalog/currency-picker.tsx',
  'app/components/catalog/price.tsx',
  'app/components/account/account-context.tsx',
  'app/components/account/account-button.tsx',
  'app/components/account/account-shell.tsx',
  'app/components/account/toast.tsx',
  'app/components/cart/cart-button.tsx',
  'app/components/cart/add-to-cart.tsx',
  'app/routes/product.tsx',
  'app/routes/locale-layout.tsx',
  'app/routes/not-found.tsx',
);

/** Rendered only under routes whose handle asks for `browse`. */
const BROWSE_PAGES = sources(
  'app/components/home/',
  'app/components/content/',
  'app/components/catalog/product-card.tsx',
  'app/components/catalog/product-listing.tsx',
  'app/components/catalog/listing-filters.tsx',
  'app/components/catalog/catalog-header.tsx',
  'app/routes/home.tsx',
  'app/routes/category.tsx',
  'app/routes/search.tsx',
  'app/routes/content-page.tsx',
);

/** Rendered only where the account pack is loaded: login-only pages and the login modal. */
const ACCOUNT_PAGES = sources(
  'app/components/account/',
  'app/components/address/',
  'app/components/checkout/',
  'app/components/orders/',
  'app/components/after-sales/',
  'app/components/cart/',
  ...[
    'account-guard',
    'account-area',
    'account',
    'address',
    'cart',
    'confirm-order',
    'order-detail',
    'orders',
    'pay',
    'result',
    'after-sale-request',
    'after-sale-detail',
  ].map((route) => `app/routes/${route}.tsx`),
);

describe('message packs', () => {
  it('every area is in exactly one pack', () => {
    const packed = Object.values(MESSAGE_PACKS).flat();
    expect([...packed].sort()).toEqual(Object.keys(MESSAGE_AREAS).sort());
  });

  it('no key is defined in two areas (a pack would silently take one of them)', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [area, messages] of Object.entries(MESSAGE_AREAS)) {
      for (const key of Object.keys(messages.en)) {
        if (seen.has(key)) twice.push(`${key} in ${seen.get(key)} and ${area}`);
        seen.set(key, area);
      }
    }
    expect(twice).toEqual([]);
  });

  it('every area has the same keys in both locales', () => {
    for (const messages of Object.values(MESSAGE_AREAS)) {
      for (const locale of LOCALES)
        expect(Object.keys(messages[locale]).sort()).toEqual(Object.keys(messages.en).sort());
    }
  });

  it('components on every page use only keys of the storefront pack', () => {
    expect(EVERY_PAGE.length).toBeGreaterThan(30);
    expect(missingKeys(EVERY_PAGE, packKeys('storefront'))).toEqual([]);
  });

  it('browsing pages use only keys of the storefront and browse packs, and ask for browse', () => {
    expect(missingKeys(BROWSE_PAGES, packKeys('storefront', 'browse'))).toEqual([]);
    for (const route of ['home', 'category', 'search', 'content-page']) {
      const text = fs.readFileSync(path.join(root, `app/routes/${route}.tsx`), 'utf8');
      expect(text, route).toMatch(/messagePacks: \['browse'\]/);
      expect(text, route).toMatch(/export const clientLoader = .*withMessagePacks\(args, handle\.messagePacks\)/);
    }
  });

  it('login-only pages and the login modal use only keys of the storefront and account packs', () => {
    expect(missingKeys(ACCOUNT_PAGES, packKeys('storefront', 'account'))).toEqual([]);
  });

  it('login-only pages ask for the account pack', () => {
    const guard = fs.readFileSync(path.join(root, 'app/routes/account-guard.tsx'), 'utf8');
    expect(guard).toMatch(/messagePacks: \['account'\]/);
    expect(guard).toMatch(/export const clientLoader = .*withMessagePacks\(args, handle\.messagePacks\)/);
  });

  it('the storefront pack leaves out the listing, home and account texts', () => {
    const storefront = packKeys('storefront');
    for (const key of ['listing.sort.newest', 'home.eyebrow', 'account.modal.guardTitle', 'checkout.productPrice']) {
      expect(allKeys.has(key), key).toBe(true);
      expect(storefront.has(key), key).toBe(false);
    }
  });
});
