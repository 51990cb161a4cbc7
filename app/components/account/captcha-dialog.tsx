import { useCallback, useEffect, useRef, useState } from 'react';
import { translate, type Locale } from '../../../i18n';
import { accountApi } from '~/lib/account-api';
import { ApiError, NetworkError } from '~/lib/api-client';
import { useLocale, useT } from '~/lib/i18n';
import { RefreshIcon } from './account-icons';
import type { CaptchaRequest } from './account-context';
import { TextField } from './form-field';
import { ModalDialog } from './modal-dialog';
import { BusyButton } from '../ui/busy-button';

interface Picture {
  id: string;
  src: string;
}

/**
 * SPEC section 2's captcha dialog: draggable, 350 px wide, titled 'Please enter what you
 * see', a 300x300 picture, an answer field, refresh and close icons and a confirm button.
 * It stays open while the request that needs the answer runs; when that request fails the
 * picture is replaced (a captcha works once) and, if the answer itself was wrong, the
 * server's message shows under the field.
 */
export default function CaptchaDialog({ request }: { request: CaptchaRequest | null }) {
  const t = useT();
  const locale = useLocale();
  const input = useRef<HTMLInputElement>(null);
  const [picture, setPicture] = useState<Picture | null>(null);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const open = request !== null;

  const refresh = useCallback(async () => {
    setLoading(true);
    setFailed(false);
    setAnswer('');
    try {
      const captcha = await accountApi.captcha(locale);
      setPicture({ id: captcha.id, src: captcha.data });
    } catch (cause) {
      setPicture(null);
      setFailed(true);
      if (cause instanceof NetworkError) console.warn(cause);
    } finally {
      setLoading(false);
    }
  }, [locale]);

  useEffect(() => {
    if (!open) return;
    setError(undefined);
    setBusy(false);
    void refresh();
  }, [open, refresh]);

  const confirm = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!request || busy) return;
    if (!answer.trim() || !picture) {
      setError(t('account.validation.captchaRequired'));
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await request.submit({ key: picture.id, dots: answer.trim() });
      request.settle({ status: 'done' });
    } catch (cause) {
      setBusy(false);
      void refresh();
      if (cause instanceof ApiError && isCaptchaError(cause, locale)) {
        setError(cause.message);
        input.current?.focus();
        return;
      }
      // Not about the picture (wrong password, unknown email): the form behind shows it.
      request.settle({ status: 'failed', error: cause });
    }
  };

  return (
    <ModalDialog
      open={open}
      onClose={() => request?.settle({ status: 'closed' })}
      heading={{ title: t('account.captcha.title'), small: true }}
      className="modal--captcha"
      draggable
    >
      <form className="captcha" noValidate onSubmit={confirm}>
        <div className="captcha__picture" aria-busy={loading}>
          {picture ? (
            <img
              src={picture.src}
              alt={t('account.captcha.image')}
              width={300}
              height={300}
              data-captcha-id={picture.id}
            />
          ) : (
            <span className="captcha__placeholder">
              {failed ? t('account.captcha.failed') : t('account.captcha.loading')}
            </span>
          )}
          <button type="button" className="captcha__refresh" onClick={() => void refresh()} disabled={loading}>
            <RefreshIcon size={20} />
            <span className="sr-only">{t('account.captcha.refresh')}</span>
          </button>
        </div>
        <TextField
          label={t('account.captcha.answer')}
          error={error}
          ref={input}
          className="captcha__field"
          name="dots"
          value={answer}
          onChange={(event) => {
            setAnswer(event.target.value);
            if (error) setError(undefined);
          }}
          inputMode="numeric"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={12}
          autoFocus
        />
        <BusyButton type="submit" className="button button--primary button--block" busy={busy}>
          {t('account.captcha.confirm')}
        </BusyButton>
      </form>
    </ModalDialog>
  );
}

/** A failure about the captcha answer (wrong, expired, missing) rather than the form behind it. */
function isCaptchaError(error: ApiError, locale: Locale): boolean {
  const data = error.data as { field?: unknown } | null;
  if (data && typeof data === 'object' && (data.field === 'dots' || data.field === 'key')) return true;
  return CAPTCHA_MESSAGES.some((key) => translate(locale, key) === error.message);
}

const CAPTCHA_MESSAGES = ['accounts.captcha.invalid', 'accounts.captcha.required'] as const;
