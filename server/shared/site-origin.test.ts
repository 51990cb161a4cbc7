import { describe, expect, it } from 'vitest';
import { secureCookies, servedOverHttps } from './site-origin';

describe('https and secure cookies', () => {
  it('marks cookies Secure only for a production shop served over https', () => {
    expect(secureCookies({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' })).toBe(true);
    expect(secureCookies({ NODE_ENV: 'production', PUBLIC_URL: 'http://shop.example' })).toBe(false);
    expect(secureCookies({ NODE_ENV: 'production', PUBLIC_URL: undefined })).toBe(false);
    expect(secureCookies({ NODE_ENV: 'development', PUBLIC_URL: 'https://shop.example' })).toBe(false);
  });

  it('reads https from the scheme, not from a host that starts with the letters', () => {
    expect(servedOverHttps({ PUBLIC_URL: 'https://shop.example' })).toBe(true);
    expect(servedOverHttps({ PUBLIC_URL: 'httpshop.example' })).toBe(false);
    expect(servedOverHttps({ PUBLIC_URL: undefined })).toBe(false);
  });
});
