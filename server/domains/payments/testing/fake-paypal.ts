import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { generate as selfSignedCertificate } from 'selfsigned';

/**
 * A local stand-in for the PayPal REST calls the shop makes, for tests (the shop is pointed
 * at it with PAYPAL_API_BASE): the OAuth2 token, Orders v2 create / get / capture, refunds of a
 * capture, an approval page with Approve and Cancel buttons that sends the buyer back like
 * PayPal does, and webhooks signed like PayPal signs them, with a certificate made at start
 * and served from the fake's own /v1/notifications/certs/.
 */

type Money = { currency_code: string; value: string };

interface FakeCapture {
  id: string;
  status: 'COMPLETED' | 'DECLINED';
  amount: Money;
  custom_id?: string;
  invoice_id?: string;
  supplementary_data: { related_ids: { order_id: string } };
}

export interface FakePayPalOrder {
  id: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  purchaseUnit: {
    reference_id: string;
    custom_id: string;
    invoice_id: string;
    description: string;
    amount: Money & { breakdown?: Record<string, Money> };
  };
  experience: { return_url: string; cancel_url: string; locale: string };
  captures: FakeCapture[];
}

/** What the shop sends: an order to create, or a refund's amount. */
interface RequestBody {
  intent?: string;
  purchase_units?: Array<FakePayPalOrder['purchaseUnit']>;
  payment_source?: { paypal?: { experience_context?: FakePayPalOrder['experience'] } };
  amount?: Money;
  custom_id?: string;
}

export interface FakePayPalRefund {
  id: string;
  captureId: string;
  amount: Money;
  requestId: string | undefined;
  /** What the refund call sent as custom_id; none for a refund made in PayPal's dashboard. */
  customId?: string;
}

type WebhookType =
  'PAYMENT.CAPTURE.COMPLETED' | 'PAYMENT.CAPTURE.DENIED' | 'PAYMENT.CAPTURE.REFUNDED' | 'CHECKOUT.ORDER.APPROVED';

export interface FakePayPalWebhook {
  eventId: string;
  body: string;
  headers: Record<string, string>;
}

export interface FakePayPal {
  url: string;
  orders: Map<string, FakePayPalOrder>;
  refunds: FakePayPalRefund[];
  requests: Array<{ method: string; path: string; requestId: string | undefined; authorization: string | undefined }>;
  /** Access tokens handed out so far. */
  tokensIssued(): number;
  /** Times the signing certificate was downloaded. */
  certificateDownloads(): number;
  /** Makes the next N API requests answer 500 (a PayPal outage). */
  failNext(count: number): void;
  /** The next capture charges this instead of the order's amount (a tampered or misread amount). */
  captureNextWith(amount: Money): void;
  /** The next capture is refused with INSTRUMENT_DECLINED (the buyer's funding failed). */
  declineNextCapture(): void;
  /** Runs before a refund is answered: the shop has not recorded it yet. */
  beforeRefundAnswer?: (refund: FakePayPalRefund) => Promise<void>;
  /** Someone refunds part of a capture in PayPal's dashboard (no request id, no custom_id). */
  dashboardRefund(captureId: string, amount: Money): FakePayPalRefund;
  /** What the Approve button does, for tests that have no browser. */
  approve(orderId: string): void;
  /**
   * A webhook as PayPal would deliver it. A capture event for an order not captured yet
   * captures it first, as if the shop had (its answer lost). `signedBy: 'stranger'` signs with
   * a key that is not the certificate's; `certUrl` names another certificate address.
   */
  webhook(
    type: WebhookType,
    orderId: string,
    options?: { signedBy?: 'paypal' | 'stranger'; certUrl?: string; webhookId?: string; refundId?: string },
  ): FakePayPalWebhook;
  close(): Promise<void>;
}

export async function startFakePayPal(credentials: {
  clientId: string;
  clientSecret: string;
  webhookId: string;
}): Promise<FakePayPal> {
  const paypalKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const strangerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const certificate = await selfSignedCertificate(
    [{ name: 'commonName', value: 'messageverificationcerts.paypal.test' }],
    {
      keyPair: {
        privateKey: paypalKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        publicKey: paypalKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - 60_000),
      notAfterDate: new Date(Date.now() + 24 * 3600_000),
    },
  );
  const certPath = '/v1/notifications/certs/CERT-fake-paypal-0001';

  const orders = new Map<string, FakePayPalOrder>();
  const refunds: FakePayPalRefund[] = [];
  const requests: FakePayPal['requests'] = [];
  // What a PayPal-Request-Id was answered, so a repeat gets the same answer.
  const answered = new Map<string, { status: number; body: unknown }>();
  const tokens = new Set<string>();
  let failures = 0;
  let certDownloads = 0;
  let nextCaptureAmount: Money | null = null;
  let declineNext = false;
  let counter = 0;
  const newId = (prefix: string) => `${prefix}${++counter}${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

  let url = '';
  const orderView = (order: FakePayPalOrder) => ({
    id: order.id,
    status: order.status,
    intent: 'CAPTURE',
    purchase_units: [
      {
        ...order.purchaseUnit,
        ...(order.captures.length > 0 && { payments: { captures: order.captures } }),
      },
    ],
    links: [
      { href: `${url}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
      ...(order.status === 'PAYER_ACTION_REQUIRED'
        ? [{ href: `${url}/checkoutnow?token=${order.id}`, rel: 'payer-action', method: 'GET' }]
        : []),
    ],
  });

  function capture(order: FakePayPalOrder): FakeCapture {
    const made: FakeCapture = {
      id: newId('CAP'),
      status: 'COMPLETED',
      amount: nextCaptureAmount ?? {
        currency_code: order.purchaseUnit.amount.currency_code,
        value: order.purchaseUnit.amount.value,
      },
      custom_id: order.purchaseUnit.custom_id,
      invoice_id: order.purchaseUnit.invoice_id,
      supplementary_data: { related_ids: { order_id: order.id } },
    };
    nextCaptureAmount = null;
    order.captures.push(made);
    order.status = 'COMPLETED';
    return made;
  }

  function withReturn(target: string, params: Record<string, string>): string {
    const back = new URL(target);
    for (const [name, value] of Object.entries(params)) back.searchParams.set(name, value);
    return back.href;
  }

  function approvalPage(order: FakePayPalOrder): string {
    const amount = `${order.purchaseUnit.amount.value} ${order.purchaseUnit.amount.currency_code}`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake PayPal</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"></head>
<body style="font-family: sans-serif; max-width: 28rem; margin: 3rem auto">
<h1>Fake PayPal</h1><p>Pay <strong id="paypal-amount">${amount}</strong> for ${order.purchaseUnit.description}</p>
<form method="post" action="/checkoutnow/approve"><input type="hidden" name="token" value="${order.id}">
<button type="submit" id="paypal-approve">Approve</button></form>
<form method="post" action="/checkoutnow/cancel"><input type="hidden" name="token" value="${order.id}">
<button type="submit" id="paypal-cancel">Cancel and return to the shop</button></form></body></html>`;
  }

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const target = new URL(request.url ?? '/', 'http://fake.paypal');
      const path = target.pathname;
      const requestId = request.headers['paypal-request-id'] as string | undefined;
      const send = (status: number, body: unknown) => {
        if (requestId && status < 500) answered.set(`${path} ${requestId}`, { status, body });
        response.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': `dbg${++counter}` });
        response.end(JSON.stringify(body));
      };
      const problem = (status: number, name: string, issue?: string) =>
        send(status, { name, message: name, debug_id: `dbg${counter}`, details: issue ? [{ issue }] : [] });
      const redirect = (location: string) => {
        response.writeHead(303, { location });
        response.end();
      };

      if (request.method === 'GET' && path === certPath) {
        certDownloads++;
        response.writeHead(200, { 'content-type': 'application/x-pem-file' });
        return response.end(certificate.cert);
      }
      if (request.method === 'GET' && path === '/checkoutnow') {
        const order = orders.get(target.searchParams.get('token') ?? '');
        if (!order) return problem(404, 'RESOURCE_NOT_FOUND');
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return response.end(approvalPage(order));
      }
      if (request.method === 'POST' && (path === '/checkoutnow/approve' || path === '/checkoutnow/cancel')) {
        const order = orders.get(new URLSearchParams(raw).get('token') ?? '');
        if (!order) return problem(404, 'RESOURCE_NOT_FOUND');
        if (path === '/checkoutnow/cancel')
          return redirect(withReturn(order.experience.cancel_url, { token: order.id }));
        if (order.status === 'PAYER_ACTION_REQUIRED') order.status = 'APPROVED';
        return redirect(withReturn(order.experience.return_url, { token: order.id, PayerID: 'FAKEPAYER01' }));
      }

      requests.push({ method: request.method ?? '', path, requestId, authorization: request.headers.authorization });
      if (failures > 0) {
        failures--;
        return problem(500, 'INTERNAL_SERVER_ERROR');
      }
      if (request.method === 'POST' && path === '/v1/oauth2/token') {
        const expected = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
        if (request.headers.authorization !== expected) return send(401, { error: 'invalid_client' });
        const token = `A21AA-fake-${newId('T')}`;
        tokens.add(token);
        return send(200, {
          scope: 'https://uri.paypal.com/services/payments',
          access_token: token,
          token_type: 'Bearer',
          expires_in: 32_400,
        });
      }
      const bearer = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!tokens.has(bearer)) return send(401, { error: 'invalid_token' });
      const repeated = requestId && answered.get(`${path} ${requestId}`);
      if (repeated && request.method === 'POST') return send(repeated.status, repeated.body);
      const body = (raw ? JSON.parse(raw) : {}) as RequestBody;

      if (request.method === 'POST' && path === '/v2/checkout/orders') {
        const unit = body.purchase_units?.[0];
        const experience = body.payment_source?.paypal?.experience_context;
        if (body.intent !== 'CAPTURE' || !unit || !experience?.return_url) return problem(400, 'INVALID_REQUEST');
        const order: FakePayPalOrder = {
          id: newId('ORD'),
          status: 'PAYER_ACTION_REQUIRED',
          purchaseUnit: unit,
          experience,
          captures: [],
        };
        orders.set(order.id, order);
        return send(200, orderView(order));
      }
      const orderPath = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(path);
      if (orderPath) {
        const order = orders.get(decodeURIComponent(orderPath[1]!));
        if (!order) return problem(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
        if (request.method === 'GET' && !orderPath[2]) return send(200, orderView(order));
        if (request.method === 'POST' && orderPath[2]) {
          if (order.status === 'COMPLETED') return problem(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED');
          if (order.status !== 'APPROVED') return problem(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED');
          if (declineNext) {
            declineNext = false;
            return problem(422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED');
          }
          capture(order);
          return send(201, orderView(order));
        }
      }
      const refundPath = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(path);
      if (request.method === 'POST' && refundPath) {
        const captureId = decodeURIComponent(refundPath[1]!);
        const captured = [...orders.values()].flatMap((order) => order.captures).find((one) => one.id === captureId);
        if (!captured) return problem(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
        // Hundredths for every currency: values are compared, never sent back, except "the rest".
        const hundredths = (money: Money) => Math.round(Number(money.value) * 100);
        const already = refunds
          .filter((one) => one.captureId === captureId)
          .reduce((sum, one) => sum + hundredths(one.amount), 0);
        const left = hundredths(captured.amount) - already;
        const decimals = captured.amount.value.includes('.') ? 2 : 0;
        const amount: Money = body.amount ?? {
          currency_code: captured.amount.currency_code,
          value: (left / 100).toFixed(decimals),
        };
        if (amount.currency_code !== captured.amount.currency_code)
          return problem(422, 'UNPROCESSABLE_ENTITY', 'CURRENCY_MISMATCH');
        if (left <= 0) return problem(422, 'UNPROCESSABLE_ENTITY', 'CAPTURE_FULLY_REFUNDED');
        if (hundredths(amount) > left) return problem(422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED');
        const refund: FakePayPalRefund = {
          id: newId('REF'),
          captureId,
          amount,
          requestId,
          ...(body.custom_id && { customId: body.custom_id }),
        };
        refunds.push(refund);
        // A hook that throws still lets the answer go (the test sees its own failure).
        void (fake.beforeRefundAnswer?.(refund) ?? Promise.resolve()).finally(() =>
          send(201, { id: refund.id, status: 'COMPLETED', amount }),
        );
        return;
      }
      problem(404, 'RESOURCE_NOT_FOUND', `no fake for ${request.method} ${path}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function resourceOf(
    type: WebhookType,
    order: FakePayPalOrder,
    refundId: string | undefined,
  ): { resourceType: string; resource: unknown } {
    if (type === 'CHECKOUT.ORDER.APPROVED') return { resourceType: 'checkout-order', resource: orderView(order) };
    if (type === 'PAYMENT.CAPTURE.REFUNDED') {
      // The refund named, else the capture's latest.
      const refund = [...refunds]
        .reverse()
        .find((one) => (refundId ? one.id === refundId : order.captures.some((made) => made.id === one.captureId)));
      if (!refund) throw new Error(`fake paypal: no refund of order ${order.id} to report`);
      return {
        resourceType: 'refund',
        resource: {
          id: refund.id,
          status: 'COMPLETED',
          amount: refund.amount,
          // A refund made without one carries the capture's (our payment id), as PayPal may show it.
          custom_id: refund.customId ?? order.purchaseUnit.custom_id,
          invoice_id: order.purchaseUnit.invoice_id,
          links: [
            { href: `${url}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' },
            { href: `${url}/v2/payments/captures/${refund.captureId}`, rel: 'up', method: 'GET' },
          ],
        },
      };
    }
    const made = order.captures[0] ?? capture(order);
    return {
      resourceType: 'capture',
      resource: type === 'PAYMENT.CAPTURE.DENIED' ? { ...made, status: 'DECLINED' } : made,
    };
  }

  const fake: FakePayPal = {
    url,
    orders,
    refunds,
    requests,
    tokensIssued: () => tokens.size,
    certificateDownloads: () => certDownloads,
    failNext(count) {
      failures = count;
    },
    captureNextWith(amount) {
      nextCaptureAmount = amount;
    },
    declineNextCapture() {
      declineNext = true;
    },
    dashboardRefund(captureId, amount) {
      const refund: FakePayPalRefund = { id: newId('REF'), captureId, amount, requestId: undefined };
      refunds.push(refund);
      return refund;
    },
    approve(orderId) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`fake paypal: no order ${orderId}`);
      order.status = 'APPROVED';
    },
    webhook(type, orderId, options = {}) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`fake paypal: no order ${orderId}`);
      const { resourceType, resource } = resourceOf(type, order, options.refundId);
      const eventId = newId('WH-');
      const body = JSON.stringify({
        id: eventId,
        create_time: new Date().toISOString(),
        resource_type: resourceType,
        event_type: type,
        summary: `${type} for ${orderId}`,
        resource,
        links: [],
        event_version: '1.0',
        resource_version: '2.0',
      });
      const transmissionId = randomUUID();
      const transmissionTime = new Date().toISOString();
      const signed = `${transmissionId}|${transmissionTime}|${options.webhookId ?? credentials.webhookId}|${crc32(Buffer.from(body))}`;
      const key = options.signedBy === 'stranger' ? strangerKeys.privateKey : paypalKeys.privateKey;
      return {
        eventId,
        body,
        headers: {
          'content-type': 'application/json',
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-time': transmissionTime,
          'paypal-transmission-sig': sign('sha256', Buffer.from(signed), key).toString('base64'),
          'paypal-cert-url': options.certUrl ?? `${url}${certPath}`,
          'paypal-auth-algo': 'SHA256withRSA',
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
