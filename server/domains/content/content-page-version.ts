import type { AppContext } from '../../context';
import { retirePageScopes } from '../../shared/content-version';
import type { ContentPageSlug } from './content.service';

/** Retires the cached copies of one content page (both languages) after an edit, and no other page. */
export async function retireContentPage(ctx: AppContext, slug: ContentPageSlug): Promise<void> {
  await retirePageScopes(ctx, [`content:${slug}`]);
}
