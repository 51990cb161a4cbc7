import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  orderIdParams,
  payAnswer,
  payBody,
  payStatusAnswer,
  webhookAnswer,
} from '../../domains/payments/payments.schemas';
import { paymentStatus, receiveWebhook, startPayment } from '../../domains/payments/payments.service';
import type { PaymentProviderName } from '../../domains/payments/payment-provider';
import type { Env } from '../../shared/env';
import { siteOriginOf } from '../request-context';
import { requireUser } from '../auth';
import { answers, ok } from '../envelope';

/** The gateways' webhooks: verified against the exact bytes received, so the body stays raw. */
const webhookRoutes: FastifyPluginAsyncZod<{ providers: PaymentProviderName[] }> = async (app, { providers }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  for (const provider of providers) {
    app.post(
      `/pay/webhook/${provider}`,
      {
        config: { csrfExempt: true },
        schema: {
          tags: ['payments'],
          summary: `Webhook from the ${provider} gateway (signed; raw body)`,
          response: answers(webhookAnswer, 'invalid', 'notFound', 'tooLarge'),
        },
      },
      async (request) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await receiveWebhook(request.ctx, provider, rawBody, request.headers);
        return ok({ received: true as const, outcome });
      },
    );
  }
};

export const paymentRoutes: FastifyPluginAsyncZod<{ env: Env }> = async (app, { env }) => {
  app.post(
    '/pay',
    {
      preHandler: requireUser,
      schema: {
        tags: ['payments'],
        summary: 'Start paying one of your unpaid orders: a payment attempt and the gateway page to send the buyer to',
        body: payBody,
        response: answers(payAnswer, 'write', 'login', 'notFound', 'conflict', 'gateway'),
      },
    },
    async (request) => {
      const started = await startPayment(request.ctx, {
        orderId: request.body.order_id,
        provider: request.body.provider,
        siteOrigin: siteOriginOf(request),
      });
      return ok({ payment_id: started.paymentId, redirect_url: started.redirectUrl });
    },
  );

  app.get(
    '/pay/PayStatus/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['payments'],
        summary: "An order's pay status and order status, for the result page to poll (owner only)",
        params: orderIdParams,
        response: answers(payStatusAnswer, 'invalid', 'login', 'notFound'),
      },
    },
    async (request) => ok(await paymentStatus(request.ctx, request.params.id)),
  );

  // The sandbox only takes webhooks while it is the chosen provider, so a live shop cannot be paid with play money.
  const providers: PaymentProviderName[] = [];
  if (env.PAYMENT_PROVIDER === 'sandbox') providers.push('sandbox');
  if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) providers.push('stripe');
  await app.register(webhookRoutes, { providers });
};
