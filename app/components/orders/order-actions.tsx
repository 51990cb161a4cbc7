import { useEffect, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { ConfirmDialog } from '../account/image-upload';
import { ORDER_STATUS } from '../../../server/shared/order-status';
import { useToast } from '../account/toast';

type Answer = { ok: boolean; error?: string; done?: 'cancel' | 'confirm' } | undefined;

/**
 * Pay now (status 1), Cancel order (status 1, asks first, then 'Canceled Successfully') and
 * Confirm receipt (status 20, asks first). Both post to the order detail route's action.
 * Request after-sale (when `canRequestAfterSale`: paid, within the window, units left) leads
 * to the request page.
 */
export function OrderActions({
  order,
  size = 'normal',
  canRequestAfterSale = false,
}: {
  order: { id: number; order_no: string; status: number; can_cancel: boolean; can_confirm: boolean };
  size?: 'normal' | 'small';
  canRequestAfterSale?: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const fetcher = useFetcher<Answer>();
  const [asking, setAsking] = useState<'cancel' | 'confirm' | null>(null);
  const small = size === 'small' ? ' button--small' : '';
  const action = localePath(locale, `/my/order/${order.id}`);

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return;
    if (!fetcher.data.ok) toast.show(fetcher.data.error ?? '', 'error');
    else toast.show(fetcher.data.done === 'cancel' ? t('orders.canceled') : t('orders.confirmed'), 'success');
  }, [fetcher.state, fetcher.data, toast, t]);

  if (order.status !== ORDER_STATUS.pendingPayment && !order.can_confirm && !canRequestAfterSale) return null;
  return (
    <div className="order-actions">
      {canRequestAfterSale ? (
        <Link
          className={`button button--secondary${small}`}
          to={localePath(locale, `/my/order/${order.id}/after-sale`)}
          data-testid="order-after-sale"
        >
          {t('afterSaleUi.requestAction')}
        </Link>
      ) : null}
      {order.can_cancel ? (
        <button
          type="button"
          className={`button button--secondary${small}`}
          onClick={() => setAsking('cancel')}
          data-testid="order-cancel"
        >
          {t('orders.cancel')}
        </button>
      ) : null}
      {order.status === ORDER_STATUS.pendingPayment ? (
        <Link
          className={`button button--primary${small}`}
          to={`${localePath(locale, '/order/pay')}?order_id=${order.id}`}
          data-testid="order-pay"
        >
          {t('orders.payNow')}
        </Link>
      ) : null}
      {order.can_confirm ? (
        <button
          type="button"
          className={`button button--primary${small}`}
          onClick={() => setAsking('confirm')}
          data-testid="order-confirm"
        >
          {t('orders.confirmReceipt')}
        </button>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        tone={asking === 'cancel' ? 'danger' : 'warning'}
        title={asking === 'cancel' ? t('orders.cancelTitle') : t('orders.confirmTitle')}
        text={
          asking === 'cancel'
            ? t('orders.cancelText', { orderNo: order.order_no })
            : t('orders.confirmText', { orderNo: order.order_no })
        }
        onCancel={() => setAsking(null)}
        onConfirm={async () => {
          await fetcher.submit({ intent: asking ?? '' }, { method: 'post', action });
          setAsking(null);
        }}
      />
    </div>
  );
}
