import { describe, expect, it } from 'vitest';
import { buyerDevice } from './buyer-device';

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ipad: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  alipayApp:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 AlipayClient/10.5.36',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
};

describe('the buyer device a gateway page is chosen for', () => {
  it('reads phones from the User-Agent, tablets and computers as desktop', () => {
    expect(buyerDevice(undefined, { userAgent: UA.iphone })).toBe('mobile');
    expect(buyerDevice(undefined, { userAgent: UA.android })).toBe('mobile');
    expect(buyerDevice(undefined, { userAgent: UA.firefoxAndroid })).toBe('mobile');
    expect(buyerDevice(undefined, { userAgent: UA.alipayApp })).toBe('mobile');
    expect(buyerDevice(undefined, { userAgent: UA.androidTablet })).toBe('desktop');
    expect(buyerDevice(undefined, { userAgent: UA.ipad })).toBe('desktop');
    expect(buyerDevice(undefined, { userAgent: UA.windows })).toBe('desktop');
    expect(buyerDevice(undefined, {})).toBe('desktop');
  });

  it('believes the client hint over the User-Agent, and the client’s own choice over both', () => {
    expect(buyerDevice(undefined, { userAgent: UA.windows, mobileHint: '?1' })).toBe('mobile');
    expect(buyerDevice(undefined, { userAgent: UA.android, mobileHint: '?0' })).toBe('desktop');
    expect(buyerDevice('desktop', { userAgent: UA.iphone, mobileHint: '?1' })).toBe('desktop');
    expect(buyerDevice('mobile', { userAgent: UA.windows })).toBe('mobile');
  });
});
