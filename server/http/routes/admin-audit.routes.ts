import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditFacets, auditListQuery, auditPage } from '../../domains/audit/audit.schemas';
import { listAuditEvents, listAuditFacets } from '../../domains/audit/audit-log.service';
import { answers, ok } from '../envelope';

/** The audit log viewer: reading only, there is no route that changes the log. */
export const adminAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    {
      config: { permission: 'audit:read' },
      schema: {
        tags: ['admin'],
        summary: 'Audit events, newest first, filtered by actor, entity, action and time',
        querystring: auditListQuery,
        response: answers(auditPage, 'invalid', 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listAuditEvents(request.ctx, request.query)),
  );

  app.get(
    '/audit/facets',
    {
      config: { permission: 'audit:read' },
      schema: {
        tags: ['admin'],
        summary: "The actions, entity types and actor types in the log (the viewer's filter choices)",
        response: answers(auditFacets, 'login', 'forbidden'),
      },
    },
    async (request) => ok(await listAuditFacets(request.ctx)),
  );
};
