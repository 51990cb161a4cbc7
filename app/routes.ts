import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

export default [
  index('routes/root-redirect.tsx'),
  route(':locale', 'routes/locale-layout.tsx', [
    index('routes/home.tsx'),
    route('videos', 'routes/content-page.tsx', { id: 'content-videos' }),
    route('our-story', 'routes/content-page.tsx', { id: 'content-our-story' }),
    route('faq', 'routes/content-page.tsx', { id: 'content-faq' }),
    route('contact-us', 'routes/content-page.tsx', { id: 'content-contact-us' }),
    route('preferences', 'routes/preferences.tsx'),
    route('search', 'routes/search.tsx'),
    route('product/cate/:id', 'routes/category.tsx'),
    route('product/:id', 'routes/product.tsx'),
    // A visitor's cart is theirs to see and change; sign-in waits for checkout (ADR 0115).
    route('cart', 'routes/cart.tsx'),
    // Login-only pages (SPEC section 2) go inside this guard; unknown paths under its prefixes 404 for members.
    layout('routes/account-guard.tsx', [
      layout('routes/account-area.tsx', [
        route('my/account', 'routes/account.tsx'),
        route('my/address', 'routes/address.tsx'),
        route('my/order', 'routes/orders.tsx'),
        route('my/order/:id', 'routes/order-detail.tsx'),
        route('my/order/:id/after-sale', 'routes/after-sale-request.tsx'),
        route('my/after-sale/:id', 'routes/after-sale-detail.tsx'),
      ]),
      route('order/confirm_order', 'routes/confirm-order.tsx'),
      route('order/pay', 'routes/pay.tsx'),
      route('result/success', 'routes/result.tsx', { id: 'result-success' }),
      route('result/fail', 'routes/result.tsx', { id: 'result-fail' }),
      route('my/*', 'routes/not-found.tsx', { id: 'guarded-my-not-found' }),
      route('order/*', 'routes/not-found.tsx', { id: 'guarded-order-not-found' }),
    ]),
    route('*', 'routes/not-found.tsx'),
  ]),
  // The operator console: rendered in the browser, its own layout and chunks (app/admin). Listed
  // last: the build orders shared modules by first use, and the storefront's vendor chunk
  // compresses best in its own order (tests/api/javascript-budget.test.ts).
  route('admin', 'admin/console-root.tsx', [
    route('sign-in', 'admin/routes/sign-in.tsx'),
    route('setup', 'admin/routes/setup.tsx'),
    route('invitation', 'admin/routes/invitation.tsx'),
    // Printed on its own page: no console frame around the invoice.
    route('orders/:id/invoice', 'admin/routes/commercial-invoice.tsx'),
    layout('admin/console-shell.tsx', [
      index('admin/routes/home.tsx'),
      route('two-step', 'admin/routes/two-step.tsx'),
      route('orders', 'admin/routes/orders.tsx'),
      route('orders/:id', 'admin/routes/order-detail.tsx'),
      route('after-sales', 'admin/routes/after-sales.tsx'),
      route('after-sales/:id', 'admin/routes/after-sale-detail.tsx'),
      route('customers', 'admin/routes/customers.tsx'),
      route('customers/:id', 'admin/routes/customer-detail.tsx'),
      route('products', 'admin/routes/products.tsx'),
      route('products/csv', 'admin/routes/product-import.tsx'),
      route('products/:id', 'admin/routes/product-editor.tsx'),
      route('groups', 'admin/routes/groups.tsx'),
      route('inventory', 'admin/routes/inventory.tsx'),
      route('staff', 'admin/routes/staff.tsx'),
      route('roles', 'admin/routes/roles.tsx'),
      route('audit', 'admin/routes/audit.tsx'),
      route('shipping', 'admin/routes/shipping.tsx'),
      route('coupons', 'admin/routes/coupons.tsx'),
      route('settings', 'admin/routes/settings.tsx'),
      route('settings/currencies', 'admin/routes/currencies.tsx'),
      route('content', 'admin/routes/content-pages.tsx'),
      route('content/:slug', 'admin/routes/content-page-editor.tsx'),
      route('profile', 'admin/routes/profile.tsx'),
      route('*', 'admin/routes/not-found.tsx', { id: 'admin-not-found' }),
    ]),
  ]),
] satisfies RouteConfig;
