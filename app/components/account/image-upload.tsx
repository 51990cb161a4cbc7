import { useEffect, useId, useRef, useState } from 'react';
import { ApiError, NetworkError, uploadImage } from '~/lib/api-client';
import { useLocale, useT } from '~/lib/i18n';
import { CameraIcon, RefreshIcon, TrashIcon, ZoomIcon } from './account-icons';
import { avatarUrl } from './account-button';
import { ModalDialog } from './modal-dialog';
import { useToast } from './toast';
import { BusyButton } from '../ui/busy-button';

type Status = 'ready' | 'uploading' | 'success' | 'fail';

/**
 * SPEC section 2's image upload control with limit 1 (the bound value is one URL): image
 * files only, states ready → uploading → success or fail (with a retry), a thumbnail of
 * `width` px with preview and delete (delete asks first, SPEC section 8). A new file
 * replaces the old one. The answer counts only with code 0; otherwise the server's message
 * is a toast and the file is dropped; a network failure only stops the busy state.
 */
export function ImageUpload({
  value,
  onChange,
  label,
  width = 80,
  disabled = false,
  tip,
  action,
  name = 'image',
}: {
  value: string | null;
  onChange: (url: string | null) => void | Promise<void>;
  label: string;
  width?: number;
  disabled?: boolean;
  tip?: string;
  action?: string;
  name?: string;
}) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<{ file: File; preview: string; status: Status } | null>(null);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);

  useEffect(() => () => (pending ? URL.revokeObjectURL(pending.preview) : undefined), [pending]);

  const upload = async (file: File) => {
    const preview = URL.createObjectURL(file);
    setPending({ file, preview, status: 'uploading' });
    try {
      const url = await uploadImage(file, { locale, action, name });
      await onChange(url);
      setPending(null);
    } catch (error) {
      if (error instanceof NetworkError) {
        console.warn(error);
        setPending({ file, preview, status: 'fail' });
      } else if (error instanceof ApiError) {
        if (!error.sessionLost) toast.show(error.message, 'error');
        setPending(null);
      } else {
        setPending(null);
        throw error;
      }
    }
  };

  const choose = (event: React.ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toast.show(t('account.avatar.onlyImages'), 'error');
      return;
    }
    void upload(file);
  };

  const shown = pending?.preview ?? (value ? avatarUrl(value, width) : null);
  const status: Status | null = pending?.status ?? (value ? 'success' : null);

  return (
    <div className="image-upload" style={{ '--upload-size': `${width}px` } as React.CSSProperties}>
      <input
        ref={input}
        id={inputId}
        className="sr-only"
        type="file"
        accept="image/*"
        name={name}
        disabled={disabled || status === 'uploading'}
        onChange={choose}
        aria-describedby={tip ? `${inputId}-tip` : undefined}
      />
      {shown ? (
        <div className="image-upload__tile" data-status={status}>
          <img src={shown} alt={label} width={width} height={width} />
          {status === 'uploading' ? (
            <span className="image-upload__state" role="status">
              <span className="spinner" aria-hidden="true" />
              <span className="sr-only">{t('account.avatar.uploading')}</span>
            </span>
          ) : null}
          {status === 'fail' && pending ? (
            <button type="button" className="image-upload__retry" onClick={() => void upload(pending.file)}>
              <RefreshIcon size={20} />
              <span className="sr-only">{t('account.avatar.retry')}</span>
            </button>
          ) : null}
          {status === 'success' && !disabled ? (
            <span className="image-upload__actions">
              <button type="button" onClick={() => setPreviewOpen(true)}>
                <ZoomIcon size={18} />
                <span className="sr-only">{t('account.avatar.preview')}</span>
              </button>
              <button type="button" onClick={() => setConfirmOpen(true)}>
                <TrashIcon size={18} />
                <span className="sr-only">{t('account.avatar.delete')}</span>
              </button>
            </span>
          ) : null}
        </div>
      ) : (
        // The add tile: hidden once the limit (1) is reached.
        <label htmlFor={inputId} className="image-upload__add" aria-disabled={disabled || undefined}>
          <CameraIcon size={24} />
          <span className="sr-only">{t('account.avatar.choose')}</span>
        </label>
      )}
      <div className="image-upload__side">
        {shown && !disabled ? (
          <label
            htmlFor={inputId}
            className="button button--secondary button--small"
            aria-disabled={status === 'uploading' || undefined}
          >
            {t('account.avatar.replace')}
          </label>
        ) : !disabled ? (
          <label htmlFor={inputId} className="button button--secondary button--small">
            {t('account.avatar.choose')}
          </label>
        ) : null}
        {status === 'fail' ? <p className="image-upload__error">{t('account.avatar.failed')}</p> : null}
        {tip ? (
          <p className="image-upload__tip" id={`${inputId}-tip`}>
            {tip}
          </p>
        ) : null}
      </div>
      {value ? (
        <PreviewDialog open={previewOpen} src={value} label={label} onClose={() => setPreviewOpen(false)} />
      ) : null}
      <ConfirmDialog
        open={confirmOpen}
        title={t('account.avatar.notice')}
        text={t('account.avatar.deleteConfirm')}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={async () => {
          await onChange(null);
          setConfirmOpen(false);
        }}
      />
    </div>
  );
}

/** A picture at preview size in a modal dialog (the single and the multi-image upload controls). */
export function PreviewDialog({
  open,
  src,
  label,
  onClose,
}: {
  open: boolean;
  src: string;
  label: string;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      heading={{ title: label, small: true, closeLabel: t('account.avatar.close'), focusClose: true }}
      className="modal--preview"
    >
      {open ? <img className="modal__image" src={avatarUrl(src, 320)} alt={label} width={480} height={480} /> : null}
    </ModalDialog>
  );
}

/** SPEC section 4's dialog with the default cancel (取消) and confirm (确定) buttons; confirm shows a busy state while it runs. */
export function ConfirmDialog({
  open,
  title,
  text,
  onCancel,
  onConfirm,
  tone = 'warning',
}: {
  open: boolean;
  title: string;
  text: string;
  onCancel: () => void;
  onConfirm: () => Promise<void> | void;
  tone?: 'warning' | 'danger';
}) {
  const t = useT();
  const titleId = useId();
  const textId = useId();
  const [busy, setBusy] = useState(false);
  return (
    <ModalDialog
      open={open}
      onClose={onCancel}
      labelledBy={titleId}
      describedBy={textId}
      className={`modal--confirm modal--${tone}`}
    >
      <div className="confirm">
        <h2 className="modal__title modal__title--small" id={titleId}>
          {title}
        </h2>
        <p className="confirm__text" id={textId}>
          {text}
        </p>
        <div className="confirm__actions">
          <button type="button" className="button button--secondary" onClick={onCancel} data-autofocus="">
            {t('account.cancel')}
          </button>
          <BusyButton
            type="button"
            className="button button--primary"
            busy={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await onConfirm();
              } finally {
                setBusy(false);
              }
            }}
          >
            {t('account.ok')}
          </BusyButton>
        </div>
      </div>
    </ModalDialog>
  );
}
