import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { pickText } from '../../../i18n/locales';
import { acceptInvitationBody, type invitationPreview } from '../../../server/domains/staff/staff.schemas';
import { adminApi } from '../lib/admin-api';
import { useConsole, useConsoleT } from '../lib/console-context';
import { formatDateTime } from '../lib/format';
import { ErrorNotice, Field, useAction } from '../components/ui';
import { AuthCard } from '../components/auth-card';
import { PasswordHint } from '../components/password-hint';

type Preview = z.infer<typeof invitationPreview>;

/** An emailed invitation (`/admin/invitation#token`): the invited person picks a name and password and is signed in. */
export default function InvitationPage() {
  const t = useConsoleT();
  const { locale } = useConsole();
  const [token, setToken] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const form = useForm<z.input<typeof acceptInvitationBody>, unknown, z.output<typeof acceptInvitationBody>>({
    resolver: zodResolver(acceptInvitationBody),
    defaultValues: { token: '', name: '', password: '' },
  });

  useEffect(() => {
    const fromHash = window.location.hash.slice(1);
    setToken(fromHash);
    if (!fromHash) return;
    form.setValue('token', fromHash);
    adminApi<Preview>(`/invitations/${encodeURIComponent(fromHash)}`, { keepOn401: true }).then(
      setPreview,
      setPreviewError,
    );
  }, [form]);

  const accept = useAction(async (body: z.output<typeof acceptInvitationBody>) => {
    await adminApi('/invitations/accept', { body, keepOn401: true });
    window.location.assign('/admin');
  });

  if (token === null) return <AuthCard title={t('console.invitation.title')}>{null}</AuthCard>;
  if (!token || previewError) {
    return (
      <AuthCard title={t('console.invitation.title')}>
        <ErrorNotice error={previewError} />
        {previewError ? null : (
          <p className="notice notice--error" role="alert">
            {t('console.invitation.invalid')}
          </p>
        )}
      </AuthCard>
    );
  }
  const errors = form.formState.errors;
  return (
    <AuthCard
      title={t('console.invitation.title')}
      intro={
        preview
          ? t('console.invitation.intro', {
              email: preview.email,
              roles: preview.roles.map((role) => pickText(role.name, locale)).join(', '),
              until: formatDateTime(preview.expires_at, locale),
            })
          : undefined
      }
    >
      <form className="stack" onSubmit={form.handleSubmit((body) => accept.act(body))} noValidate>
        <Field id="invite-name" label={t('console.field.name')} error={errors.name && t('console.form.required')}>
          <input id="invite-name" autoComplete="name" {...form.register('name')} />
        </Field>
        <Field id="invite-password" label={t('console.field.newPassword')} error={Boolean(errors.password)}>
          <input id="invite-password" type="password" autoComplete="new-password" {...form.register('password')} />
          <PasswordHint invalid={Boolean(errors.password)} />
        </Field>
        <ErrorNotice error={accept.error} />
        <button type="submit" className="button button--primary button--block" disabled={accept.busy || !preview}>
          {t('console.invitation.submit')}
        </button>
      </form>
    </AuthCard>
  );
}
