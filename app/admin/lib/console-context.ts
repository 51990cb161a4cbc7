import { useMatches, useRouteLoaderData } from 'react-router';
import { translator, type Translate } from '../../../i18n';
import type { Locale } from '../../../i18n/locales';
import type { Permission } from '../../../server/domains/staff/permissions';
import type { StaffSelf } from '../../../server/domains/staff/staff.schemas';

/** What app/admin/console-root.tsx's client loader found: who is signed in and in which language. */
export interface ConsoleData {
  staff: StaffSelf | null;
  setupRequired: boolean;
  locale: Locale;
}

export const CONSOLE_ROOT_ID = 'admin/console-root';

export function useConsole(): ConsoleData {
  const data = useRouteLoaderData(CONSOLE_ROOT_ID) as ConsoleData | undefined;
  return data ?? { staff: null, setupRequired: false, locale: 'en' };
}

export function useConsoleT(): Translate {
  return translator(useConsole().locale);
}

/** Whether the signed-in member holds a permission; the server checks again on every call. */
export function useCan(): (permission: Permission) => boolean {
  const { staff } = useConsole();
  return (permission) => staff?.permissions.includes(permission) ?? false;
}

/** The signed-in member inside the console's shell (which sends everyone else to sign in). */
export function useStaff(): StaffSelf {
  const { staff } = useConsole();
  if (!staff) throw new Error('useStaff outside the signed-in console');
  return staff;
}

/**
 * The current page's client loader data. (The console reads it through useMatches, which the
 * storefront uses too: every react-router export only the console used would be kept in the
 * shared vendor chunk that every storefront page loads.)
 */
export function usePageData<Loader extends (...args: never[]) => unknown>(): Awaited<ReturnType<Loader>> {
  const matches = useMatches();
  return matches[matches.length - 1]?.data as Awaited<ReturnType<Loader>>;
}
