import { useId } from 'react';
import { readBrowserCookie } from '~/lib/api-client';
import { AdminApiError } from '../lib/admin-api';
import { useConsoleT } from '../lib/console-context';
import { ErrorNotice, useAction } from './ui';

/** `POST /v1/admin/media/site-images` with one file: the stored image's address (docs/console.md). */
async function uploadSiteImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const headers: Record<string, string> = { accept: 'application/json' };
  const csrf = readBrowserCookie('csrf_token');
  if (csrf) headers['x-csrf-token'] = csrf;
  const lang = document.documentElement.lang.toLowerCase().startsWith('zh') ? 'zh-cn' : 'en';
  const response = await fetch('/v1/admin/media/site-images', {
    method: 'POST',
    headers: { ...headers, lang },
    body: form,
    credentials: 'same-origin',
  });
  const envelope = (await response.json().catch(() => ({}))) as {
    code?: number;
    msg?: string;
    data?: { images?: Array<{ url: string }> };
  };
  const url = envelope.data?.images?.[0]?.url;
  if (envelope.code === 200 && url) return url;
  throw new AdminApiError(response.status, envelope.code ?? response.status, envelope.msg || response.statusText);
}

/**
 * An image setting (logo, site icon): its address, typed or filled in by an upload, with a
 * preview of what the storefront will show.
 */
export function SiteImageField({
  label,
  value,
  onChange,
  previewClass,
  previewAlt,
}: {
  label: string;
  value: string;
  onChange: (url: string) => void;
  previewClass: string;
  previewAlt: string;
}) {
  const t = useConsoleT();
  const id = useId();
  const upload = useAction(async (file: File) => onChange(await uploadSiteImage(file)));
  return (
    <div className="field">
      <label htmlFor={`${id}-url`}>{label}</label>
      <div className="site-image">
        <input
          id={`${id}-url`}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <label className="button site-image__upload">
          {t('console.settings.upload')}
          <input
            type="file"
            accept="image/png,image/jpeg,image/webp,image/avif,image/gif"
            className="sr-only"
            disabled={upload.busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void upload.act(file);
            }}
          />
        </label>
      </div>
      <p className="field__hint" id={`${id}-hint`}>
        {t('console.settings.imageHint')}
      </p>
      <ErrorNotice error={upload.error} />
      {value ? <img className={previewClass} src={value} alt={previewAlt} /> : null}
    </div>
  );
}
