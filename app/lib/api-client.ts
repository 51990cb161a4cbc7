import type { Locale } from '../../i18n/locales';

/**
 * The storefront's client for the `/v1` JSON API (SPEC section 7): every call sends the
 * `lang` and `client` headers and, for writes, echoes the readable `csrf_token` cookie in
 * `x-csrf-token` (the session itself rides in the httpOnly `access_token` cookie). An
 * answer counts as success only when the envelope code is 200 (SPEC section 8); anything
 * else rejects with an `ApiError` carrying the server's localized message. Codes 301 and
 * 302 (no session, expired session) also notify the session listener, which logs the
 * visitor out locally and opens the login modal.
 */

export const CLIENT_ID = '4';
const CSRF_COOKIE = 'csrf_token';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status: number,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** SPEC section 8: 301 no session, 302 expired session. */
  get sessionLost(): boolean {
    return this.code === 301 || this.code === 302;
  }
}

/** The request never got an answer (offline, server down): SPEC section 8 only logs these. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network request failed', { cause });
    this.name = 'NetworkError';
  }
}

type SessionListener = (error: ApiError) => void;
const sessionListeners = new Set<SessionListener>();

/** Called for every 301/302 answer; returns the unsubscribe function. */
export function onSessionLost(listener: SessionListener): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

/**
 * One cookie from `document.cookie`, which the browser writes in its own normal form. (The
 * server reads request headers with the `cookie` package instead; bringing it to the browser
 * would cost more of the page's script budget than this loop.)
 */
export function readBrowserCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** JSON for POST/PUT, query parameters for GET/DELETE (SPEC section 7). */
  body?: Record<string, unknown> | FormData;
  locale: Locale;
  signal?: AbortSignal;
}

function buildRequest(path: string, { method = 'GET', body, locale, signal }: ApiOptions): [string, RequestInit] {
  const headers: Record<string, string> = { lang: locale, client: CLIENT_ID, accept: 'application/json' };
  let url = path.includes('/v2/') ? path : `/v1${path}`;
  let payload: BodyInit | undefined;
  if (method === 'GET' || method === 'DELETE') {
    if (body && !(body instanceof FormData)) {
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(body))
        if (value !== undefined && value !== null) query.set(key, String(value));
      if (query.size) url += `?${query}`;
    }
  } else if (body instanceof FormData) {
    payload = body;
  } else {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body ?? {});
  }
  if (method !== 'GET') {
    const csrf = readBrowserCookie(CSRF_COOKIE);
    if (csrf) headers['x-csrf-token'] = csrf;
  }
  return [url, { method, headers, body: payload, signal, credentials: 'same-origin' }];
}

async function send(path: string, options: ApiOptions): Promise<Response> {
  const [url, init] = buildRequest(path, options);
  // Idempotent reads get one retry when the network drops (SPEC section 7).
  const attempts = (init.method ?? 'GET') === 'GET' ? 2 : 1;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (options.signal?.aborted || attempt >= attempts) throw new NetworkError(error);
    }
  }
}

async function readEnvelope(response: Response): Promise<{ code?: unknown; msg?: unknown; data?: unknown }> {
  try {
    return (await response.json()) as { code?: unknown; msg?: unknown; data?: unknown };
  } catch {
    return { code: response.status, msg: response.statusText };
  }
}

/** One API call: resolves with `data` of a code-200 envelope, rejects with ApiError otherwise. */
export async function api<T>(path: string, options: ApiOptions): Promise<T> {
  const response = await send(path, options);
  const envelope = await readEnvelope(response);
  if (envelope.code === 200) return envelope.data as T;
  const code = typeof envelope.code === 'number' ? envelope.code : response.status;
  const error = new ApiError(
    code,
    typeof envelope.msg === 'string' ? envelope.msg : response.statusText,
    response.status,
    envelope.data,
  );
  if (error.sessionLost) for (const listener of sessionListeners) listener(error);
  throw error;
}

/**
 * SPEC's upload widget convention: multipart with the file in field `image` (by default);
 * the answer is valid only when its code is 0, and `data` is the image URL.
 */
export async function uploadImage(
  file: File,
  options: { locale: Locale; action?: string; name?: string },
): Promise<string> {
  const form = new FormData();
  form.append(options.name ?? 'image', file);
  const response = await send(options.action ?? '/upload', { method: 'POST', body: form, locale: options.locale });
  const envelope = await readEnvelope(response);
  if (envelope.code === 0 && typeof envelope.data === 'string') return envelope.data;
  const code = typeof envelope.code === 'number' ? envelope.code : response.status;
  const error = new ApiError(
    code,
    typeof envelope.msg === 'string' ? envelope.msg : response.statusText,
    response.status,
  );
  if (error.sessionLost) for (const listener of sessionListeners) listener(error);
  throw error;
}
