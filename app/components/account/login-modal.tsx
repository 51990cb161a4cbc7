import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { MessageKey } from '../../../i18n';
import { loginByCodeSchema, loginSchema, registerSchema } from '../../../server/domains/customers/accounts.schemas';
import { accountApi } from '~/lib/account-api';
import { ApiError } from '~/lib/api-client';
import { localePath, useCurrentPath, useLocale, useT } from '~/lib/i18n';
import { CloseIcon } from '../ui/icons';
import { GoogleIcon, LockIcon, ShieldIcon } from './account-icons';
import { useAccount, type CaptchaOutcome } from './account-context';
import { ModalDialog } from './modal-dialog';
import { PasswordField, TextField } from './form-field';
import { useForm } from './use-form';
import { useFailureHandler } from './use-failure';
import { BusyButton } from '../ui/busy-button';

/**
 * SPEC section 2's login modal: an email login pane (code or password) and a register
 * pane. Opened from the header's account button, by a 301/302 answer, or by the route
 * guard, which makes it impossible to dismiss and reloads the page after login.
 */
export default function LoginModal() {
  const t = useT();
  const locale = useLocale();
  const { modal, closeLogin } = useAccount();
  const titleId = useId();
  const subtitleId = useId();
  const title: MessageKey = modal.guard
    ? 'account.modal.guardTitle'
    : modal.pane === 'login'
      ? 'account.modal.title'
      : 'account.modal.registerTitle';
  const subtitle: MessageKey = modal.guard
    ? 'account.modal.guardSubtitle'
    : modal.pane === 'login'
      ? 'account.modal.subtitle'
      : 'account.modal.registerSubtitle';

  return (
    <ModalDialog
      open={modal.open}
      onClose={closeLogin}
      dismissible={!modal.guard}
      labelledBy={titleId}
      describedBy={subtitleId}
      className={`modal--account${modal.guard ? ' modal--guard' : ''}`}
    >
      <div className="modal__header modal__header--account">
        <span className="modal__badge" aria-hidden="true">
          {modal.guard ? <LockIcon size={22} /> : <ShieldIcon size={22} />}
        </span>
        <div className="modal__heading">
          <h2 className="modal__title" id={titleId}>
            {t(title)}
          </h2>
          <p className="modal__subtitle" id={subtitleId}>
            {t(subtitle)}
          </p>
        </div>
        {modal.guard ? null : (
          <button type="button" className="icon-button modal__close" onClick={closeLogin}>
            <CloseIcon size={20} />
            <span className="sr-only">{t('account.modal.close')}</span>
          </button>
        )}
      </div>
      <div className="modal__body">
        {modal.pane === 'login' ? <LoginPane /> : <RegisterPane />}
        {modal.guard ? (
          <p className="account-modal__leave">
            <Link to={localePath(locale, '/')} reloadDocument>
              {t('account.modal.backHome')}
            </Link>
          </p>
        ) : null}
      </div>
    </ModalDialog>
  );
}

type Method = 'code' | 'password';
/** Both login tabs share the email; each checks its own fields with its API call's rules. */
const loginFields = loginByCodeSchema.extend({ password: loginSchema.shape.password });

function LoginPane() {
  const t = useT();
  const locale = useLocale();
  const account = useAccount();
  const tabsId = useId();
  const [method, setMethod] = useState<Method>('code');
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string>();
  const form = useForm(loginFields, { email: '', code: '', password: '' });
  const codeInput = useRef<HTMLInputElement | null>(null);
  const secondsLeft = useSecondsUntil(account.codeResendAt);
  const fail = useFailureHandler(form.setServerError, ['email', 'code', 'password']);

  const sendCode = async () => {
    const email = form.values.email.trim();
    if (!email) {
      form.setServerError('email', t('account.validation.emailForCode'));
      return;
    }
    if (!form.validate(['email'])) return;
    let resendAfter: number | undefined;
    const outcome = await account.askCaptcha(async (answer) => {
      const sent = await accountApi.sendCode(locale, { email, ...answer });
      resendAfter = sent?.resend_after;
    });
    if (outcome.status === 'done') {
      account.startCodeCountdown(resendAfter);
      setSentTo(email);
      codeInput.current?.focus();
    } else if (outcome.status === 'failed') {
      const blockedFor = secondsOf(outcome.error);
      if (blockedFor) account.startCodeCountdown(blockedFor);
      fail(outcome.error);
    }
  };

  const submitCode = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate(['email', 'code'])) return;
    setBusy(true);
    try {
      await accountApi.loginByCode(locale, { email: form.values.email.trim(), code: form.values.code.trim() });
      account.completeLogin('login');
    } catch (error) {
      fail(error);
    } finally {
      setBusy(false);
    }
  };

  const submitPassword = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate(['email', 'password'])) return;
    setBusy(true);
    const outcome = await account.askCaptcha(async (answer) => {
      await accountApi.login(locale, { email: form.values.email.trim(), password: form.values.password, ...answer });
    });
    setBusy(false);
    settle(outcome, () => account.completeLogin('login'), fail);
  };

  const emailField = (first: boolean) => (
    <TextField
      label={t('account.field.email')}
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder={t('account.placeholder.email')}
      autoFocus={first}
      error={form.errors.email}
      {...form.bind('email')}
    />
  );

  return (
    <div className="account-pane">
      <div className="account-tabs" role="tablist" aria-label={t('account.tabs.label')}>
        {(['code', 'password'] as const).map((option) => (
          <button
            key={option}
            type="button"
            role="tab"
            id={`${tabsId}-${option}-tab`}
            aria-controls={`${tabsId}-${option}`}
            aria-selected={method === option}
            tabIndex={method === option ? 0 : -1}
            className="account-tabs__tab"
            onClick={() => setMethod(option)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
                const next = option === 'code' ? 'password' : 'code';
                setMethod(next);
                document.getElementById(`${tabsId}-${next}-tab`)?.focus();
              }
            }}
          >
            {t(option === 'code' ? 'account.tab.code' : 'account.tab.password')}
          </button>
        ))}
      </div>
      {/* Both panels stay mounted (only one shown), so switching tabs keeps focus on the tab. */}
      <form
        className="account-form"
        noValidate
        onSubmit={submitCode}
        role="tabpanel"
        hidden={method !== 'code'}
        id={`${tabsId}-code`}
        aria-labelledby={`${tabsId}-code-tab`}
      >
        {emailField(true)}
        <TextField
          label={t('account.field.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder={t('account.placeholder.code')}
          hint={sentTo ? t('account.codeSent', { email: sentTo }) : undefined}
          error={form.errors.code}
          {...form.bind('code')}
          ref={(element: HTMLInputElement | null) => {
            form.bind('code').ref(element);
            codeInput.current = element;
          }}
          end={
            <button
              type="button"
              className="form-field__action"
              onClick={() => void sendCode()}
              disabled={secondsLeft > 0}
              aria-live="polite"
            >
              {secondsLeft > 0 ? t('account.resendIn', { seconds: secondsLeft }) : t('account.getCode')}
            </button>
          }
        />
        <SubmitButton busy={busy}>{busy ? t('account.loggingIn') : t('account.login')}</SubmitButton>
      </form>
      <form
        className="account-form"
        noValidate
        onSubmit={submitPassword}
        role="tabpanel"
        hidden={method !== 'password'}
        id={`${tabsId}-password`}
        aria-labelledby={`${tabsId}-password-tab`}
      >
        {emailField(false)}
        <PasswordField
          label={t('account.field.password')}
          autoComplete="current-password"
          placeholder={t('account.placeholder.password')}
          error={form.errors.password}
          {...form.bind('password')}
        />
        <SubmitButton busy={busy}>{busy ? t('account.loggingIn') : t('account.login')}</SubmitButton>
      </form>
      <p className="account-pane__switch">
        <button type="button" className="link-button" onClick={() => account.setPane('register')}>
          {t('account.goRegister')}
        </button>
      </p>
      {account.googleLogin ? <OtherMethods onError={fail} /> : null}
    </div>
  );
}

const registerFields = registerSchema.pick({ username: true, mobile: true, email: true, password: true });

function RegisterPane() {
  const t = useT();
  const locale = useLocale();
  const account = useAccount();
  const [busy, setBusy] = useState(false);
  const form = useForm(registerFields, { username: '', mobile: '', email: '', password: '' });
  const fail = useFailureHandler(form.setServerError, ['username', 'mobile', 'email', 'password']);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (busy || !form.validate()) return;
    setBusy(true);
    const { username, mobile, email, password } = form.values;
    const outcome = await account.askCaptcha(async (answer) => {
      await accountApi.register(locale, {
        username: username.trim(),
        mobile: mobile.trim(),
        email: email.trim(),
        password,
        ...answer,
      });
    });
    setBusy(false);
    settle(outcome, () => account.completeLogin('register'), fail);
  };

  return (
    <div className="account-pane">
      <form className="account-form" noValidate onSubmit={submit}>
        <TextField
          label={t('account.field.username')}
          autoComplete="nickname"
          placeholder={t('account.placeholder.username')}
          autoFocus
          error={form.errors.username}
          {...form.bind('username')}
        />
        <TextField
          label={t('account.field.mobile')}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder={t('account.placeholder.mobile')}
          error={form.errors.mobile}
          {...form.bind('mobile')}
        />
        <TextField
          label={t('account.field.email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          placeholder={t('account.placeholder.email')}
          error={form.errors.email}
          {...form.bind('email')}
        />
        <PasswordField
          label={t('account.field.password')}
          autoComplete="new-password"
          placeholder={t('account.placeholder.newPassword')}
          error={form.errors.password}
          {...form.bind('password')}
        />
        <SubmitButton busy={busy}>{busy ? t('account.registering') : t('account.register')}</SubmitButton>
        <p className="account-pane__note">{t('account.terms')}</p>
      </form>
      <p className="account-pane__switch">
        <button type="button" className="link-button" onClick={() => account.setPane('login')}>
          {t('account.goLogin')}
        </button>
      </p>
    </div>
  );
}

/** 'Other login methods': Google, when the shop has a Google client id. */
function OtherMethods({ onError }: { onError: (error: unknown) => void }) {
  const t = useT();
  const locale = useLocale();
  const { pathname, search } = useCurrentPath();
  const [busy, setBusy] = useState(false);
  const google = async () => {
    setBusy(true);
    try {
      // Google comes back to /token_url, which returns here: the path without its locale.
      const redirect = pathname.replace(/^\/(en|zh-cn)(?=\/|$)/, '') || '/';
      const { auth_url } = await accountApi.googleUrl(locale, redirect + search);
      window.location.assign(auth_url);
    } catch (error) {
      setBusy(false);
      onError(error);
    }
  };
  return (
    <div className="account-other">
      <p className="account-other__label">
        <span>{t('account.otherMethods')}</span>
      </p>
      <BusyButton type="button" className="account-other__google" onClick={() => void google()} busy={busy}>
        <GoogleIcon size={22} />
        <span>{t('account.google')}</span>
      </BusyButton>
    </div>
  );
}

function settle(outcome: CaptchaOutcome, done: () => void, fail: (error: unknown) => void) {
  if (outcome.status === 'done') done();
  else if (outcome.status === 'failed') fail(outcome.error);
}

/** Seconds a 429 answer says to wait (the body's data or the message). */
function secondsOf(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.code !== 429) return undefined;
  const data = error.data as { resend_after?: unknown; seconds?: unknown; retry_after?: unknown } | null;
  const fromData = Number(data?.resend_after ?? data?.seconds ?? data?.retry_after);
  if (fromData > 0) return fromData;
  const fromText = Number(error.message.match(/\d+/)?.[0]);
  return fromText > 0 ? fromText : undefined;
}

/** Whole seconds left until `until` (epoch ms), ticking every second; 0 once passed. */
function useSecondsUntil(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** A pane's main button: full width, and disabled (aria-busy) while its request runs. */
function SubmitButton({ busy, children }: { busy: boolean; children: React.ReactNode }) {
  return (
    <BusyButton type="submit" className="button button--primary button--block button--large" busy={busy}>
      {children}
    </BusyButton>
  );
}
