import { z } from 'zod';

/**
 * A thin typed client of the five PayPal REST calls the shop makes (ADR 0142): an OAuth2
 * client-credentials token, create / get / capture an Orders v2 order, refund a capture.
 * Answers are parsed with zod down to the fields the shop reads. The official
 * `@paypal/paypal-server-sdk` hard-codes its two hosts, so it cannot be pointed at the local
 * fake the tests use; a few fetch calls are less code than a second way to test.
 */

/** The two PayPal environments; PAYPAL_API_BASE (tests only) replaces them with a local fake. */
export const PAYPAL_API_HOSTS = {
  live: 'https://api-m.paypal.com',
  sandbox: 'https://api-m.sandbox.paypal.com',
} as const;
export type PayPalEnvironment = keyof typeof PAYPAL_API_HOSTS;

const money = z.object({ currency_code: z.string(), value: z.string() });
export type PayPalMoney = z.infer<typeof money>;

export const paypalCapture = z.object({
  id: z.string().min(1),
  status: z.string(),
  amount: money.optional(),
  custom_id: z.string().optional(),
  invoice_id: z.string().optional(),
  supplementary_data: z.object({ related_ids: z.object({ order_id: z.string().optional() }).optional() }).optional(),
});
export type PayPalCapture = z.infer<typeof paypalCapture>;

const paypalOrder = z.object({
  id: z.string().min(1),
  status: z.string(),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).default([]),
  purchase_units: z
    .array(
      z.object({
        custom_id: z.string().optional(),
        payments: z.object({ captures: z.array(paypalCapture).default([]) }).optional(),
      }),
    )
    .default([]),
});
export type PayPalOrder = z.infer<typeof paypalOrder>;

const paypalRefund = z.object({ id: z.string().min(1), status: z.string() });

/**
 * A refund as PAYMENT.CAPTURE.REFUNDED carries it: its capture is named by the `up` link
 * (`…/v2/payments/captures/<id>`); `custom_id` is what the refund call sent, if anything.
 */
export const paypalRefundResource = paypalRefund.extend({
  amount: money.optional(),
  custom_id: z.string().optional(),
  links: z.array(z.object({ href: z.string(), rel: z.string() })).default([]),
});
export type PayPalRefundResource = z.infer<typeof paypalRefundResource>;

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().int().positive() });

const errorAnswer = z.object({
  name: z.string().optional(),
  debug_id: z.string().optional(),
  details: z.array(z.object({ issue: z.string() })).optional(),
});

/** PayPal answered with an error status; `issue` is its first detail (ORDER_NOT_APPROVED, ...). */
export class PayPalApiError extends Error {
  constructor(
    readonly status: number,
    errorName: string,
    readonly issue: string | undefined,
    debugId: string | undefined,
  ) {
    super(`paypal: ${status} ${errorName}${issue ? ` ${issue}` : ''}${debugId ? ` (debug id ${debugId})` : ''}`);
  }
}

export interface CreateOrderBody {
  intent: 'CAPTURE';
  purchase_units: Array<{
    reference_id: string;
    custom_id: string;
    invoice_id: string;
    description: string;
    amount: PayPalMoney & {
      breakdown?: Partial<Record<'item_total' | 'shipping' | 'discount' | 'tax_total', PayPalMoney>>;
    };
  }>;
  payment_source: {
    paypal: {
      experience_context: {
        locale: string;
        landing_page: 'LOGIN';
        shipping_preference: 'NO_SHIPPING';
        user_action: 'PAY_NOW';
        return_url: string;
        cancel_url: string;
      };
    };
  };
}

export interface PayPalClientOptions {
  clientId: string;
  clientSecret: string;
  apiBase: string;
  /** Attempts after the first for network errors and 5xx answers (every POST carries a PayPal-Request-Id). */
  retries?: number;
  timeoutMs?: number;
}

export interface PayPalClient {
  createOrder(body: CreateOrderBody, requestId: string): Promise<PayPalOrder>;
  getOrder(orderId: string): Promise<PayPalOrder>;
  captureOrder(orderId: string, requestId: string): Promise<PayPalOrder>;
  refundCapture(
    captureId: string,
    /** No amount: all that is left of the capture. `custom_id` comes back in the refund's webhook. */
    body: { amount?: PayPalMoney; custom_id?: string },
    requestId: string,
  ): Promise<{ id: string; status: string }>;
}

/** An access token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export function createPayPalClient(options: PayPalClientOptions): PayPalClient {
  const base = options.apiBase.replace(/\/+$/, '');
  const retries = options.retries ?? 2;
  const timeoutMs = options.timeoutMs ?? 20_000;
  let token: { value: string; expiresAt: number } | null = null;
  let tokenRequest: Promise<string> | null = null;

  async function send(path: string, init: RequestInit): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
        if (response.status < 500 || attempt >= retries) return response;
        await response.body?.cancel();
      } catch (error) {
        if (attempt >= retries) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
    }
  }

  async function failure(response: Response): Promise<PayPalApiError> {
    const parsed = errorAnswer.safeParse(await response.json().catch(() => ({})));
    const details = parsed.success ? parsed.data : {};
    return new PayPalApiError(
      response.status,
      details.name ?? response.statusText,
      details.details?.[0]?.issue,
      details.debug_id,
    );
  }

  async function fetchToken(): Promise<string> {
    const response = await send('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (!response.ok) throw await failure(response);
    const answer = tokenAnswer.parse(await response.json());
    token = { value: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 - TOKEN_MARGIN_MS };
    return answer.access_token;
  }

  /** The cached token, or one fetch of a new one shared by every call waiting for it. */
  function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return Promise.resolve(token.value);
    tokenRequest ??= fetchToken().finally(() => (tokenRequest = null));
    return tokenRequest;
  }

  async function call<T>(
    schema: z.ZodType<T>,
    path: string,
    init: { method: 'GET' | 'POST'; body?: unknown; requestId?: string },
  ): Promise<T> {
    for (let renewed = false; ; renewed = true) {
      const headers: Record<string, string> = { authorization: `Bearer ${await accessToken()}` };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      if (init.requestId) headers['paypal-request-id'] = init.requestId;
      if (init.method === 'POST') headers.prefer = 'return=representation';
      const response = await send(path, {
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      // A token PayPal no longer accepts (revoked, clock skew): fetch a new one once.
      if (response.status === 401 && !renewed) {
        token = null;
        await response.body?.cancel();
        continue;
      }
      if (!response.ok) throw await failure(response);
      return schema.parse(await response.json());
    }
  }

  return {
    createOrder: (body, requestId) => call(paypalOrder, '/v2/checkout/orders', { method: 'POST', body, requestId }),
    getOrder: (orderId) => call(paypalOrder, `/v2/checkout/orders/${encodeURIComponent(orderId)}`, { method: 'GET' }),
    captureOrder: (orderId, requestId) =>
      call(paypalOrder, `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {
        method: 'POST',
        body: {},
        requestId,
      }),
    refundCapture: (captureId, body, requestId) =>
      call(paypalRefund, `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {
        method: 'POST',
        body,
        requestId,
      }),
  };
}
