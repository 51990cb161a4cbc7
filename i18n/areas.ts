import { accountUiMessages } from './messages/account-ui';
import { accountMessages } from './messages/accounts';
import { addressMessages } from './messages/addresses';
import { checkoutUiMessages } from './messages/checkout-ui';
import { catalogMessages } from './messages/catalog';
import { errorMessages } from './messages/errors';
import { fieldMessages } from './messages/fields';
import { orderMessages } from './messages/orders';
import { listingMessages } from './messages/storefront-catalog';
import { paymentMessages } from './messages/payments';
import { productPageMessages } from './messages/product-page';
import { shellMessages } from './messages/shell';
import { browseMessages } from './messages/browse';
import { adminMessages } from './messages/admin';
import { adminConsoleMessages } from './messages/admin-console';
import { adminStaffMessages } from './messages/admin-staff';
import { adminOrderMessages } from './messages/admin-orders';
import { adminCustomerMessages } from './messages/admin-customers';
import { adminAfterSaleMessages } from './messages/admin-after-sales';
import { afterSaleMessages } from './messages/after-sales';
import { afterSaleUiMessages } from './messages/after-sales-ui';
import { imageUploadMessages } from './messages/image-uploads';
import { dutyMessages } from './messages/duties';
import { adminDutyMessages } from './messages/admin-duties';
import { adminMediaMessages } from './messages/admin-media';
import { adminGroupsInventoryMessages } from './messages/admin-groups-inventory';
import { adminCurrencyMessages } from './messages/admin-currencies';
import { adminShippingCouponMessages } from './messages/admin-shipping-coupons';
import { adminProductMessages } from './messages/admin-products';
import { adminProductCsvMessages } from './messages/admin-product-csv';
import { adminContentMessages } from './messages/admin-content';

/** Every message area, by name. The server holds them all; the browser loads them in packs (./packs.ts). */
export const MESSAGE_AREAS = {
  errors: errorMessages,
  fields: fieldMessages,
  shell: shellMessages,
  catalog: catalogMessages,
  listing: listingMessages,
  productPage: productPageMessages,
  browse: browseMessages,
  accounts: accountMessages,
  accountUi: accountUiMessages,
  addresses: addressMessages,
  orders: orderMessages,
  payments: paymentMessages,
  afterSales: afterSaleMessages,
  afterSalesUi: afterSaleUiMessages,
  checkoutUi: checkoutUiMessages,
  duties: dutyMessages,
  imageUploads: imageUploadMessages,
  admin: adminMessages,
  adminConsole: adminConsoleMessages,
  adminStaff: adminStaffMessages,
  adminOrders: adminOrderMessages,
  adminCustomers: adminCustomerMessages,
  adminAfterSales: adminAfterSaleMessages,
  adminDuties: adminDutyMessages,
  adminMedia: adminMediaMessages,
  adminGroupsInventory: adminGroupsInventoryMessages,
  adminCurrencies: adminCurrencyMessages,
  adminShippingCoupons: adminShippingCouponMessages,
  adminProducts: adminProductMessages,
  adminProductCsv: adminProductCsvMessages,
  adminContent: adminContentMessages,
} as const;

export type MessageArea = keyof typeof MESSAGE_AREAS;
