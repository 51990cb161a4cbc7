import type { StorefrontLoadContext } from '../../server/http/storefront-context';

declare module 'react-router' {
  interface AppLoadContext extends StorefrontLoadContext {}
}

export type { StorefrontLoadContext };
