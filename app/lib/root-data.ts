import { useRouteLoaderData } from 'react-router';
import type { RootLoaderData } from '../root';

/** The root loader's data (site settings, SEO, user); undefined only when the root loader itself failed. */
export function useRootData(): RootLoaderData | undefined {
  return useRouteLoaderData<RootLoaderData>('root');
}

/** For components that only render inside the shell, where the root data always exists. */
export function useSite(): RootLoaderData['site'] {
  const data = useRootData();
  if (!data) throw new Error('useSite() used outside the storefront shell');
  return data.site;
}
