import { useEffect, useRef, useState } from 'react';
import { CloseIcon } from '../ui/icons';
import { useT } from '~/lib/i18n';
import { icon, NextIcon, PrevIcon } from './icons';

const ZoomInIcon = icon('M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM15.3 15.3L20 20M8 10.5h5M10.5 8v5');
const ZoomOutIcon = icon('M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM15.3 15.3L20 20M8 10.5h5');
const ResetIcon = icon('M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4');
import type { Product } from './sku-selection';

/** SPEC section 9: each wheel or button step zooms by 10%, within 1% and 10000%; wheel steps at most every 50 ms. */
const ZOOM_RATIO = 0.1;
const MIN_SCALE = 0.01;
const MAX_SCALE = 100;
const WHEEL_DEBOUNCE_MS = 50;
const START = { scale: 1, x: 0, y: 0 };

const clampScale = (scale: number) => Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.round(scale * 1000) / 1000));

/**
 * Full-screen viewer (a modal <dialog>, z-index 2015): previous/next, zoom by wheel, buttons
 * or + / − / ↑ / ↓, drag to pan, Escape to close. Focus stays inside until it closes, then
 * returns to whatever opened it.
 */
export default function ImageViewer({
  images,
  start,
  onClose,
}: {
  images: Product['images'];
  start: number;
  onClose: (index: number) => void;
}) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);
  const [index, setIndex] = useState(start);
  const [view, setView] = useState(START);
  const [dragging, setDragging] = useState(false);
  const total = images.length;
  const image = images[index];

  const zoom = (direction: number) =>
    setView((current) => ({
      ...current,
      scale: clampScale(current.scale * (direction > 0 ? 1 + ZOOM_RATIO : 1 / (1 + ZOOM_RATIO))),
    }));
  const go = (delta: number) => {
    setIndex((current) => (current + delta + total) % total);
    setView(START);
  };
  const close = () => onClose(index);

  useEffect(() => {
    const element = dialog.current!;
    const opener = document.activeElement as HTMLElement | null;
    element.showModal();
    let last = 0;
    // Registered by hand: React's wheel listener is passive, and the page must not zoom or scroll instead.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      if (event.timeStamp - last < WHEEL_DEBOUNCE_MS) return;
      last = event.timeStamp;
      zoom(-event.deltaY);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      element.removeEventListener('wheel', onWheel);
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);

  function onKeyDown(event: React.KeyboardEvent<HTMLDialogElement>) {
    if (event.key === 'Tab') {
      const buttons = [...event.currentTarget.querySelectorAll<HTMLElement>('button:not(:disabled)')];
      const edge = event.shiftKey ? buttons[0] : buttons[buttons.length - 1];
      if (document.activeElement === edge || !buttons.includes(document.activeElement as HTMLElement)) {
        event.preventDefault();
        (event.shiftKey ? buttons[buttons.length - 1] : buttons[0])?.focus();
      }
      return;
    }
    const action: Record<string, () => void> = {
      Escape: close,
      ArrowLeft: () => go(-1),
      ArrowRight: () => go(1),
      ArrowUp: () => zoom(1),
      ArrowDown: () => zoom(-1),
      '+': () => zoom(1),
      '=': () => zoom(1),
      '-': () => zoom(-1),
      '0': () => setView(START),
    };
    const run = action[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  }

  if (!image) return null;
  return (
    <dialog
      ref={dialog}
      className="viewer"
      aria-label={t('product.viewer')}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
    >
      <button type="button" className="viewer__button viewer__close" aria-label={t('product.close')} onClick={close}>
        <CloseIcon size={24} />
      </button>
      <div
        className={`viewer__canvas${dragging ? ' is-dragging' : ''}`}
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          drag.current = { x: event.clientX - view.x, y: event.clientY - view.y };
          setDragging(true);
        }}
        onPointerMove={(event) => {
          const origin = drag.current;
          if (origin) setView((current) => ({ ...current, x: event.clientX - origin.x, y: event.clientY - origin.y }));
        }}
        onPointerUp={() => {
          drag.current = null;
          setDragging(false);
        }}
        onPointerCancel={() => {
          drag.current = null;
          setDragging(false);
        }}
        onDoubleClick={() => setView((current) => (current.scale === 1 ? { scale: 2, x: 0, y: 0 } : START))}
      >
        <img
          className="viewer__image"
          src={`${image.url}?w=1600`}
          alt={image.alt}
          draggable={false}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
        />
      </div>
      {total > 1 ? (
        <>
          <button
            type="button"
            className="viewer__button viewer__nav viewer__nav--prev"
            aria-label={t('product.previous')}
            onClick={() => go(-1)}
          >
            <PrevIcon size={28} />
          </button>
          <button
            type="button"
            className="viewer__button viewer__nav viewer__nav--next"
            aria-label={t('product.next')}
            onClick={() => go(1)}
          >
            <NextIcon size={28} />
          </button>
        </>
      ) : null}
      <div className="viewer__bar">
        <div className="viewer__tools" role="toolbar" aria-label={t('product.viewer')}>
          <button
            type="button"
            className="viewer__button"
            aria-label={t('product.zoomOut')}
            disabled={view.scale <= MIN_SCALE}
            onClick={() => zoom(-1)}
          >
            <ZoomOutIcon />
          </button>
          <output className="viewer__scale" aria-live="polite">
            {Math.round(view.scale * 100)}%
          </output>
          <button
            type="button"
            className="viewer__button"
            aria-label={t('product.zoomIn')}
            disabled={view.scale >= MAX_SCALE}
            onClick={() => zoom(1)}
          >
            <ZoomInIcon />
          </button>
          <button
            type="button"
            className="viewer__button"
            aria-label={t('product.zoomReset')}
            onClick={() => setView(START)}
          >
            <ResetIcon />
          </button>
          {total > 1 ? (
            <span className="viewer__count">
              {index + 1} / {total}
            </span>
          ) : null}
        </div>
        <p className="viewer__hint">{t('product.viewerHint')}</p>
      </div>
    </dialog>
  );
}
