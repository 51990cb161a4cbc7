import { useState } from 'react';
import { ApiError, api } from '~/lib/api-client';
import { useLocale, useT } from '~/lib/i18n';
import { useToast } from '../account/toast';
import { CartIcon } from '../ui/icons';
import { announceCartCount } from '~/lib/cart-count';

/**
 * 'Add to cart' beside Buy Now. Works for visitors too: `POST /v1/cart/items` keeps their
 * cart under an httpOnly cookie and merges it into the account at login. The answer's count
 * goes straight to the header badge.
 */
export function AddToCartButton({ skuId, quantity }: { skuId: number | null; quantity: number }) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  const add = async () => {
    if (skuId === null || busy) return;
    setBusy(true);
    try {
      const cart = await api<{ count: number }>('/cart/items', {
        method: 'POST',
        body: { sku_id: skuId, quantity },
        locale,
      });
      announceCartCount(cart.count);
      toast.show(t('cart.added'), 'success');
    } catch (error) {
      if (error instanceof ApiError && !error.sessionLost) toast.show(error.message, 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className="button button--secondary button--large purchase__cart"
      disabled={skuId === null || busy}
      aria-busy={busy}
      onClick={add}
      data-testid="add-to-cart"
    >
      <CartIcon size={20} />
      {busy ? t('cart.adding') : t('cart.add')}
    </button>
  );
}
