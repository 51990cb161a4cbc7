import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { loadMessagePacks } from '../i18n';
import { isMessagePack } from '../i18n/packs';
import { pageLocale } from './lib/message-packs';

/**
 * Hydration renders the same strings as the server did, so the page's message packs (named
 * by the server on <html data-message-packs>) must be here first (i18n/packs.ts).
 */
const packs = (document.documentElement.dataset.messagePacks ?? '').split(' ').filter(isMessagePack);

loadMessagePacks(pageLocale(), packs).then(() => {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
});
