import { defineMessages } from '../define';

/** The console's orders, refunds and dashboard (server/domains/orders/admin-*, server/domains/payments/refunds*). */
export const adminOrderMessages = defineMessages({
  en: {
    'refund.notFound': 'Refund not found',
    'refund.notPaid': 'This order has no captured payment to refund',
    'refund.exceedsRefundable': 'At most {amount} of this order can still be refunded',
    'refund.belowSmallest':
      'The smallest refund of this payment is {smallest}: it was charged in {currency}, and {amount} is less than its smallest unit',
    'refund.keyReused': 'This idempotency key already names a refund of another order',
    'refund.reportWaitsForOwn':
      'A refund of this payment is still waiting for the gateway’s answer; send this report again later',
    'refund.notAwaitingApproval': 'This refund is not waiting for approval',
    'refund.selfApproval': 'You asked for this refund: another member must approve it',
    'refund.approverLimit': 'Your refund limit does not cover {amount}',
    'order.history.cancelledByStaff': 'Cancelled by the shop',
    'order.history.refundedInFull': 'Refunded in full',
    'adminOrders.bulk.header': 'The first line must be the header order_no,carrier,tracking_no',
    'adminOrders.bulk.tooManyRows': 'A bulk shipment takes at most {max} rows',
    'adminOrders.bulk.columns': 'Expected three values: order number, carrier, tracking number',
    'adminOrders.bulk.orderNotFound': 'No order numbered {orderNo}',
    'adminOrders.bulk.repeated': 'This order is already on line {row}',
    'adminOrders.tracking.shipped': 'Shipped with {carrier}, tracking {trackingNo}',
    'adminOrders.tracking.delivered': 'Delivered',
    'mail.refund.subject': 'Refund for order {orderNo}',
    'mail.refund.body':
      'We have refunded {amount} for your order {orderNo}. Depending on your bank it can take a few days to appear on your statement.',
  },
  'zh-cn': {
    'refund.notFound': '退款不存在',
    'refund.notPaid': '该订单没有可退款的已支付款项',
    'refund.exceedsRefundable': '该订单最多还可退款 {amount}',
    'refund.belowSmallest': '该笔付款最少退款 {smallest}：它以 {currency} 扣款，{amount} 不足其最小单位',
    'refund.keyReused': '该幂等键已用于另一个订单的退款',
    'refund.reportWaitsForOwn': '该付款有一笔退款仍在等待支付网关答复，请稍后重发此通知',
    'refund.notAwaitingApproval': '该退款不在待审批状态',
    'refund.selfApproval': '这笔退款由您发起，需要另一位成员审批',
    'refund.approverLimit': '您的退款额度不足以审批 {amount}',
    'order.history.cancelledByStaff': '商家取消了订单',
    'order.history.refundedInFull': '已全额退款',
    'adminOrders.bulk.header': '第一行必须是表头 order_no,carrier,tracking_no',
    'adminOrders.bulk.tooManyRows': '批量发货最多 {max} 行',
    'adminOrders.bulk.columns': '每行需要三个值：订单号、快递公司、运单号',
    'adminOrders.bulk.orderNotFound': '找不到订单号为 {orderNo} 的订单',
    'adminOrders.bulk.repeated': '该订单已在第 {row} 行出现',
    'adminOrders.tracking.shipped': '已由{carrier}发货，运单号 {trackingNo}',
    'adminOrders.tracking.delivered': '已送达',
    'mail.refund.subject': '订单 {orderNo} 的退款',
    'mail.refund.body': '我们已为您的订单 {orderNo} 退款 {amount}。到账时间取决于您的银行，可能需要几天。',
  },
});
