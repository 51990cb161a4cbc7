import { redirect } from 'react-router';
import { isLocale } from '../../i18n/locales';
import { colorModeCookie, parseColorMode } from '~/lib/color-mode';
import type { Route } from './+types/preferences';

/** Only local paths are followed back; anything else (other hosts, `//evil`) goes home. */
function safeBackPath(value: FormDataEntryValue | null, fallback: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return fallback;
  }
  return value;
}

/**
 * The no-JS path of the colour-mode switch: the form posts here, the cookie is set and the
 * visitor goes back to the page they were on. (With JS the switch works on the client.)
 */
export async function action({ request, params }: Route.ActionArgs) {
  const home = `/${isLocale(params.locale) ? params.locale : 'zh-cn'}/`;
  const form = await request.formData();
  const mode = parseColorMode(String(form.get('colorMode') ?? ''));
  return redirect(safeBackPath(form.get('redirectTo'), home), {
    status: 303,
    headers: { 'Set-Cookie': colorModeCookie(mode) },
  });
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/${isLocale(params.locale) ? params.locale : 'zh-cn'}/`);
}
