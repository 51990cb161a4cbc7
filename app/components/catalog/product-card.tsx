import { useState } from 'react';
import { Link } from 'react-router';
import type { ProductCard as ProductCardData, SwatchView } from '../../../server/domains/catalog/catalog.schemas';
import { htmlLang, localePath, useLocale, useT } from '~/lib/i18n';
import { CARD_IMAGE_SIZES, CARD_IMAGE_WIDTHS, imageAt, imageSrcSet } from './image';
import { Price } from './price';

export type { ProductCardData };

const MAX_SWATCHES = 5;
const countFormats = new Map<string, Intl.NumberFormat>();

function formatCount(value: number, lang: string): string {
  let format = countFormats.get(lang);
  if (!format) countFormats.set(lang, (format = new Intl.NumberFormat(lang)));
  return format.format(value);
}

/**
 * One product in a grid: square image, name (two lines at most), price in the display
 * currency, 'Sold n', colour swatches, a sold-out badge. The name's link covers the whole
 * card; the swatches sit above it. With JavaScript, pointing at or focusing a swatch that has
 * its own picture shows that picture, and a tap keeps it (phones have no hover).
 */
export type ImagePriority = 'high' | 'eager' | 'lazy';

export function ProductCard({ product, priority = 'lazy' }: { product: ProductCardData; priority?: ImagePriority }) {
  const t = useT();
  const locale = useLocale();
  const [hovered, setHovered] = useState<SwatchView | null>(null);
  const [chosen, setChosen] = useState<SwatchView | null>(null);
  const href = localePath(locale, `/product/${product.id}`);
  const shown = hovered ?? chosen;
  const image = shown?.image
    ? {
        url: shown.image,
        width: product.image?.width ?? 800,
        height: product.image?.height ?? 800,
        alt: `${product.name}, ${shown.name}`,
      }
    : product.image;
  const swatches = product.swatches.slice(0, MAX_SWATCHES);
  const hiddenSwatches = product.swatches.length - swatches.length;

  return (
    <div className="product-card" data-in-stock={product.in_stock}>
      <div className="product-card__media">
        {image ? (
          <img
            className="product-card__image"
            src={imageAt(image.url, 480)}
            srcSet={imageSrcSet(image.url, CARD_IMAGE_WIDTHS, image.width)}
            sizes={CARD_IMAGE_SIZES}
            width={image.width}
            height={image.height}
            alt={image.alt}
            loading={priority === 'lazy' ? 'lazy' : 'eager'}
            fetchPriority={priority === 'high' ? 'high' : undefined}
            decoding="async"
          />
        ) : (
          <span className="product-card__placeholder" aria-hidden="true">
            {Array.from(product.name)[0]}
          </span>
        )}
        {product.in_stock ? null : <span className="product-card__badge">{t('card.soldOut')}</span>}
      </div>
      <div className="product-card__body">
        <h3 className="product-card__name">
          <Link to={href} className="product-card__link" prefetch="intent">
            {product.name}
          </Link>
        </h3>
        <p className="product-card__meta">
          <Price amountMinor={product.price_minor} className="product-card__price" />
          <span className="product-card__sold">
            {t('card.sold', { count: formatCount(product.sold, htmlLang(locale)) })}
          </span>
        </p>
        {swatches.length > 0 ? (
          <ul className="swatches" role="list" aria-label={t('card.colours')} onMouseLeave={() => setHovered(null)}>
            {swatches.map((swatch) => (
              <li key={swatch.value_id}>
                {swatch.image ? (
                  <button
                    type="button"
                    className="swatch"
                    style={{ '--swatch': swatch.color } as React.CSSProperties}
                    aria-label={t('card.showColour', { name: swatch.name })}
                    aria-pressed={chosen?.value_id === swatch.value_id}
                    title={swatch.name}
                    onMouseEnter={() => setHovered(swatch)}
                    onFocus={() => setHovered(swatch)}
                    onBlur={() => setHovered(null)}
                    onClick={() => setChosen((current) => (current?.value_id === swatch.value_id ? null : swatch))}
                  />
                ) : (
                  <span
                    className="swatch"
                    role="img"
                    style={{ '--swatch': swatch.color } as React.CSSProperties}
                    aria-label={swatch.name}
                    title={swatch.name}
                  />
                )}
              </li>
            ))}
            {hiddenSwatches > 0 ? (
              <li className="swatches__more">
                <span aria-hidden="true">+{hiddenSwatches}</span>
                <span className="sr-only">{t('card.moreColours', { count: hiddenSwatches })}</span>
              </li>
            ) : null}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

/** Cards in a responsive grid: 2 columns on phones, 3 on tablets, 4 from 960px. */
export function ProductGrid({
  products,
  priorityCount = 0,
  className = '',
}: {
  products: ProductCardData[];
  /** How many leading cards are above the fold: loaded eagerly, the first with high priority. */
  priorityCount?: number;
  className?: string;
}) {
  return (
    <ul className={`product-grid ${className}`.trim()} role="list">
      {products.map((product, index) => (
        <li key={product.id} className="product-grid__item">
          <ProductCard product={product} priority={index >= priorityCount ? 'lazy' : index === 0 ? 'high' : 'eager'} />
        </li>
      ))}
    </ul>
  );
}
