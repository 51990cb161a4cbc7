import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  orderIdParams,
  payAnswer,
  payBody,
  payStatusAnswer,
  webhookAnswer,
} from '../../domains/payments/payments.schemas';
import { paymentStatus, receiveWebhook, startPayment } from '../../domains/payments/payments.service';
import { PAYMENT_PROVIDERS, type PaymentProviderName } from '../../domains/payments/payment-provider';
import { providerNamed, sandboxPaymentsOn } from '../../domains/payments/payment-providers';
import type { Env } from '../../shared/env';
import { siteOriginOf } from '../request-context';
import { requireUser } from '../auth';
import { answers, envelopeOf, ok } from '../envelope';

/** The gateways' webhooks: verified against the exact bytes received, so the body stays raw. */
const webhookRoutes: FastifyPluginAsyncZod<{ env: Env; providers: PaymentProviderName[] }> = async (
  app,
  { env, providers },
) => {
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
          response: {
            ...answers(webhookAnswer, 'invalid', 'notFound', 'tooLarge'),
            200: envelopeOf(webhookAnswer).or(
              z.string().describe("the gateway's own acknowledgement, as text (Alipay: success)"),
            ),
          },
        },
      },
      async (request, reply) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await receiveWebhook(request.ctx, provider, rawBody, request.headers);
        // Some gateways read the answer's body (Alipay retries unless it says `success`).
        const acknowledgement = providerNamed(env, provider)?.webhookAcknowledgement;
        if (acknowledgement) return reply.type(acknowledgement.contentType).send(acknowledgement.body);
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
        method: request.body.method,
        provider: request.body.provider,
        siteOrigin: siteOriginOf(request),
        device: request.body.device,
        hints: {
          userAgent: request.headers['user-agent'],
          mobileHint: String(request.headers['sec-ch-ua-mobile'] ?? ''),
        },
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

  // Webhooks of every configured gateway; the sandbox's only while it takes payments, so a live shop cannot be paid with play money.
  const providers = PAYMENT_PROVIDERS.filter((name) =>
    name === 'sandbox' ? sandboxPaymentsOn(env) : providerNamed(env, name) !== null,
  );
  await app.register(webhookRoutes, { env, providers });
};
