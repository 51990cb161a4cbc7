import { isRouteErrorResponse, Link, Outlet, type ShouldRevalidateFunctionArgs } from 'react-router';
import { loadMessagePacks, translate } from '../../i18n';
import { normalizeLocale, type Locale } from '../../i18n/locales';
import type { MessagePacksHandle } from '../../i18n/packs';
import { htmlLang } from '~/lib/i18n';
import { pageLocale } from '~/lib/message-packs';
import { readBrowserCookie } from '~/lib/api-client';
import { consoleSession, setApiLocale } from './lib/admin-api';
import type { ConsoleData } from './lib/console-context';
import './styles/console.css';
import './styles/duties.css';

/**
 * The console's root: every /admin page renders in the browser (the server sends the
 * document with this route's skeleton only, so no console data or code is in the
 * storefront's pages or cache). The loader asks who is signed in and loads the console's
 * texts in their language: the member's choice when signed in, else the `lang` cookie (the
 * shop's language choice), else the browser's languages, else the shop's default.
 */
export const handle: MessagePacksHandle = { messagePacks: ['admin'] };

export async function clientLoader(): Promise<ConsoleData> {
  const session = await consoleSession();
  const locale: Locale =
    session.staff?.locale ??
    normalizeLocale(readBrowserCookie('lang')) ??
    navigator.languages.map(normalizeLocale).find((known) => known !== undefined) ??
    pageLocale();
  setApiLocale(locale);
  await loadMessagePacks(locale, ['admin']);
  // The document is the storefront's; its language becomes the member's (screen readers, fonts).
  document.documentElement.lang = htmlLang(locale);
  return { staff: session.staff, setupRequired: session.setup_required, locale };
}
clientLoader.hydrate = true as const;

/** The session changes only by signing in or out and by the profile, which revalidate explicitly. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate;
  return currentUrl.href === nextUrl.href ? defaultShouldRevalidate : false;
}

/** The shell holds nobody's data, but a console page has no business in any shared cache. */
export function headers() {
  return { 'Cache-Control': 'private, no-store' };
}

export function meta() {
  return [{ title: 'Console' }, { name: 'robots', content: 'noindex, nofollow' }];
}

export function HydrateFallback() {
  return (
    <div className="console-app console-loading" aria-busy="true">
      <div className="console-loading__sidebar" />
      <div className="console-loading__main">
        <div className="skeleton skeleton--title" />
        <div className="skeleton skeleton--block" />
        <div className="skeleton skeleton--block" />
      </div>
    </div>
  );
}

export default function ConsoleRoot() {
  return (
    <div className="console-app">
      <Outlet />
    </div>
  );
}

/** Errors outside the shell (the session could not be read): a plain page with a way to try again. */
export function ErrorBoundary({ error }: { error: unknown }) {
  const locale = pageLocaleSafe();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="console-app console-auth" id="main">
      <div className="console-auth__card">
        <h1>{safeTranslate(locale, 'console.error.title')}</h1>
        <p role="alert">{message}</p>
        <Link className="button button--primary" to="/admin" reloadDocument>
          {safeTranslate(locale, 'console.error.retry')}
        </Link>
      </div>
    </main>
  );
}

function pageLocaleSafe(): Locale {
  return typeof document === 'undefined' ? 'en' : pageLocale();
}

/** The texts may be what failed to load: fall back to English words rather than keys. */
function safeTranslate(locale: Locale, key: 'console.error.title' | 'console.error.retry'): string {
  const text = translate(locale, key);
  if (text !== key) return text;
  return key === 'console.error.title' ? 'The console could not load' : 'Try again';
}
