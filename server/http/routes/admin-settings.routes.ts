import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { saveSiteSettings, siteSettingsForEditor } from '../../domains/site-settings/site-settings-editor.service';
import { siteSettingsChanges, siteSettingsEditorView } from '../../domains/site-settings/site-settings-editor.schemas';
import { actingContext } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const settings = { permission: 'settings:write' } as const;

/** Site settings (docs/console.md): identity, SEO, sign-in, analytics, markets, announcement, order timers. */
export const adminSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/settings',
    {
      config: settings,
      schema: {
        tags,
        summary: 'The editable site settings, the settlement currency and the order timers’ defaults',
        response: answers(siteSettingsEditorView, 'login', 'forbidden'),
      },
    },
    async (request) => ok(await siteSettingsForEditor(request.ctx)),
  );

  app.patch(
    '/settings',
    {
      config: settings,
      schema: {
        tags,
        summary: 'Change the settings named in the body (audited; retires every cached page)',
        body: siteSettingsChanges,
        response: answers(siteSettingsEditorView, 'write', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await saveSiteSettings(actingContext(request), request.body)),
  );
};
