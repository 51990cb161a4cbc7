import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useLocation, useRevalidator } from 'react-router';
import type { CaptchaAnswer, VisitorView } from '../../../server/domains/customers/accounts.schemas';
import { SIGNED_IN_HINT_DATA_KEY } from '../../../server/shared/signed-in-hint';
import { api, ApiError, NetworkError, onSessionLost } from '~/lib/api-client';
import { loadMessagePacks } from '../../../i18n';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { pageLocale } from '~/lib/message-packs';
import { useRootData } from '~/lib/root-data';
import { useToast } from './toast';
import { announceCartCount } from '~/lib/cart-count';

/** The dialogs and menus and their texts (the `account` message pack) arrive when first opened. */
export const withAccountMessages =
  <T,>(load: () => Promise<T>) =>
  () =>
    Promise.all([load(), loadMessagePacks(pageLocale(), ['account'])]).then(([module]) => module);
const LoginModal = lazy(withAccountMessages(() => import('./login-modal')));
const CaptchaDialog = lazy(withAccountMessages(() => import('./captcha-dialog')));

/** SPEC section 9: the verification-code button waits 60 s between sends. */
export const CODE_RESEND_SECONDS = 60;
const RESEND_KEY = 'shop.code-resend-at';

export type Pane = 'login' | 'register';
export interface LoginModalState {
  open: boolean;
  pane: Pane;
  /** Opened by the route guard: not closable, and a login reloads the page. */
  guard: boolean;
}

export type CaptchaSubmit = (answer: CaptchaAnswer) => Promise<void>;
export type CaptchaOutcome = { status: 'done' } | { status: 'closed' } | { status: 'failed'; error: unknown };
export interface CaptchaRequest {
  submit: CaptchaSubmit;
  settle: (outcome: CaptchaOutcome) => void;
}

export type SessionUserView = NonNullable<NonNullable<ReturnType<typeof useRootData>>['user']>;

interface AccountApi {
  user: SessionUserView | null;
  googleLogin: boolean;
  modal: LoginModalState;
  openLogin(options?: { pane?: Pane; guard?: boolean }): void;
  closeLogin(): void;
  /** The guarded page is gone (a navigation): the modal closes and is dismissible again. */
  releaseGuard(): void;
  setPane(pane: Pane): void;
  /**
   * Opens the captcha dialog; `submit` runs with the answer while the dialog shows a busy
   * state. A failed `submit` refreshes the picture (captchas are single-use, SPEC section 8);
   * a wrong answer keeps the dialog open, any other failure closes it and is returned.
   */
  askCaptcha(submit: CaptchaSubmit): Promise<CaptchaOutcome>;
  /** Epoch ms until which 'Get code' stays disabled; kept here so it outlives the modal. */
  codeResendAt: number;
  startCodeCountdown(seconds?: number): void;
  /** After a successful login or registration. */
  completeLogin(kind: 'login' | 'register'): void;
  logout(all?: boolean): Promise<void>;
  /** Shows an API failure as SPEC section 8 says (301/302 are handled centrally). */
  reportError(error: unknown): void;
}

const AccountContext = createContext<AccountApi | null>(null);

export function useAccount(): AccountApi {
  const account = useContext(AccountContext);
  if (!account) throw new Error('useAccount() used outside <AccountProvider>');
  return account;
}

/** Forget-me data of the account UI kept in the browser, cleared on logout (SPEC section 4). */
function clearStoredAccountState() {
  try {
    sessionStorage.removeItem(RESEND_KEY);
  } catch {
    // Storage unavailable: nothing was stored.
  }
}

/**
 * The storefront's account state: who is logged in (from the root loader, or nobody after a
 * 301/302 answer), the login modal and the captcha dialog (one of each for the whole page),
 * the verification-code countdown, and what happens after login and logout.
 */
export function AccountProvider({ children }: { children: React.ReactNode }) {
  const rootData = useRootData();
  const locale = useLocale();
  const t = useT();
  const toast = useToast();
  const revalidator = useRevalidator();
  const location = useLocation();
  const [modal, setModal] = useState<LoginModalState>({ open: false, pane: 'login', guard: false });
  const [modalLoaded, setModalLoaded] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaRequest | null>(null);
  const [lostSession, setLostSession] = useState(false);
  const [codeResendAt, setCodeResendAt] = useState(0);
  const modalRef = useRef(modal);
  modalRef.current = modal;

  // Login-only pages are rendered for the buyer and carry them in the root data. Catalogue pages
  // are one cached copy for everyone: who is looking (and the cart count) comes from /v1/visitor,
  // asked again after each navigation and each login (which revalidates the root data).
  const [visitor, setVisitor] = useState<VisitorView | null>(null);
  const serverUser = rootData?.user ?? null;
  const user = lostSession ? null : (serverUser ?? visitor?.user ?? null);

  useEffect(() => {
    const controller = new AbortController();
    void api<VisitorView>('/visitor', { locale, signal: controller.signal })
      .then((answer) => {
        setVisitor(answer);
        announceCartCount(answer.cart_count);
        return answer.user;
      })
      .catch(() => null)
      .then((signedIn) => {
        // Nobody signed in, or no answer: the login button may show.
        if (!signedIn) delete document.documentElement.dataset[SIGNED_IN_HINT_DATA_KEY];
      });
    return () => controller.abort();
    // rootData is new after a revalidation (a login) and a change of language.
  }, [locale, location.pathname, rootData]);

  useEffect(() => {
    // A new user from the server (login, another tab) ends a local logout.
    if (serverUser) setLostSession(false);
  }, [serverUser]);

  useEffect(() => {
    try {
      const stored = Number(sessionStorage.getItem(RESEND_KEY));
      if (stored > Date.now()) setCodeResendAt(stored);
    } catch {
      // Storage unavailable.
    }
  }, []);

  const openLogin = useCallback((options: { pane?: Pane; guard?: boolean } = {}) => {
    setModalLoaded(true);
    setModal((current) => ({
      open: true,
      pane: options.pane ?? 'login',
      // Once the guard asked, a later request (a 301 on the same page) does not make it closable.
      guard: Boolean(options.guard) || (current.open && current.guard),
    }));
  }, []);

  const closeLogin = useCallback(
    () => setModal((current) => (current.guard ? current : { ...current, open: false })),
    [],
  );
  const releaseGuard = useCallback(
    () => setModal((current) => ({ ...current, open: current.open && !current.guard, guard: false })),
    [],
  );
  const setPane = useCallback((pane: Pane) => setModal((current) => ({ ...current, pane })), []);

  useEffect(
    () =>
      onSessionLost((error) => {
        // SPEC section 8: log out locally without a redirect, open the modal; 301 shows no toast.
        setLostSession(true);
        if (error.code !== 301) toast.show(error.message, 'error');
        openLogin();
      }),
    [openLogin, toast],
  );

  // Google's return path carries ?login_error=google (or disabled) when the sign-in failed: say so once, and tidy the address.
  useEffect(() => {
    const url = new URL(window.location.href);
    if (!url.searchParams.has('login_error')) return;
    const disabled = url.searchParams.get('login_error') === 'disabled';
    toast.show(t(disabled ? 'account.toast.accountDisabled' : 'account.toast.googleFailed'), 'error');
    url.searchParams.delete('login_error');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }, [location.key, t, toast]);

  const askCaptcha = useCallback(
    (submit: CaptchaSubmit) =>
      new Promise<CaptchaOutcome>((resolve) => {
        setModalLoaded(true);
        setCaptcha({
          submit,
          settle: (outcome) => {
            setCaptcha(null);
            resolve(outcome);
          },
        });
      }),
    [],
  );

  const startCodeCountdown = useCallback((seconds = CODE_RESEND_SECONDS) => {
    const until = Date.now() + seconds * 1000;
    setCodeResendAt(until);
    try {
      sessionStorage.setItem(RESEND_KEY, String(until));
    } catch {
      // Storage unavailable: the countdown still runs for this page.
    }
  }, []);

  const completeLogin = useCallback(
    (kind: 'login' | 'register') => {
      const message = t(kind === 'login' ? 'account.toast.loggedIn' : 'account.toast.registered');
      if (modalRef.current.guard) {
        // SPEC section 2: after a login from the guard the page reloads, now with the account's data.
        toast.flash(message, 'success');
        window.location.reload();
        return;
      }
      setLostSession(false);
      setModal((current) => ({ ...current, open: false }));
      toast.show(message, 'success');
      void revalidator.revalidate();
    },
    [revalidator, t, toast],
  );

  const reportError = useCallback(
    (error: unknown) => {
      if (error instanceof ApiError) {
        if (!error.sessionLost) toast.show(error.message, 'error');
      } else if (error instanceof NetworkError) {
        console.warn(error);
        toast.show(t('account.toast.network'), 'error');
      } else {
        throw error;
      }
    },
    [t, toast],
  );

  const logout = useCallback(
    async (all = false) => {
      try {
        await api<null>('/user/logout', { method: 'POST', body: { all }, locale });
      } catch (error) {
        // An already-ended session is logged out anyway; anything else is shown and stops here.
        if (!(error instanceof ApiError && error.sessionLost)) {
          reportError(error);
          return;
        }
      }
      clearStoredAccountState();
      toast.flash(t('account.toast.loggedOut'), 'success');
      // SPEC section 4: logout clears tokens and the stored user and goes to /. A full load drops every cached bit.
      window.location.assign(localePath(locale, '/'));
    },
    [locale, reportError, t, toast],
  );

  const googleLogin = Boolean(rootData?.auth.google);

  // Not memoised: most of the provider's state is in the value, and otherwise the provider
  // re-renders only with the root, which re-renders every consumer anyway.
  const account: AccountApi = {
    user,
    googleLogin,
    modal,
    openLogin,
    closeLogin,
    releaseGuard,
    setPane,
    askCaptcha,
    codeResendAt,
    startCodeCountdown,
    completeLogin,
    logout,
    reportError,
  };

  return (
    <AccountContext.Provider value={account}>
      {children}
      {modalLoaded ? (
        <Suspense fallback={null}>
          <LoginModal />
          <CaptchaDialog request={captcha} />
        </Suspense>
      ) : null}
    </AccountContext.Provider>
  );
}
