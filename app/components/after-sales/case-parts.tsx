import { lazy, Suspense, useState } from 'react';
import type { AfterSaleSummary } from '../../../server/domains/after-sales/after-sales.schemas';
import { useT } from '~/lib/i18n';
import { imageAt } from '../catalog/image';

/** The product page's full-screen viewer, fetched the first time a photo is opened. */
const ImageViewer = lazy(() => import('../product/image-viewer'));

type CaseState = AfterSaleSummary['state'];
export type CaseTone = 'pending' | 'progress' | 'done' | 'rejected' | 'muted';

/** The colour a case's state is shown in: waiting for the shop, under way, done, refused, or withdrawn. */
export function caseTone(state: CaseState): CaseTone {
  if (state === 'requested') return 'pending';
  if (state === 'completed') return 'done';
  if (state === 'rejected') return 'rejected';
  if (state === 'cancelled' || state === 'closed') return 'muted';
  return 'progress';
}

/** SPEC section 4's after-sale status (1-4) as a chip, coloured by where the case stands. */
export function CaseStatusChip({
  item,
  large = false,
}: {
  item: Pick<AfterSaleSummary, 'state' | 'status' | 'status_text'>;
  large?: boolean;
}) {
  return (
    <span
      className={`as-chip as-chip--${caseTone(item.state)}${large ? ' as-chip--large' : ''}`}
      data-status={item.status}
      data-testid="after-sale-status"
    >
      {item.status_text}
    </span>
  );
}

/** A product picture of a case line or an order line, or an empty tile. */
export function LineThumb({ image, size = 64 }: { image: string | null; size?: number }) {
  return (
    <span className="as-thumb" style={{ '--thumb-size': `${size}px` } as React.CSSProperties}>
      {image ? (
        <img src={imageAt(image, size * 2)} alt="" width={size} height={size} loading="lazy" decoding="async" />
      ) : null}
    </span>
  );
}

/**
 * Evidence photos as thumbnails that open the full-screen viewer. Each thumbnail is a link to
 * the photo itself, so without JavaScript it still opens (in the same tab).
 */
export function PhotoThumbs({ photos, label }: { photos: readonly string[]; label: string }) {
  const t = useT();
  const [open, setOpen] = useState<number | null>(null);
  if (photos.length === 0) return null;
  const images = photos.map((url, index) => ({
    url,
    width: 1600,
    height: 1600,
    alt: t('afterSaleUi.photoNumber', { number: index + 1, count: photos.length }),
  }));
  return (
    <>
      <ul className="as-photos" aria-label={label}>
        {images.map((image, index) => (
          <li key={image.url}>
            <a
              className="as-photos__item"
              href={image.url}
              onClick={(event) => {
                event.preventDefault();
                setOpen(index);
              }}
              data-testid="after-sale-photo"
            >
              <img src={image.url} alt={image.alt} width={72} height={72} loading="lazy" decoding="async" />
            </a>
          </li>
        ))}
      </ul>
      {open !== null ? (
        <Suspense fallback={null}>
          <ImageViewer images={images} start={open} onClose={() => setOpen(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
