import { defineMessages } from '../define';

/** What the admin API's customers and audit log endpoints answer (server/domains/customers/admin-customers.service.ts). */
export const adminCustomerMessages = defineMessages({
  en: {
    'admin.customers.notFound': 'No such customer',
    'admin.customers.erased': "This customer's personal data was erased; the account can no longer be changed",
    'admin.customers.confirmMismatch': "The email you typed is not this customer's email",
    'admin.customers.openOrders':
      'Orders {orders} are still under way. Erase the customer once they are delivered, cancelled or settled',
    'admin.audit.invalidDate': 'Give a date as YYYY-MM-DD, or a date and time with its offset',
  },
  'zh-cn': {
    'admin.customers.notFound': '没有这位顾客',
    'admin.customers.erased': '该顾客的个人数据已删除，账号无法再修改',
    'admin.customers.confirmMismatch': '输入的邮箱与该顾客的邮箱不一致',
    'admin.customers.openOrders': '订单 {orders} 仍在进行中。请在订单送达、取消或结清后再删除该顾客的数据',
    'admin.audit.invalidDate': '请按 YYYY-MM-DD 填写日期，或填写带时区的日期时间',
  },
});
