import { z } from 'zod';

/** Which kind of gateway page suits the buyer: a desktop page (Alipay: QR code or login) or a phone's (Alipay: opens the app). */
export const PAY_DEVICES = ['desktop', 'mobile'] as const;
export type PayDevice = (typeof PAY_DEVICES)[number];
export const payDevice = z.enum(PAY_DEVICES);

/** What the buyer's browser says about itself: its User-Agent and the `Sec-CH-UA-Mobile` client hint. */
export interface DeviceHints {
  userAgent?: string | null;
  mobileHint?: string | null;
}

/**
 * The buyer's device: what the client asked for, else Chromium's `Sec-CH-UA-Mobile` hint
 * (`?1` on phones), else "Mobi" in the User-Agent, which MDN recommends as the one reliable
 * token, with the Android, iPhone and iPod names for browsers that leave it out. Tablets get the
 * desktop page, which they show well.
 */
export function buyerDevice(asked: PayDevice | undefined, hints: DeviceHints): PayDevice {
  if (asked) return asked;
  if (hints.mobileHint === '?1') return 'mobile';
  if (hints.mobileHint === '?0') return 'desktop';
  return /Mobi|Android.+Mobile|iPhone|iPod/.test(hints.userAgent ?? '') ? 'mobile' : 'desktop';
}
