import { describe, expect, it } from 'vitest';
import { renderOrderMail, type OrderMailData } from './order-mail';

const data: OrderMailData = {
  locale: 'en',
  shopName: 'Lumen & Loom',
  buyerName: 'Li Lei',
  orderNo: '2611221200123456',
  total: '￥128.00',
  deadline: '22 Nov 2026, 12:30 UTC',
  items: [{ name: 'Linen <Shirt>', quantity: 2 }],
  orderUrl: 'https://shop.example/en/my/order/7',
  carrier: 'SF Express',
  trackingNo: 'SF100',
  trackingUrl: 'https://www.kuaidi100.com/chaxun?com=shunfeng&nu=SF100',
};

describe('renderOrderMail', () => {
  it('writes each kind in the order language, with the order link', () => {
    const placed = renderOrderMail('placed', data);
    expect(placed.subject).toBe('We received your order 2611221200123456');
    expect(placed.text).toContain('Please pay by 22 Nov 2026, 12:30 UTC');
    expect(placed.text).toContain('- Linen <Shirt> x 2');
    expect(placed.text).toContain('View your order: https://shop.example/en/my/order/7');
    expect(placed.text).not.toContain('kuaidi100');
    const paid = renderOrderMail('paid', { ...data, locale: 'zh-cn' });
    expect(paid.subject).toBe('订单 2611221200123456 已付款');
    expect(paid.text).toContain('Li Lei，您好：');
  });

  it('says what the gateway took in the paid mail, in the currency it charged', () => {
    const paid = renderOrderMail('paid', { ...data, paid: '€16.67 by PayPal' });
    expect(paid.text).toContain('We received your payment of €16.67 by PayPal for order 2611221200123456.');
    const unknown = renderOrderMail('paid', data);
    expect(unknown.text).toContain('We received your payment of ￥128.00 for order 2611221200123456.');
  });

  it('puts the tracking link in the shipped mail and escapes HTML', () => {
    const shipped = renderOrderMail('shipped', data);
    expect(shipped.text).toContain('Track your parcel: https://www.kuaidi100.com/chaxun?com=shunfeng&nu=SF100');
    expect(shipped.html).toContain('Linen &#60;Shirt&#62;');
    expect(shipped.html).not.toContain('<Shirt>');
  });
});
