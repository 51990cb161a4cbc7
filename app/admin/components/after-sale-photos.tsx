import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useConsoleT } from '../lib/console-context';

/**
 * The buyer's evidence photos as thumbnails, each opening a full-screen viewer: click to zoom
 * in where clicked (and again to fit), wheel or + / − to zoom, drag to move, ← → for the other
 * photos, Escape to close. (Not the storefront's product viewer: that one speaks the shop's
 * language from the storefront pack, which is not the member's language in the console.)
 */
export function CasePhotos({ photos }: { photos: readonly string[] }) {
  const t = useConsoleT();
  const [open, setOpen] = useState<number | null>(null);
  return (
    <>
      <ul className="desk-photos">
        {photos.map((url, index) => (
          <li key={url}>
            <button
              type="button"
              className="desk-photos__thumb"
              aria-label={t('console.afterSales.viewer.open', { index: index + 1, total: photos.length })}
              onClick={() => setOpen(index)}
            >
              <img src={url} alt="" width={88} height={88} loading="lazy" decoding="async" />
            </button>
          </li>
        ))}
      </ul>
      {open === null ? null : <PhotoViewer photos={photos} start={open} onClose={() => setOpen(null)} />}
    </>
  );
}

const FIT = { scale: 1, x: 0, y: 0 };
const CLICK_ZOOM = 2.5;
const MAX_SCALE = 8;
/** A press that moves more than this is a drag, not a click. */
const DRAG_SLOP = 4;

type View = typeof FIT;

/** A screen point relative to the stage's centre, where the fitted image's centre is. */
function pointIn(stage: HTMLElement | null, clientX: number, clientY: number) {
  const box = stage?.getBoundingClientRect();
  if (!box) return { x: 0, y: 0 };
  return { x: clientX - (box.left + box.width / 2), y: clientY - (box.top + box.height / 2) };
}

/** Zooms to `scale`, keeping the image point under `point` (relative to the stage's centre) where it is. */
function zoomAt(view: View, scale: number, point: { x: number; y: number }): View {
  const next = Math.min(MAX_SCALE, Math.max(1, scale));
  if (next === 1) return FIT;
  const ratio = next / view.scale;
  return { scale: next, x: point.x - (point.x - view.x) * ratio, y: point.y - (point.y - view.y) * ratio };
}

function PhotoViewer({ photos, start, onClose }: { photos: readonly string[]; start: number; onClose: () => void }) {
  const t = useConsoleT();
  const dialog = useRef<HTMLDialogElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const press = useRef<{ x: number; y: number; view: View; moved: boolean } | null>(null);
  const [index, setIndex] = useState(start);
  const [view, setView] = useState<View>(FIT);
  const total = photos.length;

  useEffect(() => {
    const element = dialog.current!;
    const opener = document.activeElement as HTMLElement | null;
    element.showModal();
    // By hand: React's wheel listener is passive, and the page must not scroll instead.
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const point = pointIn(stage.current, event.clientX, event.clientY);
      setView((current) => zoomAt(current, current.scale * (event.deltaY < 0 ? 1.2 : 1 / 1.2), point));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      element.removeEventListener('wheel', onWheel);
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);

  const go = (delta: number) => {
    setIndex((current) => (current + delta + total) % total);
    setView(FIT);
  };
  const zoomBy = (factor: number) => setView((current) => zoomAt(current, current.scale * factor, { x: 0, y: 0 }));

  function onKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    const actions: Record<string, () => void> = {
      ArrowLeft: () => go(-1),
      ArrowRight: () => go(1),
      '+': () => zoomBy(1.5),
      '=': () => zoomBy(1.5),
      '-': () => zoomBy(1 / 1.5),
      '0': () => setView(FIT),
    };
    const run = actions[event.key];
    if (!run || (total < 2 && event.key.startsWith('Arrow'))) return;
    event.preventDefault();
    run();
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    press.current = { x: event.clientX, y: event.clientY, view, moved: false };
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const start = press.current;
    if (!start) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (!start.moved && Math.hypot(dx, dy) < DRAG_SLOP) return;
    start.moved = true;
    if (start.view.scale > 1) setView({ ...start.view, x: start.view.x + dx, y: start.view.y + dy });
  }

  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const start = press.current;
    press.current = null;
    if (!start || start.moved) return;
    // A click: in where clicked, or back to the whole photo.
    const point = pointIn(stage.current, event.clientX, event.clientY);
    setView((current) => (current.scale > 1 ? FIT : zoomAt(current, CLICK_ZOOM, point)));
  }

  const zoomed = view.scale > 1;
  return (
    <dialog
      ref={dialog}
      className="desk-viewer"
      aria-label={t('console.afterSales.viewer.label')}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div
        ref={stage}
        className={`desk-viewer__stage${zoomed ? ' desk-viewer__stage--zoomed' : ''}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (press.current = null)}
      >
        <img
          className="desk-viewer__image"
          src={photos[index]}
          alt={t('console.afterSales.viewer.photo', { index: index + 1, total })}
          draggable={false}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
        />
      </div>
      <button
        type="button"
        className="desk-viewer__button desk-viewer__close"
        aria-label={t('console.action.close')}
        onClick={onClose}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
          <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      {total > 1 ? (
        <>
          <button
            type="button"
            className="desk-viewer__button desk-viewer__nav desk-viewer__nav--prev"
            aria-label={t('console.afterSales.viewer.previous')}
            onClick={() => go(-1)}
          >
            <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
              <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
          <button
            type="button"
            className="desk-viewer__button desk-viewer__nav desk-viewer__nav--next"
            aria-label={t('console.afterSales.viewer.next')}
            onClick={() => go(1)}
          >
            <svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" focusable="false">
              <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </>
      ) : null}
      <div className="desk-viewer__bar">
        <div className="desk-viewer__tools" role="toolbar" aria-label={t('console.afterSales.viewer.label')}>
          <button
            type="button"
            className="desk-viewer__button"
            aria-label={t('console.afterSales.viewer.zoomOut')}
            disabled={!zoomed}
            onClick={() => zoomBy(1 / 1.5)}
          >
            −
          </button>
          <output className="desk-viewer__scale" aria-live="polite">
            {Math.round(view.scale * 100)}%
          </output>
          <button
            type="button"
            className="desk-viewer__button"
            aria-label={t('console.afterSales.viewer.zoomIn')}
            disabled={view.scale >= MAX_SCALE}
            onClick={() => zoomBy(1.5)}
          >
            +
          </button>
          <button
            type="button"
            className="desk-viewer__button desk-viewer__button--text"
            disabled={!zoomed}
            onClick={() => setView(FIT)}
          >
            {t('console.afterSales.viewer.fit')}
          </button>
          {total > 1 ? (
            <span className="desk-viewer__count">
              {index + 1} / {total}
            </span>
          ) : null}
        </div>
        <p className="desk-viewer__hint">{t('console.afterSales.viewer.hint')}</p>
      </div>
    </dialog>
  );
}
