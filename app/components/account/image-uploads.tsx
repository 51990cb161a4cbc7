import { useEffect, useId, useRef, useState } from 'react';
import { ApiError, NetworkError, uploadImage } from '~/lib/api-client';
import { useLocale, useT } from '~/lib/i18n';
import { Icon, PlusIcon, type IconProps } from '../ui/icons';
import { RefreshIcon, TrashIcon, ZoomIcon } from './account-icons';
import { avatarUrl } from './account-button';
import { ConfirmDialog, PreviewDialog } from './image-upload';
import { useToast } from './toast';

/** SPEC section 4's states of one file; `success` is an uploaded image, one of `value`. */
type UploadState = 'ready' | 'uploading' | 'success' | 'fail';

/** A chosen file not uploaded yet: waiting its turn, on its way, or failed for want of a network. */
interface PendingFile {
  key: number;
  file: File;
  /** An object URL of the file, shown until the upload answers. */
  preview: string;
  state: Exclude<UploadState, 'success'>;
}

/** What the delete question is about: an uploaded image (its place in `value`) or a pending file. */
type DeleteTarget = { url: string } | { key: number };

/**
 * How many of each go when files are chosen (SPEC section 4: beyond the limit the oldest make
 * room, so with a limit of 1 a new file replaces the old): the uploaded images first, then the
 * files still waiting, oldest first; of more files than the limit, only the last ones are kept.
 */
export function makeRoom(counts: { uploaded: number; waiting: number; chosen: number }, limit: number) {
  const chosen = Math.min(counts.chosen, limit);
  const excess = Math.max(0, counts.uploaded + counts.waiting + chosen - limit);
  const uploaded = Math.min(excess, counts.uploaded);
  return { chosen, uploaded, waiting: excess - uploaded };
}

const CheckIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M5 12.5l4.5 4.5L19 7.5" />
  </Icon>
);

/**
 * SPEC section 2's image upload control for several images (the after-sale evidence photos):
 * `value` is the list of uploaded image URLs. Image files only; several can be chosen at once
 * and go up one after another. Each file shows its state on its thumbnail (`data-state`):
 * ready (waiting its turn), uploading, success (preview and delete) or fail (a network error:
 * a retry button sends it again). An answer with a code other than 0 is a toast with the
 * server's message and the file is dropped. Files chosen beyond `limit` push out the oldest
 * images. Deleting asks first (SPEC section 8). `disabled` shows the images read-only.
 * The single-image version is ./image-upload.tsx.
 */
export function ImageUploads({
  value,
  onChange,
  label,
  limit = 9,
  width = 80,
  action,
  name = 'image',
  disabled = false,
  tip,
}: {
  value: string[];
  onChange: (urls: string[]) => void | Promise<void>;
  /** Names the list of images (and the preview dialog). */
  label: string;
  limit?: number;
  /** Thumbnail size in px. */
  width?: number;
  /** Where the files go, under `/v1` (default `/upload`; after-sale photos use `/upload?purpose=evidence`). */
  action?: string;
  /** The multipart field of the file. */
  name?: string;
  disabled?: boolean;
  tip?: string;
}) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPendingState] = useState<PendingFile[]>([]);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [deleteTarget, setDeleteTarget] = useState<DeleteTarget | null>(null);

  // The upload loop outlives renders: it reads the latest list and files from refs, and
  // `value` is only replaced here when the parent hands a new one down.
  const pendingRef = useRef<PendingFile[]>([]);
  const valueRef = useRef(value);
  const uploading = useRef(false);
  const nextKey = useRef(1);
  useEffect(() => {
    valueRef.current = value;
  }, [value]);

  const setPending = (next: PendingFile[]) => {
    pendingRef.current = next;
    setPendingState(next);
  };
  const updatePending = (key: number, state: PendingFile['state']) =>
    setPending(pendingRef.current.map((item) => (item.key === key ? { ...item, state } : item)));
  const dropPending = (keys: ReadonlySet<number>) => {
    for (const item of pendingRef.current) if (keys.has(item.key)) URL.revokeObjectURL(item.preview);
    setPending(pendingRef.current.filter((item) => !keys.has(item.key)));
  };
  const commit = async (urls: string[]) => {
    valueRef.current = urls;
    await onChange(urls);
  };

  useEffect(() => () => pendingRef.current.forEach((item) => URL.revokeObjectURL(item.preview)), []);

  /** Uploads the first file waiting its turn; runs again whenever the pending list changes. */
  const uploadNext = async () => {
    if (uploading.current) return;
    const item = pendingRef.current.find((candidate) => candidate.state === 'ready');
    if (!item) return;
    uploading.current = true;
    updatePending(item.key, 'uploading');
    try {
      const url = await uploadImage(item.file, { locale, action, name });
      // Pushed out by newer files while it was on its way: the answer no longer has a place.
      if (pendingRef.current.some((candidate) => candidate.key === item.key)) await commit([...valueRef.current, url]);
      dropPending(new Set([item.key]));
    } catch (error) {
      if (error instanceof NetworkError) {
        console.warn(error);
        updatePending(item.key, 'fail');
      } else if (error instanceof ApiError) {
        // A lost session opens the login modal instead (api-client.ts).
        if (!error.sessionLost) toast.show(error.message, 'error');
        dropPending(new Set([item.key]));
      } else {
        dropPending(new Set([item.key]));
        throw error;
      }
    } finally {
      uploading.current = false;
    }
  };

  useEffect(() => {
    void uploadNext();
    // uploadNext reads refs only; the pending list is what decides whether there is work.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending]);

  const choose = (event: React.ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    const images = files.filter((file) => file.type.startsWith('image/'));
    if (images.length < files.length) toast.show(t('imageUploads.onlyImages'), 'error');
    if (images.length === 0) return;
    const room = makeRoom(
      { uploaded: valueRef.current.length, waiting: pendingRef.current.length, chosen: images.length },
      limit,
    );
    const added: PendingFile[] = images.slice(images.length - room.chosen).map((file) => ({
      key: nextKey.current++,
      file,
      preview: URL.createObjectURL(file),
      state: 'ready',
    }));
    if (room.uploaded > 0) void commit(valueRef.current.slice(room.uploaded));
    const pushedOutFiles = new Set(pendingRef.current.slice(0, room.waiting).map((item) => item.key));
    setPending([...pendingRef.current, ...added]);
    if (pushedOutFiles.size > 0) dropPending(pushedOutFiles);
  };

  const confirmDelete = async () => {
    if (!deleteTarget) return;
    if ('url' in deleteTarget) await commit(valueRef.current.filter((url) => url !== deleteTarget.url));
    else dropPending(new Set([deleteTarget.key]));
    setDeleteTarget(null);
    // The deleted thumbnail's button had focus; the add tile is the nearest thing left to act on.
    requestAnimationFrame(() => input.current?.focus());
  };

  const items = [
    ...value.map((url) => ({ id: `url:${url}`, src: avatarUrl(url, width), state: 'success' as const, url })),
    ...pending.map((item) => ({ id: `file:${item.key}`, src: item.preview, state: item.state, key: item.key })),
  ];
  const full = items.length >= limit;

  return (
    <div className="image-uploads" style={{ '--upload-size': `${width}px` } as React.CSSProperties}>
      <ul className="image-uploads__list" aria-label={label}>
        {items.map((item, index) => {
          const number = index + 1;
          const itemName = t('imageUploads.item', { number });
          return (
            <li key={item.id} className="image-uploads__item" data-testid="upload-item" data-state={item.state}>
              <img src={item.src} alt={itemName} width={width} height={width} />
              <UploadStateOverlay
                state={item.state}
                onRetry={'key' in item && !disabled ? () => updatePending(item.key, 'ready') : undefined}
              />
              {item.state !== 'uploading' ? (
                <span className="image-uploads__actions">
                  {'url' in item ? (
                    <button type="button" onClick={() => setPreviewUrl(item.url)}>
                      <ZoomIcon size={18} />
                      <span className="sr-only">{t('imageUploads.preview', { number })}</span>
                    </button>
                  ) : null}
                  {!disabled ? (
                    <button
                      type="button"
                      onClick={() => setDeleteTarget('url' in item ? { url: item.url } : { key: item.key })}
                    >
                      <TrashIcon size={18} />
                      <span className="sr-only">{t('imageUploads.delete', { number })}</span>
                    </button>
                  ) : null}
                </span>
              ) : null}
            </li>
          );
        })}
        {!disabled && !full ? (
          <li className="image-uploads__add-item">
            <input
              ref={input}
              id={inputId}
              className="sr-only"
              type="file"
              accept="image/*"
              multiple
              name={name}
              onChange={choose}
              aria-describedby={`${inputId}-count${tip ? ` ${inputId}-tip` : ''}`}
            />
            <label htmlFor={inputId} className="image-uploads__add">
              <PlusIcon size={24} />
              <span className="sr-only">{t('imageUploads.add')}</span>
            </label>
          </li>
        ) : null}
      </ul>
      <p className="image-uploads__note">
        <span id={`${inputId}-count`}>{t('imageUploads.count', { count: items.length, limit })}</span>
        {tip ? <span id={`${inputId}-tip`}>{tip}</span> : null}
      </p>
      {previewUrl ? <PreviewDialog open src={previewUrl} label={label} onClose={() => setPreviewUrl(null)} /> : null}
      <ConfirmDialog
        open={deleteTarget !== null}
        title={t('imageUploads.notice')}
        text={t('imageUploads.deleteConfirm')}
        onCancel={() => setDeleteTarget(null)}
        onConfirm={confirmDelete}
      />
    </div>
  );
}

/** What covers a thumbnail in each state; `onRetry` is absent for images already uploaded and when read-only. */
function UploadStateOverlay({ state, onRetry }: { state: UploadState; onRetry?: () => void }) {
  const t = useT();
  switch (state) {
    case 'ready':
      return (
        <span className="image-uploads__state image-uploads__state--ready">
          <span className="image-uploads__label">{t('imageUploads.ready')}</span>
        </span>
      );
    case 'uploading':
      return (
        <span className="image-uploads__state" role="status">
          <span className="spinner" aria-hidden="true" />
          <span className="sr-only">{t('imageUploads.uploading')}</span>
        </span>
      );
    case 'success':
      return (
        <span className="image-uploads__badge">
          <CheckIcon size={14} />
          <span className="sr-only">{t('imageUploads.uploaded')}</span>
        </span>
      );
    case 'fail':
      return (
        <span className="image-uploads__state image-uploads__state--fail">
          <span className="sr-only">{t('imageUploads.failed')}</span>
          {onRetry ? (
            <button
              type="button"
              className="image-uploads__retry"
              onClick={onRetry}
              aria-label={t('imageUploads.retry')}
            >
              <RefreshIcon size={20} />
            </button>
          ) : null}
        </span>
      );
  }
}
