import type { StorefrontLoadContext } from '../../server/services';

declare module 'react-router' {
  // An interface, not a type alias: module augmentation merges interfaces only.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends StorefrontLoadContext {}
}

export type { StorefrontLoadContext };
