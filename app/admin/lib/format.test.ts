import { describe, expect, it } from 'vitest';
import { translator } from '../../../i18n';
import { countText } from './format';

describe('countText', () => {
  it('says one order in the singular and the rest in the plural, in English', () => {
    const t = translator('en');
    expect(countText(t, 'console.orders.count', 1)).toBe('1 order matches');
    expect(countText(t, 'console.orders.count', 0)).toBe('0 orders match');
    expect(countText(t, 'console.orders.count', 2)).toBe('2 orders match');
    expect(countText(t, 'console.audit.changes', 1)).toBe('1 field changed');
    expect(countText(t, 'console.customer.signedOut', 1)).toBe('Signed out of 1 session.');
  });

  it('keeps one text for every count in Chinese', () => {
    const t = translator('zh-cn');
    expect(countText(t, 'console.orders.count', 1)).toBe('共 1 笔订单');
    expect(countText(t, 'console.orders.count', 3)).toBe('共 3 笔订单');
  });
});
