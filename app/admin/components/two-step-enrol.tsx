import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { recoveryCodes, totpEnrolment } from '../../../server/domains/staff/staff.schemas';
import { adminApi } from '../lib/admin-api';
import { useConsoleT } from '../lib/console-context';
import { ErrorNotice, useAction } from './ui';

type Enrolment = z.infer<typeof totpEnrolment>;
type RecoveryCodes = z.infer<typeof recoveryCodes>;

/**
 * Two-step enrolment: the secret as a QR code and as text for the authenticator app, a code
 * from the app to confirm, then the recovery codes, shown once, to copy or download.
 */
export function TwoStepEnrol({ onDone }: { onDone: () => void }) {
  const t = useConsoleT();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [copied, setCopied] = useState(false);
  const start = useAction(async () => setEnrolment(await adminApi<Enrolment>('/me/totp', { body: {} })));
  const confirm = useAction(async () => {
    const answer = await adminApi<RecoveryCodes>('/me/totp/confirm', { body: { code } });
    setCodes(answer.recovery_codes);
  });
  useEffect(() => {
    void start.act();
    // Once per mount: each start makes a new secret.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (codes) {
    const text = codes.join('\n');
    return (
      <div className="stack">
        <h2>{t('console.twoStep.codesTitle')}</h2>
        <p>{t('console.twoStep.codesIntro')}</p>
        <ul className="recovery-codes mono" aria-label={t('console.twoStep.codesTitle')}>
          {codes.map((recovery) => (
            <li key={recovery}>{recovery}</li>
          ))}
        </ul>
        <div className="button-row">
          <button
            type="button"
            className="button"
            onClick={() => {
              void navigator.clipboard?.writeText(text).then(() => setCopied(true));
            }}
          >
            {t(copied ? 'console.twoStep.copied' : 'console.twoStep.copy')}
          </button>
          <a
            className="button"
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`}
            download="recovery-codes.txt"
          >
            {t('console.twoStep.download')}
          </a>
          <button type="button" className="button button--primary" onClick={onDone}>
            {t('console.twoStep.finish')}
          </button>
        </div>
      </div>
    );
  }
  if (!enrolment)
    return start.error ? <ErrorNotice error={start.error} /> : <div className="skeleton skeleton--block" />;
  return (
    <div className="two-step">
      <ol className="two-step__steps">
        <li>{t('console.twoStep.scan')}</li>
        <li>{t('console.twoStep.enterCode')}</li>
      </ol>
      <div className="two-step__qr">
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
          alt={t('console.twoStep.qrAlt')}
          width={180}
          height={180}
        />
        <div className="field">
          <label htmlFor="two-step-secret">{t('console.twoStep.secret')}</label>
          <input
            id="two-step-secret"
            className="mono"
            readOnly
            value={enrolment.secret}
            data-secret={enrolment.secret}
          />
        </div>
      </div>
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void confirm.act();
        }}
      >
        <div className="field">
          <label htmlFor="two-step-code">{t('console.field.code')}</label>
          <input
            id="two-step-code"
            className="mono code-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </div>
        <ErrorNotice error={confirm.error} />
        <button type="submit" className="button button--primary" disabled={confirm.busy || !code.trim()}>
          {t('console.twoStep.confirm')}
        </button>
      </form>
    </div>
  );
}
