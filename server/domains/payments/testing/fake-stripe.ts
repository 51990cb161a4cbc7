import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the few Stripe endpoints the shop calls (create a Checkout Session,
 * create a refund), for tests: the SDK is pointed at it with STRIPE_API_BASE. Webhooks are
 * built here and signed with the SDK's own `generateTestHeaderString`.
 */
export interface FakeStripe {
  url: string;
  sessions: Map<string, Record<string, unknown>>;
  refunds: Array<{ id: string; payment_intent: string; amount: string | null; idempotencyKey: string | undefined }>;
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
        const refund = known ?? {
          id: `re_test_${++counter}`,
          payment_intent: form.get('payment_intent') ?? '',
          amount: form.get('amount'),
          idempotencyKey,
        };
        if (!known) refunds.push(refund);
        return send(200, {
          id: refund.id,
          object: 'refund',
          payment_intent: refund.payment_intent,
          status: 'succeeded',
        });
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
      const eventId = `evt_test_${++counter}${Math.random().toString(36).slice(2, 10)}`;
      const event = {
        id: eventId,
        object: 'event',
        type,
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: {
          object: {
            ...session,
            // A gateway that does not echo the shop's own references.
            ...(options.withoutMetadata ? { metadata: {}, client_reference_id: null } : {}),
            amount_total: options.amountTotal ?? session.amount_total,
            payment_status: paid ? 'paid' : 'unpaid',
            status: paid ? 'complete' : type === 'checkout.session.expired' ? 'expired' : 'open',
            payment_intent: paid ? `pi_test_${sessionId}` : null,
          },
        },
      };
      const body = JSON.stringify(event);
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: options.secret,
        timestamp: options.timestamp,
      });
      return { body, signature, eventId };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
