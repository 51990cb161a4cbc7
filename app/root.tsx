import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { pickText } from '../i18n/locales';
import { translate } from '../i18n';
import { analyticsBootstrap } from './lib/analytics';
import { COLOR_MODE_COOKIE, colorSchemeFor, parseColorMode } from './lib/color-mode';
import { htmlLang, useLocale } from './lib/i18n';
import { localeFromPath } from './lib/locale';
import { preferredLocale, requestCookies } from './lib/request-cookies.server';
import { preloadModule } from 'react-dom';
import messagePackUrls from 'virtual:message-pack-urls';
import { useMessagePacks } from './lib/message-packs';
import { pageMeta } from './lib/seo';
import { displayCurrencyOf } from './lib/currency.server';
import { siteOrigin } from '../server/shared/site-origin';
import { SIGNED_IN_HINT_SCRIPT } from '../server/shared/signed-in-hint';
import { SHIP_TO_HINT_SCRIPT } from '../server/shared/ship-to-hint';
import { ANNOUNCEMENT_HINT_SCRIPT } from '../server/shared/announcement-hint';
import { RouteErrorPage } from './components/layout/error-page';
import { SiteShell } from './components/layout/site-shell';
import { AccountShell, accountRootData } from './components/account/account-shell';
import type { Route } from './+types/root';
import stylesheetUrl from './styles/index.css?url';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: stylesheetUrl }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname) ?? preferredLocale(request);
  const settings = await context.services.siteSettings.getSiteSettings(context.ctx);
  const { title, keyword, desc } = context.services.siteSettings.seoConfigView(settings, locale);
  const user = context.ctx.user;
  const cookies = requestCookies(request);
  return {
    locale,
    /** Absolute URLs (canonical, hreflang, Open Graph) start with this. */
    origin: siteOrigin(context.ctx.env, url.origin),
    /** Prices are stored in `settlement`; the buyer sees them in `currency`, converted with `rates`. */
    display: displayCurrencyOf(request, settings),
    colorMode: parseColorMode(cookies[COLOR_MODE_COOKIE]),
    seo: { title, keyword, desc },
    site: {
      name: pickText(settings.shop_name, locale),
      logo: context.brand.address(settings.logo),
      logoDark: context.brand.darkTwin(settings.logo),
      favicon: context.brand.address(settings.seo_image),
      // The owner's analytics script runs on storefront pages only: in the console it would run
      // with every staff member's session, so whoever may edit it could act as the Owner.
      analysisCode: isConsolePath(url.pathname) ? '' : settings.analysis_code,
      contactEmail: settings.contact_email,
      contactPhone: settings.contact_phone,
      currency: settings.currency,
      /** No fallback to the other language: a text left empty hides the bar there. */
      announcement: settings.announcement[locale],
      /** The display currencies the owner offers (the settlement currency among them). */
      currencies: settings.display_currencies,
    },
    user: user ? { username: user.username, avatar: user.avatar } : null,
    auth: accountRootData(context),
  };
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>;

/** Site settings change rarely; reload them only when the language or a form post may have changed them. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate;
  // An explicit revalidation (after login or a profile change) reloads the user too.
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  return localeFromPath(currentUrl.pathname) !== localeFromPath(nextUrl.pathname);
}

export const meta: Route.MetaFunction = ({ matches, error, location }) => {
  if (!error) return pageMeta(matches);
  const locale = localeFromPath(location.pathname) ?? 'zh-cn';
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [
    ...pageMeta(matches, { title: translate(locale, notFound ? 'error.pageNotFound' : 'error.internal') }),
    { name: 'robots', content: 'noindex' },
  ];
};

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootLoaderData>('root');
  const locale = useLocale();
  const colorMode = data?.colorMode ?? 'system';
  const favicon = data?.site.favicon ? faviconUrl(data.site.favicon) : '/favicon.ico';
  const messagePacks = useMessagePacks();
  if (import.meta.env.SSR) {
    // The entry loads these before hydrating; a preload in the head starts them with the other scripts.
    for (const pack of messagePacks) {
      const href = messagePackUrls[`${locale}/${pack}`];
      if (href) preloadModule(href, { as: 'script' });
    }
  }
  return (
    <html lang={htmlLang(locale)} data-color-mode={colorMode} data-message-packs={messagePacks.join(' ')}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={colorSchemeFor(colorMode)} />
        <meta name="theme-color" content="#ff6900" />
        <link rel="icon" href={favicon} />
        {/* These scripts run once, from the server's HTML; the browser bundle need not carry their text. */}
        <script
          dangerouslySetInnerHTML={{
            __html: import.meta.env.SSR
              ? `${SIGNED_IN_HINT_SCRIPT};${SHIP_TO_HINT_SCRIPT};${ANNOUNCEMENT_HINT_SCRIPT}`
              : '',
          }}
          suppressHydrationWarning
        />
        <Meta />
        <Links />
        {data?.site.analysisCode ? (
          <script
            dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? analyticsBootstrap(data.site.analysisCode) : '' }}
            suppressHydrationWarning
          />
        ) : null}
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** SPEC section 7: the page icon is seo_image as webp at quality 50 where the image server can convert it. */
function faviconUrl(image: string): string {
  return image.startsWith('/images/') ? `${image}?format=webp&q=50` : image;
}

/** The operator console (app/admin) brings its own layout: the storefront's header and footer stay out. */
const isConsolePath = (pathname: string) => pathname === '/admin' || pathname.startsWith('/admin/');

export default function App() {
  if (isConsolePath(useLocation().pathname)) return <Outlet />;
  return (
    <AccountShell>
      <SiteShell>
        <Outlet />
      </SiteShell>
    </AccountShell>
  );
}

/**
 * Errors that reach the root: inside the shell when the root data loaded (the usual case,
 * e.g. a failing page outside a locale), standalone when the root loader itself failed.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<RootLoaderData>('root');
  const consolePage = isConsolePath(useLocation().pathname);
  if (data && !consolePage) {
    return (
      <AccountShell>
        <SiteShell>
          <RouteErrorPage error={error} />
        </SiteShell>
      </AccountShell>
    );
  }
  return (
    <main id="main" className="site-main site-main--standalone" tabIndex={-1}>
      <RouteErrorPage error={error} />
    </main>
  );
}
