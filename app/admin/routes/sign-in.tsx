import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { staffLoginBody, type StaffLoginAnswer } from '../../../server/domains/staff/staff.schemas';
import { adminApi, safeNext } from '../lib/admin-api';
import { useConsole, useConsoleT } from '../lib/console-context';
import { ErrorNotice, useAction, useRedirect } from '../components/ui';
import { AuthCard } from '../components/auth-card';

/**
 * Sign-in: email and password, then (two-step sign-in on) the authenticator's code or a
 * recovery code. A full page load follows, so the console starts over as the member, in
 * their language.
 */
export default function SignInPage() {
  const { staff, setupRequired } = useConsole();
  const t = useConsoleT();
  const [search] = useSearchParams();
  const next = safeNext(search.get('next'));
  const [challenge, setChallenge] = useState<string | null>(null);
  const form = useForm<z.input<typeof staffLoginBody>, unknown, z.output<typeof staffLoginBody>>({
    resolver: zodResolver(staffLoginBody),
    defaultValues: { email: '', password: '' },
  });
  const signIn = useAction(async (body: z.output<typeof staffLoginBody>) => {
    const answer = await adminApi<StaffLoginAnswer>('/login', { body, keepOn401: true });
    if (answer.status === 'signed_in') window.location.assign(next);
    else setChallenge(answer.challenge);
  });

  useRedirect(staff ? next : null);
  if (staff) return null;
  if (challenge) return <SecondFactorStep challenge={challenge} next={next} onRestart={() => setChallenge(null)} />;
  const errors = form.formState.errors;
  return (
    <AuthCard title={t('console.signIn.title')} intro={t('console.signIn.intro')}>
      {setupRequired ? <p className="notice notice--info">{t('console.signIn.setupRequired')}</p> : null}
      <form className="stack" onSubmit={form.handleSubmit((body) => signIn.act(body))} noValidate>
        <div className={`field${errors.email ? ' field--invalid' : ''}`}>
          <label htmlFor="sign-in-email">{t('console.field.email')}</label>
          <input
            id="sign-in-email"
            type="email"
            autoComplete="username"
            autoFocus
            aria-invalid={errors.email ? true : undefined}
            {...form.register('email')}
          />
          {errors.email ? (
            <p className="field__error" role="alert">
              {t('console.form.email')}
            </p>
          ) : null}
        </div>
        <div className={`field${errors.password ? ' field--invalid' : ''}`}>
          <label htmlFor="sign-in-password">{t('console.field.password')}</label>
          <input
            id="sign-in-password"
            type="password"
            autoComplete="current-password"
            aria-invalid={errors.password ? true : undefined}
            {...form.register('password')}
          />
          {errors.password ? (
            <p className="field__error" role="alert">
              {t('console.form.required')}
            </p>
          ) : null}
        </div>
        <ErrorNotice error={signIn.error} />
        <button type="submit" className="button button--primary button--block" disabled={signIn.busy}>
          {t('console.signIn.submit')}
        </button>
      </form>
    </AuthCard>
  );
}

function SecondFactorStep({ challenge, next, onRestart }: { challenge: string; next: string; onRestart: () => void }) {
  const t = useConsoleT();
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const verify = useAction(async () => {
    await adminApi('/login/second-factor', { body: { challenge, code }, keepOn401: true });
    window.location.assign(next);
  });
  return (
    <AuthCard
      title={t('console.signIn.secondTitle')}
      intro={t(useRecovery ? 'console.signIn.recoveryIntro' : 'console.signIn.codeIntro')}
    >
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void verify.act();
        }}
      >
        <div className="field">
          <label htmlFor="sign-in-code">{t(useRecovery ? 'console.field.recoveryCode' : 'console.field.code')}</label>
          <input
            id="sign-in-code"
            className="mono code-input"
            autoComplete="one-time-code"
            inputMode={useRecovery ? 'text' : 'numeric'}
            autoFocus
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </div>
        <ErrorNotice error={verify.error} />
        <button type="submit" className="button button--primary button--block" disabled={verify.busy || !code.trim()}>
          {t('console.signIn.verify')}
        </button>
        <div className="auth-links">
          <button type="button" className="text-button" onClick={() => setUseRecovery((value) => !value)}>
            {t(useRecovery ? 'console.signIn.useCode' : 'console.signIn.useRecovery')}
          </button>
          <button type="button" className="text-button" onClick={onRestart}>
            {t('console.signIn.restart')}
          </button>
        </div>
      </form>
    </AuthCard>
  );
}
