import type { AppContext } from '../../context';
import { bumpContentVersion } from '../../shared/content-version';
import type { ContentPageSlug } from './content.service';

/**
 * Retires the cached copies of one content page after an edit. Until the page cache keys
 * content pages by their own scope (server/shared/content-version.ts is being extended with
 * page scopes), this moves the shared content version: correct, but it retires every page.
 */
export async function retireContentPage(ctx: AppContext, slug: ContentPageSlug): Promise<void> {
  void slug;
  await bumpContentVersion(ctx);
}
