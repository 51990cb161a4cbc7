import type { Services } from '../services';
import type { RequestContext } from '../shared/context';

/** What every storefront loader and action receives as `context`. */
export interface StorefrontLoadContext {
  ctx: RequestContext;
  services: Services;
}
