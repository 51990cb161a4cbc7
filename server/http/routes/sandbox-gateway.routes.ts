import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  completeSandboxSession,
  deliverSandboxWebhookNow,
  findSandboxSession,
  sandboxWebhookUrl,
} from '../../domains/payments/sandbox/sandbox-gateway.service';
import {
  renderSandboxCheckout,
  renderSandboxNotFound,
  SANDBOX_PAGE_CSP,
} from '../../domains/payments/sandbox/sandbox-page';
import { sandboxSessionParams } from '../../domains/payments/payments.schemas';
import type { Env } from '../../shared/env';

/**
 * The sandbox gateway's hosted page, served by the shop itself (only while the sandbox takes
 * payments: SANDBOX_PAYMENTS, docs/decisions/0141-payment-methods-and-event-inbox.md). It behaves like a real gateway: the shop learns the outcome
 * from a signed webhook, not from the buyer's redirect.
 */
export const sandboxGatewayRoutes: FastifyPluginAsyncZod<{ env: Env }> = async (app, { env }) => {
  if (env.NODE_ENV === 'production') {
    app.log.warn(
      'The sandbox takes payments: buyers may pay with a test gateway and no money moves. Configure a real provider (STRIPE_SECRET_KEY …) and leave SANDBOX_PAYMENTS at auto, or set SANDBOX_PAYMENTS=off.',
    );
  }
  // The buttons post empty forms; the body carries nothing the gateway reads.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, _body, done) =>
    done(null, {}),
  );
  const pageHeaders = {
    'content-security-policy': SANDBOX_PAGE_CSP,
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
  };

  app.get('/sandbox-gateway/checkout/:session', { schema: { hide: true } }, async (request, reply) => {
    const parsed = sandboxSessionParams.safeParse(request.params);
    const session = parsed.success ? await findSandboxSession(request.ctx, parsed.data.session) : null;
    reply.headers(pageHeaders).type('text/html; charset=utf-8');
    if (!session) return reply.status(404).send(renderSandboxNotFound(request.ctx.locale));
    return reply.send(renderSandboxCheckout(session));
  });

  app.post('/sandbox-gateway/checkout/:session/:action', { schema: { hide: true } }, async (request, reply) => {
    const { action } = request.params as { action: string };
    const parsed = sandboxSessionParams.safeParse(request.params);
    const session = parsed.success ? await findSandboxSession(request.ctx, parsed.data.session) : null;
    if (!session || (action !== 'pay' && action !== 'decline')) {
      return reply
        .status(404)
        .headers(pageHeaders)
        .type('text/html; charset=utf-8')
        .send(renderSandboxNotFound(request.ctx.locale));
    }
    const completed = await completeSandboxSession(request.ctx, { sessionId: session.id, action });
    const url = sandboxWebhookUrl(env, request.server.server.address());
    if (completed.eventId && url) await deliverSandboxWebhookNow(request.ctx, url, completed.eventId);
    const paid = completed.session.status === 'paid' || completed.session.status === 'refunded';
    return reply.redirect(paid ? completed.session.successUrl : completed.session.failUrl, 303);
  });
};
