import { defineMessages } from '../define';

/** Duties and import taxes: the checkout line, the order pages and the order emails. */
export const dutyMessages = defineMessages({
  en: {
    'duties.label': 'Duties and import taxes',
    'duties.estimateLabel': 'Estimated duties and import taxes',
    'duties.paidNow': 'Paid now: nothing more to pay on delivery',
    'duties.estimate': 'Estimated {amount}, payable to the carrier on delivery',
    'duties.paidNowAndEstimate': 'Paid now; a further estimated {amount} is payable to the carrier on delivery',
    'duties.hidden':
      'Duties and import taxes may be payable to the carrier on delivery; we cannot estimate them for this order',
    'duties.none': 'No duties or import taxes are due on this parcel',
    'duties.mailLine': 'Duties and import taxes: {amount}',
  },
  'zh-cn': {
    'duties.label': '关税及进口税',
    'duties.estimateLabel': '预估关税及进口税',
    'duties.paidNow': '已随订单支付：收货时无需再付',
    'duties.estimate': '预估 {amount}，收货时向承运商支付',
    'duties.paidNowAndEstimate': '部分已随订单支付；另有预估 {amount} 需在收货时向承运商支付',
    'duties.hidden': '收货时承运商可能收取关税及进口税；此订单暂无法预估',
    'duties.none': '此包裹无需缴纳关税或进口税',
    'duties.mailLine': '关税及进口税：{amount}',
  },
});
