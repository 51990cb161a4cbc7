import { describe, expect, it } from 'vitest';
import { amountView, rateText } from './checkout.service';

describe('amountView', () => {
  it('converts at the frozen rate into the display currency minor units', () => {
    expect(amountView(12_800, 'CNY', 'USD', 138_900)).toEqual({ amount_minor: 12_800, amount: '128.00', display_amount_minor: 1_778, display_amount: '17.78' });
    expect(amountView(12_800, 'CNY', 'JPY', 21_370_000)).toMatchObject({ display_amount_minor: 2_735, display_amount: '2735' });
    expect(amountView(12_800, 'CNY', 'CNY', 1_000_000)).toMatchObject({ display_amount_minor: 12_800 });
    expect(rateText(138_900)).toBe('0.138900');
  });
});
