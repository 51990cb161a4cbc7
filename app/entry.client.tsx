import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { loadMessagePacks } from '../i18n';
import { isMessagePack } from '../i18n/packs';
import { pageLocale } from './lib/message-packs';

/**
 * Hydration renders the same strings as the server did, so the page's message packs (named
 * by the server on <html data-message-packs>) must be here first (i18n/packs.ts). If they
 * cannot be fetched (twice), the page stays as the server rendered it: links and forms work
 * without JavaScript, and hydrating without its texts would replace them with bare keys.
 */
const packs = (document.documentElement.dataset.messagePacks ?? '').split(' ').filter(isMessagePack);
const locale = pageLocale();

loadMessagePacks(locale, packs)
  .catch(() => loadMessagePacks(locale, packs))
  .then(
    () => {
      startTransition(() => {
        hydrateRoot(
          document,
          <StrictMode>
            <HydratedRouter />
          </StrictMode>,
        );
      });
    },
    (error: unknown) => console.error('The page texts could not be loaded; the page works without scripts.', error),
  );
