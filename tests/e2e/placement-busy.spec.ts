import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders } from '../../server/db/schema';
import { placementTurns } from '../../server/domains/checkout/place-order.service';
import { untilHydrated, useBrowserSuite } from '../support/browser';
import { makeShopper, prepareSku } from '../support/buyers';
import { held } from '../support/held';

/**
 * Place order while the shop has more orders in hand than it places at once (ADR 0181), in a
 * real browser: the busy sentence is a toast on the confirm page (no error page), a second
 * click says it again, and once a turn is free the same page places exactly one order.
 */
const suite = useBrowserSuite({
  env: { ORDER_PLACEMENTS_AT_ONCE: '1', ORDER_PLACEMENT_MAX_WAIT_SECONDS: '0.3' },
  viewport: { width: 390, height: 844 },
  // The browser logs each 503 it is answered.
  expectedProblems: /status of 503/,
});

const BUSY = {
  en: 'The shop is very busy right now. Please try again in 5 seconds.',
  'zh-cn': '当前访问人数过多，请在 5 秒后重试。',
} as const;

describe('Place order while the shop is busy', () => {
  it.each(['en', 'zh-cn'] as const)(
    '%s: says so on the page, again on a second click, then places one order',
    async (locale) => {
      const buyer = await makeShopper(suite.server);
      const sku = await prepareSku(suite.server, { stock: 5 });
      const page = await suite.open({ colorScheme: locale === 'en' ? 'light' : 'dark' });
      await suite.context.addCookies([{ name: 'access_token', value: buyer.headers.token, url: suite.server.url }]);
      await page.goto(`${suite.server.url}/${locale}/order/confirm_order?sku_id=${sku.id}&quantity=1`);
      const placeOrder = page.getByTestId('place-order');
      await untilHydrated(placeOrder);

      const turn = held();
      const holding = placementTurns(suite.server.ctx).run(() => turn.released);
      try {
        await placeOrder.click();
        const toast = page.locator('.toast--error', { hasText: BUSY[locale] });
        await toast.waitFor();
        expect(page.url()).toContain('/order/confirm_order');
        if (process.env.SCREENSHOT_DIR)
          await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/placement-busy-${locale}.png` });
        await expect.poll(() => placeOrder.isEnabled()).toBe(true);
        await placeOrder.click();
        await expect.poll(() => toast.locator('.toast__count').textContent()).toBe('2');
      } finally {
        turn.release();
        await holding;
      }
      expect(await suite.server.ctx.db.select().from(orders).where(eq(orders.userId, buyer.id))).toEqual([]);

      await placeOrder.click();
      await page.waitForURL(/\/order\/pay\?order_id=\d+$/);
      expect(await suite.server.ctx.db.select().from(orders).where(eq(orders.userId, buyer.id))).toHaveLength(1);
    },
  );
});
