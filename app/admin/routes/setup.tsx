import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { LOCALES } from '../../../i18n/locales';
import { setupBody, type setupLinkState } from '../../../server/domains/staff/staff.schemas';
import { adminApi } from '../lib/admin-api';
import { useConsole, useConsoleT } from '../lib/console-context';
import { ErrorNotice, Field, useAction } from '../components/ui';
import { AuthCard } from '../components/auth-card';
import { PasswordHint } from '../components/password-hint';

type LinkState = z.infer<typeof setupLinkState>;
type SetupValues = z.input<typeof setupBody>;

/**
 * First start (`/admin/setup#token`, the link the server logs while no staff account
 * exists): creates the Owner, who is signed in and sent on to set up two-step sign-in. The
 * token stays in the fragment, so it never reaches a server log or a Referer.
 */
export default function SetupPage() {
  const t = useConsoleT();
  const { locale } = useConsole();
  const [token, setToken] = useState<string | null>(null);
  const [link, setLink] = useState<LinkState | null>(null);
  const [linkError, setLinkError] = useState<unknown>(null);
  const form = useForm<SetupValues, unknown, z.output<typeof setupBody>>({
    resolver: zodResolver(setupBody),
    defaultValues: { token: '', email: '', name: '', password: '', locale },
  });

  useEffect(() => {
    const fromHash = window.location.hash.slice(1);
    setToken(fromHash);
    if (!fromHash) return;
    form.setValue('token', fromHash);
    adminApi<LinkState>(`/setup/${encodeURIComponent(fromHash)}`, { keepOn401: true }).then((state) => {
      setLink(state);
      if (state.email) form.setValue('email', state.email);
    }, setLinkError);
  }, [form]);

  const create = useAction(async (body: z.output<typeof setupBody>) => {
    await adminApi('/setup', { body, keepOn401: true });
    window.location.assign('/admin/two-step');
  });

  if (token === null) return <AuthCard title={t('console.setup.title')}>{null}</AuthCard>;
  if (!token || linkError || (link && !link.valid)) {
    return (
      <AuthCard title={t('console.setup.title')}>
        <ErrorNotice error={linkError} />
        <p className="notice notice--error" role="alert">
          {t('console.setup.invalid')}
        </p>
      </AuthCard>
    );
  }
  const errors = form.formState.errors;
  return (
    <AuthCard title={t('console.setup.title')} intro={t('console.setup.intro')}>
      <form className="stack" onSubmit={form.handleSubmit((body) => create.act(body))} noValidate>
        <Field id="setup-email" label={t('console.field.email')} error={errors.email && t('console.form.email')}>
          <input
            id="setup-email"
            type="email"
            autoComplete="username"
            readOnly={Boolean(link?.email)}
            {...form.register('email')}
          />
        </Field>
        <Field id="setup-name" label={t('console.field.name')} error={errors.name && t('console.form.required')}>
          <input id="setup-name" autoComplete="name" {...form.register('name')} />
        </Field>
        <Field id="setup-password" label={t('console.field.newPassword')} error={Boolean(errors.password)}>
          <input id="setup-password" type="password" autoComplete="new-password" {...form.register('password')} />
          <PasswordHint invalid={Boolean(errors.password)} />
        </Field>
        <div className="field">
          <label htmlFor="setup-locale">{t('console.field.language')}</label>
          <select id="setup-locale" {...form.register('locale')}>
            {LOCALES.map((option) => (
              <option key={option} value={option}>
                {t(option === 'en' ? 'console.language.en' : 'console.language.zh')}
              </option>
            ))}
          </select>
        </div>
        <ErrorNotice error={create.error} />
        <button type="submit" className="button button--primary button--block" disabled={create.busy}>
          {t('console.setup.submit')}
        </button>
      </form>
    </AuthCard>
  );
}
