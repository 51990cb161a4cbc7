import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { AfterSalePage } from '../../../server/domains/after-sales/after-sales.schemas';
import type { OrderCounts, OrderPage, OrderSummary } from '../../../server/domains/orders/orders.schemas';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { badgeText } from '~/lib/cart-count';
import { imageAt } from '../catalog/image';
import { AmountText, totalLabel } from '../checkout/order-summary';
import { PackageIcon } from '../checkout/icons';
import { AfterSaleCards } from '../after-sales/case-list';
import { OrderActions } from './order-actions';
import { formatDate } from '~/lib/dates';
import { ORDER_TABS, ORDER_TAB_COUNT, orderTabHref, type OrderTab } from '~/lib/order-tabs';

/** What a tab lists: orders (with those a case can still be opened on), or on After-Sales the cases. */
export type OrderListContent =
  { kind: 'orders'; page: OrderPage; requestable: number[] } | { kind: 'cases'; page: AfterSalePage };

/** /{locale}/my/order: tabs with badge counts, the orders of the tab (the cases on After-Sales), paging. */
export function OrderList({
  tab,
  counts,
  list,
}: {
  tab: OrderTab;
  counts: OrderCounts | null;
  list: OrderListContent;
}) {
  const t = useT();
  const locale = useLocale();
  const { page } = list;
  const base = localePath(locale, '/my/order');
  const tabs = useRef<HTMLElement>(null);

  // On a phone the tabs scroll sideways: bring the current one (After-Sales is the last) into view.
  useEffect(() => {
    const nav = tabs.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    const offset = current.getBoundingClientRect().left - nav.getBoundingClientRect().left;
    nav.scrollLeft += offset - (nav.clientWidth - current.offsetWidth) / 2;
  }, [tab]);
  const pages = Math.max(1, Math.ceil(page.total / page.page_size));
  const hrefFor = (nextTab: OrderTab, nextPage = 1) => orderTabHref(base, nextTab, nextPage);

  return (
    <div className="container checkout-page">
      <header className="checkout-head">
        <h1 className="checkout-title">{t('orders.title')}</h1>
      </header>
      <nav className="order-tabs" aria-label={t('orders.tabs')} ref={tabs}>
        {ORDER_TABS.map((item) => {
          const count = counts?.[ORDER_TAB_COUNT[item]] ?? 0;
          return (
            <Link
              key={item}
              to={hrefFor(item)}
              className="order-tabs__tab"
              aria-current={item === tab ? 'page' : undefined}
              data-testid={`order-tab-${item}`}
              preventScrollReset
            >
              {t(`orders.tab.${item}`)}
              {count > 0 && item !== 'all' ? (
                <span className="order-tabs__badge" data-testid={`order-tab-count-${item}`}>
                  {badgeText(count)}
                </span>
              ) : null}
            </Link>
          );
        })}
      </nav>
      {page.records.length === 0 ? (
        <div className="empty-state" data-testid="orders-empty">
          <span className="empty-state__icon">
            <PackageIcon size={36} />
          </span>
          <p className="empty-state__title">{t('orders.empty')}</p>
          <Link className="button button--primary" to={localePath(locale, '/')}>
            {t('cart.continue')}
          </Link>
        </div>
      ) : list.kind === 'cases' ? (
        <AfterSaleCards cases={list.page.records} />
      ) : (
        <ul className="order-list">
          {list.page.records.map((order) => (
            <OrderCard key={order.id} order={order} requestable={list.requestable.includes(order.id)} />
          ))}
        </ul>
      )}
      {pages > 1 ? (
        <nav className="order-paging" aria-label={t('orders.pagination')}>
          {page.page > 1 ? (
            <Link className="button button--secondary button--small" to={hrefFor(tab, page.page - 1)}>
              {t('orders.prev')}
            </Link>
          ) : (
            <span />
          )}
          <span className="order-paging__info">{t('orders.page', { page: page.page, pages })}</span>
          {page.page < pages ? (
            <Link className="button button--secondary button--small" to={hrefFor(tab, page.page + 1)}>
              {t('orders.next')}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}

function OrderCard({ order, requestable }: { order: OrderSummary; requestable: boolean }) {
  const t = useT();
  const locale = useLocale();
  const detail = localePath(locale, `/my/order/${order.id}`);
  const shown = order.items.slice(0, 4);
  return (
    <li className="order-card" data-testid="order-card" data-order-no={order.order_no}>
      <div className="order-card__head">
        <span className="order-card__no">{t('orders.orderNo', { orderNo: order.order_no })}</span>
        <span className="order-card__date">{formatDate(order.created_at, locale)}</span>
        <span className={`order-status order-status--${order.status}`}>{order.status_text}</span>
      </div>
      <Link to={detail} className="order-card__body">
        <span className="order-card__images">
          {shown.map((item) => (
            <span className="order-card__image" key={item.sku_id}>
              {item.image ? (
                <img src={imageAt(item.image, 160)} alt="" width={64} height={64} loading="lazy" decoding="async" />
              ) : null}
            </span>
          ))}
        </span>
        <span className="order-card__names">
          <span className="order-card__name">{order.items[0]?.name}</span>
          {order.items[0]?.properties ? <span className="order-card__props">{order.items[0].properties}</span> : null}
          <span className="order-card__count">{t('orders.itemsCount', { count: order.item_count })}</span>
        </span>
        <span className="order-card__total">
          <span className="order-card__total-label">{t(totalLabel(order.pay_status))}</span>
          <AmountText amount={order.total} view={order} strong />
        </span>
      </Link>
      <div className="order-card__foot">
        <Link to={detail} className="link-button">
          {t('orders.details')}
        </Link>
        <OrderActions order={order} size="small" canRequestAfterSale={requestable} />
      </div>
    </li>
  );
}
