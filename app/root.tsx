import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { pickText } from '../i18n/locales';
import { translate } from '../i18n';
import { analyticsBootstrap } from './lib/analytics';
import { COLOR_MODE_COOKIE, parseColorMode } from './lib/color-mode';
import { localeFromPath, preferredLocale, readCookie } from './lib/locale';
import { pageMeta } from './lib/seo';
import { ErrorPage } from './components/layout/error-page';
import type { Route } from './+types/root';
import './styles/global.css';

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const locale = localeFromPath(url.pathname) ?? preferredLocale(request);
  const settings = await context.services.siteSettings.getSiteSettings(context.ctx);
  const { title, keyword, desc } = context.services.siteSettings.seoConfigView(settings, locale);
  const user = context.ctx.user;
  return {
    locale,
    colorMode: parseColorMode(readCookie(request.headers.get('cookie'), COLOR_MODE_COOKIE)),
    csrfToken: context.csrfToken,
    seo: { title, keyword, desc },
    site: {
      name: pickText(settings.shop_name, locale),
      logo: settings.logo,
      favicon: settings.seo_image,
      analysisCode: settings.analysis_code,
      contactEmail: settings.contact_email,
      contactPhone: settings.contact_phone,
      currency: settings.currency,
    },
    user: user ? { username: user.username, avatar: user.avatar } : null,
  };
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>;

/** Site settings change rarely; reload them only when the language or a form post may have changed them. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod && formMethod !== 'GET') return defaultShouldRevalidate;
  return localeFromPath(currentUrl.pathname) !== localeFromPath(nextUrl.pathname);
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches);

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootLoaderData>('root');
  const locale = data?.locale ?? 'zh-cn';
  const favicon = data?.site.favicon ? faviconUrl(data.site.favicon) : '/favicon.ico';
  return (
    <html lang={locale === 'zh-cn' ? 'zh-CN' : 'en'} data-color-mode={data?.colorMode ?? 'system'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={data?.colorMode === 'system' || !data ? 'light dark' : data.colorMode} />
        <meta name="theme-color" content="#ff6900" />
        <link rel="icon" href={favicon} />
        <Meta />
        <Links />
        {data?.site.analysisCode ? (
          <script dangerouslySetInnerHTML={{ __html: analyticsBootstrap(data.site.analysisCode) }} />
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

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<RootLoaderData>('root');
  const locale = data?.locale ?? 'zh-cn';
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorPage status={404} title={translate(locale, 'error.pageNotFound')} />;
  }
  const message =
    isRouteErrorResponse(error) ? String(error.data ?? error.statusText) : translate(locale, 'error.internalDescription');
  return (
    <ErrorPage
      status={isRouteErrorResponse(error) ? error.status : 500}
      title={translate(locale, 'error.internal')}
      description={message}
    />
  );
}
