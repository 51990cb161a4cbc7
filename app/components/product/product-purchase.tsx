import { useState } from 'react';
import { Link } from 'react-router';
import { formatPrice } from '../../../server/shared/money';
import { priceStyleFor, useDisplayCurrency } from '~/lib/currency';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { Price } from '../catalog/price';
import { AddToCartButton } from '../cart/add-to-cart';
import { QuantityStepper } from './quantity-stepper';
import { SkuOptions } from './sku-options';
import { matchingSkus, skuFor, type ChoiceProps } from './sku-selection';

const LOW_STOCK = 5;

/** Price, choices, stock, quantity, Add to cart and Buy Now: everything that follows the chosen SKU. */
export function ProductPurchase({ product, selection, onChoose }: ChoiceProps) {
  const t = useT();
  const locale = useLocale();
  const display = useDisplayCurrency();
  const [quantity, setQuantity] = useState('1');
  const sku = skuFor(product, selection);
  const stock = sku?.stock ?? 0;
  const count = Math.min(Math.max(Number(quantity) || 1, 1), Math.max(stock, 1));
  const prices = matchingSkus(product, selection).map((candidate) => candidate.price_minor);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  const missing = product.property.filter((_, index) => selection[index] === null).map((property) => property.name);
  const chosen = product.property.flatMap((property, index) =>
    property.values.filter((value) => value.id === selection[index]).map((value) => value.name),
  );
  const confirm = localePath(locale, '/order/confirm_order');
  const buyClass = 'button button--primary button--large purchase__buy';

  return (
    <div className="purchase">
      <div className="purchase__price" aria-live="polite">
        <span className="sr-only">{t('product.price')}</span>
        {sku ? (
          <Price amountMinor={sku.price_minor} size="lg" />
        ) : prices.length ? (
          <>
            <Price amountMinor={low} size="lg" />
            {high > low ? (
              <>
                {' – '}
                <Price amountMinor={high} size="lg" />
              </>
            ) : null}
          </>
        ) : null}
      </div>
      {sku && display.currency !== display.settlement ? (
        <p className="purchase__charged">
          {t('product.charged', {
            currency: sku.currency,
            price: formatPrice({ amountMinor: sku.price_minor, currency: sku.currency }, priceStyleFor(locale)),
          })}
        </p>
      ) : null}

      <SkuOptions product={product} selection={selection} onChoose={onChoose} />

      {product.property.length ? (
        <p className="purchase__selected" aria-live="polite">
          {missing.length ? (
            t('product.choose', { names: missing.join(' / ') })
          ) : (
            <>
              <span className="purchase__selected-label">{t('product.selected')}</span> {chosen.join(' / ')}
            </>
          )}
        </p>
      ) : null}

      <form className="purchase__form" method="get" action={confirm}>
        {sku ? <input type="hidden" name="sku_id" value={sku.id} /> : null}
        <div className="purchase__row">
          <label className="purchase__label" htmlFor="quantity">
            {t('product.quantity')}
          </label>
          <QuantityStepper value={quantity === '' ? '' : String(count)} max={stock} onChange={setQuantity} />
          {sku ? (
            <p
              className={`stock ${stock > 0 ? (stock <= LOW_STOCK ? 'stock--low' : 'stock--in') : 'stock--out'}`}
              aria-live="polite"
            >
              <span className="stock__dot" aria-hidden="true" />
              {stock > 0 ? t('product.inStock') : t('product.outOfStock')}
              {stock > 0 ? (
                <span className="stock__count">
                  {t(stock <= LOW_STOCK ? 'product.lowStock' : 'product.available', { n: stock })}
                </span>
              ) : null}
            </p>
          ) : null}
        </div>
        <div className="purchase__actions">
          <AddToCartButton skuId={sku && stock > 0 ? sku.id : null} quantity={count} />
          {sku && stock > 0 ? (
            <Link className={buyClass} to={`${confirm}?sku_id=${sku.id}&quantity=${count}`}>
              {t('product.buyNow')}
            </Link>
          ) : (
            <button type="button" className={buyClass} disabled>
              {t('product.buyNow')}
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
