import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the few Stripe endpoints the shop calls (create a Checkout Session,
 * create a refund), for tests: the SDK is pointed at it with STRIPE_API_BASE. Webhooks are
 * built here and signed with the SDK's own `generateTestHeaderString`.
 */
export interface FakeStripeRefund {
  id: string;
  payment_intent: string;
  /** The amount the shop sent, as sent; null when it sent none (all that is left). */
  amount: string | null;
  /** What the refund took, in minor units of the charge's currency. */
  amountMinor: number;
  currency: string;
  idempotencyKey: string | undefined;
  metadata: Record<string, string>;
}

type RefundEventType = 'refund.created' | 'refund.updated' | 'charge.refund.updated';

export interface FakeStripe {
  url: string;
  sessions: Map<string, Record<string, unknown>>;
  refunds: FakeStripeRefund[];
  requests: Array<{ method: string; path: string; form: URLSearchParams; authorization: string | undefined }>;
  /** The buyer pays (or the session expires) at Stripe; no webhook is sent, as when one is lost. */
  settle(sessionId: string, outcome: 'paid' | 'expired'): void;
  /** Makes the next N requests answer 500 (a gateway outage). */
  failNext(count: number): void;
  /** A signed webhook for a session, as Stripe would send it. */
  webhook(
    type:
      | 'checkout.session.completed'
      | 'checkout.session.async_payment_failed'
      | 'checkout.session.expired'
      | 'payment_intent.created',
    sessionId: string,
    options?: { secret: string; amountTotal?: number; timestamp?: number; withoutMetadata?: boolean },
  ): { body: string; signature: string; eventId: string };
  /** Runs before a created session is answered: the shop does not know its id yet. */
  beforeSessionAnswer?: (sessionId: string) => Promise<void>;
  /** Runs before a created refund is answered: the shop has not recorded it yet. */
  beforeRefundAnswer?: (refund: FakeStripeRefund) => Promise<void>;
  /** Someone refunds part of a charge in Stripe's dashboard (no metadata, no key of the shop's). */
  dashboardRefund(paymentIntent: string, amountMinor: number): FakeStripeRefund;
  /** A signed refund webhook, as Stripe sends for every refund however it was made. */
  refundWebhook(
    type: RefundEventType,
    refundId: string,
    options?: { status?: 'pending' | 'succeeded' | 'failed' },
  ): { body: string; signature: string; eventId: string };
  close(): Promise<void>;
}

/** The `allowed_payment_method_types[]` of a create call, or the dashboard's default (cards). */
function allowedMethods(form: URLSearchParams): string[] {
  const listed = [...form.entries()]
    .filter(([key]) => /^allowed_payment_method_types\[\d+\]$/.test(key))
    .map(([, value]) => value);
  return listed.length > 0 ? listed : ['card'];
}

export async function startFakeStripe(
  webhookSecret: string,
  /** The methods "turned on in the dashboard": others are dropped from a session's list. */
  enabledMethods: readonly string[] = ['card', 'alipay', 'wechat_pay'],
): Promise<FakeStripe> {
  const sessions = new Map<string, Record<string, unknown>>();
  const refunds: FakeStripe['refunds'] = [];
  const requests: FakeStripe['requests'] = [];
  let failures = 0;
  let counter = 0;

  /** The session a payment intent of this fake belongs to (`pi_test_<session id>`). */
  const sessionOf = (paymentIntent: string) => sessions.get(paymentIntent.replace(/^pi_test_/, ''));
  /** A refund of `amount` (all that is left when null) of a payment intent. */
  function made(
    paymentIntent: string,
    amount: string | null,
    extra: Pick<FakeStripeRefund, 'idempotencyKey' | 'metadata'>,
  ): FakeStripeRefund {
    const session = sessionOf(paymentIntent);
    const taken = refunds
      .filter((refund) => refund.payment_intent === paymentIntent)
      .reduce((sum, refund) => sum + refund.amountMinor, 0);
    return {
      id: `re_test_${++counter}`,
      payment_intent: paymentIntent,
      amount,
      amountMinor: amount === null ? Number(session?.amount_total ?? 0) - taken : Number(amount),
      currency: String(session?.currency ?? 'cny'),
      ...extra,
    };
  }
  const refundObject = (refund: FakeStripeRefund, status: string) => ({
    id: refund.id,
    object: 'refund',
    amount: refund.amountMinor,
    currency: refund.currency,
    payment_intent: refund.payment_intent,
    metadata: refund.metadata,
    status,
  });
  const signed = (type: string, object: unknown, secret = webhookSecret, timestamp?: number) => {
    const eventId = `evt_test_${++counter}${Math.random().toString(36).slice(2, 10)}`;
    const body = JSON.stringify({
      id: eventId,
      object: 'event',
      type,
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    });
    return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp }), eventId };
  };

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const form = new URLSearchParams(raw);
      const path = (request.url ?? '').split('?')[0] ?? '';
      requests.push({ method: request.method ?? '', path, form, authorization: request.headers.authorization });
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++counter}` });
        response.end(JSON.stringify(body));
      };
      if (failures > 0) {
        failures--;
        return send(500, { error: { type: 'api_error', message: 'fake outage' } });
      }
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${++counter}${Math.random().toString(36).slice(2, 10)}`;
        const unitAmount = Number(form.get('line_items[0][price_data][unit_amount]'));
        const quantity = Number(form.get('line_items[0][quantity]'));
        const session = {
          id,
          object: 'checkout.session',
          mode: form.get('mode'),
          url: `https://checkout.stripe.test/c/pay/${id}`,
          amount_total: unitAmount * quantity,
          currency: form.get('line_items[0][price_data][currency]'),
          client_reference_id: form.get('client_reference_id'),
          metadata: {
            payment_id: form.get('metadata[payment_id]'),
            order_id: form.get('metadata[order_id]'),
            method: form.get('metadata[method]'),
          },
          // Like Stripe's `allowed_payment_method_types`: a filter on what the dashboard has turned on.
          payment_method_types: allowedMethods(form).filter((method) => enabledMethods.includes(method)),
          payment_method_options: form.get('payment_method_options[wechat_pay][client]')
            ? { wechat_pay: { client: form.get('payment_method_options[wechat_pay][client]') } }
            : {},
          success_url: form.get('success_url'),
          cancel_url: form.get('cancel_url'),
          payment_status: 'unpaid',
          status: 'open',
          payment_intent: null,
        };
        sessions.set(id, session);
        // Lets a test deliver a webhook while the shop still waits for this answer.
        void (fake.beforeSessionAnswer?.(id) ?? Promise.resolve()).then(() => send(200, session));
        return;
      }
      const retrieved = /^\/v1\/checkout\/sessions\/([\w-]+)$/.exec(path);
      if (request.method === 'GET' && retrieved) {
        const session = sessions.get(retrieved[1]!);
        if (!session)
          return send(404, { error: { type: 'invalid_request_error', message: `No such checkout.session` } });
        return send(200, session);
      }
      if (request.method === 'POST' && path === '/v1/refunds') {
        const idempotencyKey = request.headers['idempotency-key'] as string | undefined;
        const known = refunds.find((refund) => idempotencyKey && refund.idempotencyKey === idempotencyKey);
        const metadata = Object.fromEntries(
          [...form.entries()].flatMap(([key, value]) => {
            const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
            return name ? [[name, value]] : [];
          }),
        );
        const refund =
          known ?? made(form.get('payment_intent') ?? '', form.get('amount'), { idempotencyKey, metadata });
        if (!known) refunds.push(refund);
        // A hook that throws still lets the answer go (the test sees its own failure).
        void (known ? Promise.resolve() : (fake.beforeRefundAnswer?.(refund) ?? Promise.resolve())).finally(() =>
          send(200, refundObject(refund, 'succeeded')),
        );
        return;
      }
      send(404, { error: { type: 'invalid_request_error', message: `no fake for ${request.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeStripe = {
    url: `http://127.0.0.1:${port}`,
    sessions,
    refunds,
    requests,
    failNext(count) {
      failures = count;
    },
    settle(sessionId, outcome) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
      Object.assign(
        session,
        outcome === 'paid'
          ? { status: 'complete', payment_status: 'paid', payment_intent: `pi_test_${sessionId}` }
          : { status: 'expired', payment_status: 'unpaid' },
      );
    },
    webhook(type, sessionId, options = { secret: webhookSecret }) {
      const session = sessions.get(sessionId) ?? {
        id: sessionId,
        object: 'checkout.session',
        amount_total: 0,
        currency: 'cny',
      };
      const paid = type === 'checkout.session.completed';
      const object = {
        ...session,
        // A gateway that does not echo the shop's own references.
        ...(options.withoutMetadata ? { metadata: {}, client_reference_id: null } : {}),
        amount_total: options.amountTotal ?? session.amount_total,
        payment_status: paid ? 'paid' : 'unpaid',
        status: paid ? 'complete' : type === 'checkout.session.expired' ? 'expired' : 'open',
        payment_intent: paid ? `pi_test_${sessionId}` : null,
      };
      return signed(type, object, options.secret, options.timestamp);
    },
    dashboardRefund(paymentIntent, amountMinor) {
      const refund = made(paymentIntent, String(amountMinor), { idempotencyKey: undefined, metadata: {} });
      refunds.push(refund);
      return refund;
    },
    refundWebhook(type, refundId, options = {}) {
      const refund = refunds.find((one) => one.id === refundId);
      if (!refund) throw new Error(`fake stripe: no refund ${refundId}`);
      return signed(type, refundObject(refund, options.status ?? 'succeeded'));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
