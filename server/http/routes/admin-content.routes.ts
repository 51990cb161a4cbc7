import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contentPageBody,
  contentPageEditorView,
  contentPageParams,
  contentPageSummary,
} from '../../domains/content/content-editor.schemas';
import { contentPageForEditor, listContentPages, saveContentPage } from '../../domains/content/content-editor.service';
import { actingContext } from '../admin-api';
import { answers, ok } from '../envelope';

const tags = ['admin'];
const settings = { permission: 'settings:write' } as const;

/** Content pages (docs/console.md): /videos, /our-story, /faq and /contact-us as blocks in both languages. */
export const adminContentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/content-pages',
    {
      config: settings,
      schema: {
        tags,
        summary: 'The content pages with their block counts per language',
        response: answers(z.array(contentPageSummary), 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listContentPages(request.ctx)),
  );

  app.get(
    '/content-pages/:slug',
    {
      config: settings,
      schema: {
        tags,
        summary: 'One content page in both languages',
        params: contentPageParams,
        response: answers(contentPageEditorView, 'invalid', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await contentPageForEditor(request.ctx, request.params.slug)),
  );

  app.put(
    '/content-pages/:slug',
    {
      config: settings,
      schema: {
        tags,
        summary:
          "Replace a page's title, summary and blocks in both languages (audited; retires that page's cached copies)",
        params: contentPageParams,
        body: contentPageBody,
        response: answers(contentPageEditorView, 'write', 'login', 'forbidden', 'notFound'),
      },
    },
    async (request) => ok(await saveContentPage(actingContext(request), request.params.slug, request.body)),
  );
};
