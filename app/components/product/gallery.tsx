import { lazy, Suspense, useRef, useState } from 'react';
import { useT } from '~/lib/i18n';
import { ExpandIcon, NextIcon, PrevIcon } from './icons';
import type { Product } from './sku-selection';

type Image = Product['images'][number];

/** The viewer's code is fetched the first time someone opens it, not with the page. */
const ImageViewer = lazy(() => import('./image-viewer'));

const MAIN_WIDTHS = [480, 800, 1200];

export function srcSet(image: Image): string | undefined {
  const widths = MAIN_WIDTHS.filter((width) => width <= image.width);
  return widths.length ? widths.map((width) => `${image.url}?w=${width} ${width}w`).join(', ') : undefined;
}

/**
 * Main image with previous/next, a thumbnail strip and the full-screen viewer. The main
 * image and the thumbnails link to the image files, so they still work without JavaScript.
 */
export function Gallery({
  images,
  active,
  onActive,
}: {
  images: Image[];
  active: number;
  onActive: (index: number) => void;
}) {
  const t = useT();
  const [viewer, setViewer] = useState(false);
  const swipe = useRef<number | null>(null);
  const image = images[active] ?? images[0];
  if (!image) return <div className="gallery gallery--empty" />;
  const total = images.length;
  const step = (delta: number) => onActive((active + delta + total) % total);

  return (
    <section className="gallery" aria-label={t('product.images')}>
      <div
        className="gallery__stage"
        // A horizontal swipe on a touch screen pages through the images.
        onPointerDown={(event) => {
          swipe.current = event.pointerType === 'touch' ? event.clientX : null;
        }}
        onPointerUp={(event) => {
          const dx = swipe.current === null ? 0 : event.clientX - swipe.current;
          if (Math.abs(dx) > 40 && total > 1) step(dx < 0 ? 1 : -1);
        }}
      >
        <a
          className="gallery__main"
          href={image.url}
          onClick={(event) => {
            event.preventDefault();
            setViewer(true);
          }}
        >
          <img
            src={`${image.url}?w=800`}
            srcSet={srcSet(image)}
            sizes="(min-width: 960px) 600px, 100vw"
            width={image.width}
            height={image.height}
            alt={image.alt}
            fetchPriority="high"
          />
          <span className="gallery__enlarge">
            <ExpandIcon size={18} />
            <span className="sr-only">{t('product.enlarge')}</span>
          </span>
        </a>
        {total > 1 ? (
          <>
            <button
              type="button"
              className="gallery__arrow gallery__arrow--prev"
              aria-label={t('product.previous')}
              onClick={() => step(-1)}
            >
              <PrevIcon />
            </button>
            <button
              type="button"
              className="gallery__arrow gallery__arrow--next"
              aria-label={t('product.next')}
              onClick={() => step(1)}
            >
              <NextIcon />
            </button>
            <p className="gallery__count" aria-hidden="true">
              {active + 1} / {total}
            </p>
          </>
        ) : null}
      </div>
      {total > 1 ? (
        <ul className="gallery__thumbs" role="list">
          {images.map((thumb, index) => (
            <li key={thumb.url}>
              <a
                className="gallery__thumb"
                href={thumb.url}
                aria-current={index === active ? 'true' : undefined}
                aria-label={t('product.showImage', { n: index + 1, total })}
                onClick={(event) => {
                  event.preventDefault();
                  onActive(index);
                }}
              >
                <img src={`${thumb.url}?w=160`} width={80} height={80} alt="" loading="lazy" decoding="async" />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {viewer ? (
        <Suspense fallback={null}>
          <ImageViewer
            images={images}
            start={active}
            onClose={(index) => {
              setViewer(false);
              onActive(index);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
