import { useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import { z } from 'zod';
import { changePasswordSchema, updateProfileSchema } from '../../../server/domains/customers/accounts.schemas';
import type { UserView } from '../../../server/domains/customers/accounts.schemas';
import { accountApi } from '~/lib/account-api';
import { useLocale, useT } from '~/lib/i18n';
import { Avatar } from './account-button';
import { useAccount } from './account-context';
import { ConfirmDialog, ImageUpload } from './image-upload';
import { PasswordField, TextField } from './form-field';
import { useToast } from './toast';
import { useFailureHandler } from './use-failure';
import { useForm } from './use-form';
import { BusyButton } from '../ui/busy-button';

export interface AccountProfile {
  email: string;
  username: string;
  avatar: string | null;
  sex: UserView['sex'];
  /** Already masked by the loader (SPEC section 9: the middle 4 digits hidden). */
  mobile: string | null;
  /** Accounts opened with an emailed code or Google have none yet: no current password is asked. */
  hasPassword: boolean;
}

/** My account: profile, picture, password and sessions. */
export function AccountPage({ profile }: { profile: AccountProfile }) {
  const t = useT();
  return (
    <div className="account-page container">
      <header className="account-hero">
        <Avatar name={profile.username} src={profile.avatar} size={72} />
        <div>
          <p className="eyebrow">{t('account.page.title')}</p>
          <h1 className="account-hero__title">{t('account.page.greeting', { name: profile.username })}</h1>
          <p className="account-hero__text">{t('account.page.intro')}</p>
        </div>
      </header>
      <div className="account-grid">
        <ProfileCard profile={profile} />
        <div className="account-grid__side">
          <AvatarCard profile={profile} />
          <PasswordCard hasPassword={profile.hasPassword} />
          <SessionsCard />
        </div>
      </div>
    </div>
  );
}

function Card({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <section className="account-card" aria-labelledby={id}>
      <h2 className="account-card__title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}

const profileFields = updateProfileSchema.pick({ username: true });

function ProfileCard({ profile }: { profile: AccountProfile }) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const revalidator = useRevalidator();
  const id = useId();
  const form = useForm(profileFields, { username: profile.username });
  const [sex, setSex] = useState(profile.sex);
  const [busy, setBusy] = useState(false);
  const fail = useFailureHandler(form.setServerError, ['username']);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate()) return;
    setBusy(true);
    try {
      await accountApi.updateInfo(locale, { username: form.values.username.trim(), sex });
      toast.show(t('account.toast.saved'), 'success');
      await revalidator.revalidate();
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('account.profile.title')} id={`${id}-title`}>
      <form className="account-form" noValidate onSubmit={submit}>
        <TextField
          label={t('account.field.username')}
          autoComplete="nickname"
          error={form.errors.username}
          {...form.bind('username')}
        />
        <fieldset className="choice-group">
          <legend className="form-field__label">{t('account.profile.sex')}</legend>
          <div className="choice-group__options">
            {([1, 2, 0] as const).map((option) => (
              <label key={option} className="choice">
                <input
                  type="radio"
                  name="sex"
                  value={option}
                  checked={sex === option}
                  onChange={() => setSex(option)}
                />
                <span>{t(`account.sex.${option}` as 'account.sex.0')}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <dl className="account-facts">
          <div>
            <dt>{t('account.profile.email')}</dt>
            <dd>{profile.email}</dd>
          </div>
          <div>
            <dt>{t('account.profile.mobile')}</dt>
            <dd>{profile.mobile ?? <span className="account-facts__empty">{t('account.profile.notSet')}</span>}</dd>
          </div>
        </dl>
        <div className="account-form__actions">
          <BusyButton type="submit" className="button button--primary" busy={busy}>
            {busy ? t('account.profile.saving') : t('account.profile.save')}
          </BusyButton>
        </div>
      </form>
    </Card>
  );
}

function AvatarCard({ profile }: { profile: AccountProfile }) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const revalidator = useRevalidator();
  const { reportError } = useAccount();
  const id = useId();
  const save = async (avatar: string | null) => {
    try {
      await accountApi.updateInfo(locale, { avatar: avatar ?? '' });
      toast.show(t('account.toast.saved'), 'success');
      await revalidator.revalidate();
    } catch (error) {
      reportError(error);
    }
  };
  return (
    <Card title={t('account.avatar.title')} id={`${id}-title`}>
      <ImageUpload
        value={profile.avatar}
        onChange={save}
        label={t('account.avatar.title')}
        tip={t('account.avatar.hint')}
      />
    </Card>
  );
}

/**
 * The API asks for the current password only of accounts that have one (the service knows,
 * the schema cannot), with the same message.
 */
const passwordFields = changePasswordSchema.extend({
  old_password: z.string().min(1, 'accounts.password.oldRequired').max(128),
});

function PasswordCard({ hasPassword }: { hasPassword: boolean }) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const id = useId();
  const form = useForm(hasPassword ? passwordFields : changePasswordSchema, { old_password: '', new_password: '' });
  const [busy, setBusy] = useState(false);
  const fail = useFailureHandler(form.setServerError, ['old_password', 'new_password'], {
    old_password: 'account.password.current',
    new_password: 'account.password.new',
  });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate()) return;
    if (hasPassword && form.values.old_password === form.values.new_password) {
      form.setServerError('new_password', t('account.validation.passwordsDiffer'));
      return;
    }
    setBusy(true);
    try {
      await accountApi.changePassword(locale, hasPassword ? form.values : { new_password: form.values.new_password });
      form.reset();
      toast.show(t('account.toast.passwordChanged'), 'success');
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('account.password.title')} id={`${id}-title`}>
      <form className="account-form" noValidate onSubmit={submit}>
        {hasPassword ? (
          <PasswordField
            label={t('account.password.current')}
            autoComplete="current-password"
            error={form.errors.old_password}
            {...form.bind('old_password')}
          />
        ) : null}
        <PasswordField
          label={t('account.password.new')}
          autoComplete="new-password"
          placeholder={t('account.placeholder.newPassword')}
          error={form.errors.new_password}
          {...form.bind('new_password')}
        />
        <div className="account-form__actions">
          <BusyButton type="submit" className="button button--secondary" busy={busy}>
            {t('account.password.save')}
          </BusyButton>
        </div>
      </form>
    </Card>
  );
}

/** Logging out here is the navigation's (account-nav.tsx); this card ends every session. */
function SessionsCard() {
  const t = useT();
  const { logout } = useAccount();
  const id = useId();
  const [confirmAll, setConfirmAll] = useState(false);
  return (
    <Card title={t('account.sessions.title')} id={`${id}-title`}>
      <p className="account-card__text">{t('account.sessions.text')}</p>
      <div className="account-form__actions">
        <button type="button" className="button button--danger" onClick={() => setConfirmAll(true)}>
          {t('account.logoutAll')}
        </button>
      </div>
      <ConfirmDialog
        open={confirmAll}
        title={t('account.avatar.notice')}
        text={t('account.sessions.text')}
        tone="danger"
        onCancel={() => setConfirmAll(false)}
        onConfirm={() => logout(true)}
      />
    </Card>
  );
}
