import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { LOCALES } from '../../../i18n/locales';
import {
  changeStaffPasswordBody,
  updateMeBody,
  type recoveryCodes,
  type staffSessionView,
} from '../../../server/domains/staff/staff.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, useStaff, usePageData } from '../lib/console-context';
import { formatDateTime } from '../lib/format';
import { ConfirmDialog, ErrorNotice, Notice, PageHeader, Pill, useAction, Field } from '../components/ui';
import { PasswordHint } from '../components/password-hint';
import { TwoStepEnrol } from '../components/two-step-enrol';

type Session = z.infer<typeof staffSessionView>;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { sessions: await adminApi<Session[]>('/me/sessions', { signal: request.signal }) };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

/** The member's own profile: name and language, password, two-step sign-in and recovery codes, sessions. */
export default function ProfilePage() {
  const t = useConsoleT();
  return (
    <>
      <PageHeader title={t('console.profile.title')} />
      <div className="profile-grid">
        <NameAndLanguage />
        <PasswordForm />
        <TwoStep />
        <Sessions />
      </div>
    </>
  );
}

function NameAndLanguage() {
  const t = useConsoleT();
  const staff = useStaff();
  const form = useForm<z.input<typeof updateMeBody>, unknown, z.output<typeof updateMeBody>>({
    resolver: zodResolver(updateMeBody),
    defaultValues: { name: staff.name, locale: staff.locale },
  });
  const save = useAction(async (body: z.output<typeof updateMeBody>) => {
    await adminApi('/me', { method: 'PUT', body });
    // The whole console follows the new language: start over with it.
    window.location.reload();
  });
  return (
    <section className="card" aria-labelledby="profile-name-title">
      <h2 className="card__title" id="profile-name-title">
        {t('console.profile.details')}
      </h2>
      <form className="stack" onSubmit={form.handleSubmit((body) => save.act(body))} noValidate>
        <div className="field">
          <label htmlFor="profile-email">{t('console.field.email')}</label>
          <input id="profile-email" value={staff.email} readOnly />
        </div>
        <Field id="profile-name" label={t('console.field.name')} error={Boolean(form.formState.errors.name)}>
          <input id="profile-name" autoComplete="name" {...form.register('name')} />
        </Field>
        <div className="field">
          <label htmlFor="profile-locale">{t('console.field.language')}</label>
          <select id="profile-locale" {...form.register('locale')}>
            {LOCALES.map((option) => (
              <option key={option} value={option}>
                {t(option === 'en' ? 'console.language.en' : 'console.language.zh')}
              </option>
            ))}
          </select>
        </div>
        <ErrorNotice error={save.error} />
        <button type="submit" className="button button--primary" disabled={save.busy}>
          {t('console.action.save')}
        </button>
      </form>
    </section>
  );
}

function PasswordForm() {
  const t = useConsoleT();
  const [done, setDone] = useState(false);
  const form = useForm<z.input<typeof changeStaffPasswordBody>, unknown, z.output<typeof changeStaffPasswordBody>>({
    resolver: zodResolver(changeStaffPasswordBody),
    defaultValues: { current_password: '', new_password: '' },
  });
  const change = useAction(async (body: z.output<typeof changeStaffPasswordBody>) => {
    await adminApi('/me/password', { method: 'PUT', body });
    form.reset();
    setDone(true);
  });
  return (
    <section className="card" aria-labelledby="profile-password-title">
      <h2 className="card__title" id="profile-password-title">
        {t('console.profile.password')}
      </h2>
      <form className="stack" onSubmit={form.handleSubmit((body) => change.act(body))} noValidate>
        <div className="field">
          <label htmlFor="profile-current">{t('console.field.currentPassword')}</label>
          <input
            id="profile-current"
            type="password"
            autoComplete="current-password"
            {...form.register('current_password')}
          />
        </div>
        <Field
          id="profile-new"
          label={t('console.field.newPassword')}
          error={Boolean(form.formState.errors.new_password)}
        >
          <input id="profile-new" type="password" autoComplete="new-password" {...form.register('new_password')} />
          <PasswordHint invalid={Boolean(form.formState.errors.new_password)} />
        </Field>
        <ErrorNotice error={change.error} />
        {done ? <Notice>{t('console.profile.passwordChanged')}</Notice> : null}
        <button type="submit" className="button" disabled={change.busy}>
          {t('console.profile.changePassword')}
        </button>
      </form>
    </section>
  );
}

function TwoStep() {
  const t = useConsoleT();
  const staff = useStaff();
  const [mode, setMode] = useState<'idle' | 'enrol' | 'disable' | 'codes'>('idle');
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const disable = useAction(async () => {
    await adminApi('/me/totp', { method: 'DELETE', body: { code } });
    window.location.reload();
  });
  const regenerate = useAction(async () => {
    const answer = await adminApi<z.infer<typeof recoveryCodes>>('/me/recovery-codes', { body: { code } });
    setCodes(answer.recovery_codes);
    setMode('idle');
    setCode('');
  });
  const enabled = staff.second_factor.enabled;
  return (
    <section className="card" aria-labelledby="profile-two-step-title">
      <h2 className="card__title" id="profile-two-step-title">
        {t('console.twoStep.title')}{' '}
        <Pill tone={enabled ? 'success' : 'neutral'}>{t(enabled ? 'console.staff.on' : 'console.staff.off')}</Pill>
      </h2>
      {mode === 'enrol' ? (
        <TwoStepEnrol onDone={() => window.location.reload()} />
      ) : enabled ? (
        <div className="stack">
          <p className="muted">{t('console.profile.twoStepOn')}</p>
          {codes ? (
            <ul className="recovery-codes mono" aria-label={t('console.twoStep.codesTitle')}>
              {codes.map((recovery) => (
                <li key={recovery}>{recovery}</li>
              ))}
            </ul>
          ) : null}
          <div className="button-row">
            <button type="button" className="button" onClick={() => setMode('codes')}>
              {t('console.profile.newCodes')}
            </button>
            {staff.second_factor.required ? null : (
              <button type="button" className="button button--danger-ghost" onClick={() => setMode('disable')}>
                {t('console.profile.turnOff')}
              </button>
            )}
          </div>
        </div>
      ) : (
        <div className="stack">
          <p className="muted">{t('console.twoStep.intro')}</p>
          <button type="button" className="button button--primary" onClick={() => setMode('enrol')}>
            {t('console.profile.turnOn')}
          </button>
        </div>
      )}
      <ConfirmDialog
        open={mode === 'disable' || mode === 'codes'}
        title={t(mode === 'disable' ? 'console.profile.turnOffConfirm' : 'console.profile.newCodesConfirm')}
        confirmLabel={t(mode === 'disable' ? 'console.profile.turnOff' : 'console.profile.newCodes')}
        onConfirm={() => void (mode === 'disable' ? disable.act() : regenerate.act())}
        onClose={() => setMode('idle')}
        ready={code.trim().length >= 6}
        busy={disable.busy || regenerate.busy}
        error={disable.error ?? regenerate.error}
      >
        <div className="field">
          <label htmlFor="profile-two-step-code">{t('console.field.code')}</label>
          <input
            id="profile-two-step-code"
            className="mono"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </div>
      </ConfirmDialog>
    </section>
  );
}

function Sessions() {
  const { sessions } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const revalidator = useRevalidator();
  const end = useAction(async (id: number) => {
    await adminApi(`/me/sessions/${id}`, { method: 'DELETE' });
    await revalidator.revalidate();
  });
  return (
    <section className="card" aria-labelledby="profile-sessions-title">
      <h2 className="card__title" id="profile-sessions-title">
        {t('console.sessions.title')}
      </h2>
      <ul className="plain-list">
        {sessions.map((session) => (
          <li key={session.id} className="session-row">
            <span className="cell-stack">
              <span>
                {session.user_agent ?? '—'}{' '}
                {session.current ? <Pill tone="info">{t('console.sessions.current')}</Pill> : null}
              </span>
              <span className="muted">
                {session.ip ?? ''} ·{' '}
                {t('console.sessions.lastSeen', { at: formatDateTime(session.last_seen_at, locale) })}
              </span>
            </span>
            {session.current ? null : (
              <button type="button" className="button button--small" onClick={() => void end.act(session.id)}>
                {t('console.sessions.end')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorNotice error={end.error} />
    </section>
  );
}
