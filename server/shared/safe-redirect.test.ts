import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from './safe-redirect';

const OWN = 'http://127.0.0.1:3000';

describe('safeRedirectPath', () => {
  it.each([
    ['/en/products?sort=price', '/en/products?sort=price'],
    ['/zh-cn/product/12?sku=3#reviews', '/zh-cn/product/12?sku=3#reviews'],
    ['/en/search?keyword=tea%20cup', '/en/search?keyword=tea%20cup'],
    ['http://127.0.0.1:3000/en/cart', '/en/cart'],
    // The escaped tab stays escaped: a path segment named "%09", on this site.
    ['/%09/evil.example', '/%09/evil.example'],
    ['/en%0d%0aSet-Cookie:x=1', '/en%0d%0aSet-Cookie:x=1'],
    // Dot segments that would leave `//host` as the path are collapsed to one slash.
    ['/.//evil.example', '/evil.example'],
  ])('follows %j as %j', (value, expected) => {
    expect(safeRedirectPath(value, OWN)).toBe(expected);
  });

  it.each([
    '/\t/evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\n/evil.example',
    '/en\r\nSet-Cookie:x=1',
    '/en/\u0000',
    ' //evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example/',
    'http://127.0.0.1:3000@evil.example',
    'http://127.0.0.1:3001/en/',
    'https://127.0.0.1:3000/en/',
    'http://[::1',
  ])('refuses %j', (value) => {
    expect(safeRedirectPath(value, OWN)).toBeNull();
  });

  it('refuses what is not text', () => {
    expect(safeRedirectPath(null, OWN)).toBeNull();
    expect(safeRedirectPath(['/en/'], OWN)).toBeNull();
  });
});
