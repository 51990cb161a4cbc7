import http from 'node:http';
import Fastify from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerRequestContext } from '../../server/http/request-context';
import { registerResponseCache, serverWithFrontDoor, type FrontDoor } from '../../server/http/response-cache';
import { markPersonal, type AppContext } from '../../server/shared/context';
import { createMemoryStore } from '../../server/shared/kv-store';
import { makeBuyer, type Buyer } from '../support/buyers';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The response cache and the sign-in must agree on who is signed in (issue 11): whatever a
 * signed-in request looks like, its answer is never stored under, nor served from, the
 * anonymous entries, and personal answers tell every cache on the way not to keep them.
 */
let server: TestServer;
let buyer: Buyer;

beforeAll(async () => {
  server = await startTestServer();
  buyer = await makeBuyer(server);
});
afterAll(() => server?.close());

/** A raw GET that sends the Cookie header exactly as given (several values: several headers). */
function rawGet(path: string, headers: Record<string, string | string[]> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get(server.url + path, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() }));
      })
      .on('error', reject);
  });
}

/** Ways a browser, a proxy or an attacker may write the session cookie. */
const signedInCookies = (token: string): Array<[string, string | string[]]> => [
  ['plain', `access_token=${token}`],
  ['space before =', `access_token =${token}`],
  ['tab before =', `access_token\t=${token}`],
  ['spaces around', ` access_token = ${token} `],
  ['after another cookie, no space', `lang=en;access_token=${token}`],
  ['after another cookie, tab', `lang=en;\taccess_token=${token}`],
  ['duplicated, real one first', `access_token=${token}; access_token=forged`],
  ['duplicated, real one second', `access_token=; access_token=${token}`],
  ['trailing separator', `access_token=${token};`],
  ['leading separator', `;access_token=${token}`],
  ['odd separators', `;;  ;access_token=${token};;`],
  ['quoted', `access_token="${token}"`],
  ['two Cookie headers', ['lang=en', `access_token=${token}`]],
];

describe('signed-in requests and the anonymous entries', () => {
  it.each(['/en/my/account', '/en/faq?page=301', '/zh-cn/product/cate/2'])(
    'no way of writing the session cookie stores or receives a cached page: %s',
    async (path) => {
      for (const [variant, cookie] of signedInCookies(buyer.headers.token)) {
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const signedIn = await rawGet(path, { cookie });
          expect(signedIn.headers['x-cache'], variant).toBeUndefined();
          expect(signedIn.headers['cache-control'], variant).toBe('private, no-store');
        }
        const anonymous = await rawGet(path);
        expect(anonymous.body, variant).not.toContain(buyer.email);
        expect(anonymous.body, variant).not.toContain(buyer.username);
        expect(anonymous.body, variant).not.toContain('Log out');
        expect(anonymous.headers['cache-control'], variant).not.toBe('private, no-store');
      }
    },
  );

  it('a signed-in render shows the buyer, and the anonymous page stays anonymous (the reported reproduction)', async () => {
    const path = '/en/my/account';
    const cookie = `access_token =${buyer.headers.token}`;
    const first = await rawGet(path, { cookie });
    expect(first.status).toBe(200);
    expect(first.body).toContain(buyer.email);
    await rawGet(path, { cookie });
    const stranger = await rawGet(path);
    expect(stranger.status).toBe(401);
    expect(stranger.headers['x-cache']).not.toBe('hit');
    expect(stranger.body).not.toContain(buyer.email);
  });

  it('a page cached for visitors is not served to a request that presents a session, even an invalid one', async () => {
    const path = '/en/faq?page=302';
    await rawGet(path);
    expect((await rawGet(path)).headers['x-cache']).toBe('hit');
    for (const cookie of ['access_token =stale', 'access_token=', 'x=1; access_token\t=stale']) {
      expect((await rawGet(path, { cookie })).headers['x-cache'], cookie).toBeUndefined();
    }
    expect((await rawGet(path, { token: 'stale', sign: 'x' })).headers['x-cache']).toBeUndefined();
  });
});

describe('the language of cached API answers', () => {
  it.each([
    ['lang =en', 11],
    ['lang\t=en', 12],
    ['x=1;lang=en', 13],
    [' lang = en ', 14],
  ])('`Cookie: %s` is English and never fills the Chinese entry', async (cookie, page) => {
    const path = `/v1/good/list?page_size=2&page=${page}`;
    const english = await rawGet(path, { cookie });
    const chinese = await rawGet(path);
    expect(english.body).toBe((await rawGet(path, { lang: 'en' })).body);
    expect(chinese.body).toBe((await rawGet(path, { lang: 'zh-cn' })).body);
    expect(chinese.body).not.toBe(english.body);
    expect((await rawGet(path)).body).toBe(chinese.body);
  });
});

describe('personal API answers', () => {
  it.each(['/v1/user/info', '/v1/useraddress/list', '/v1/order/list', '/v1/order/countByStatus', '/v1/cart', '/v1/cart/count'])(
    '%s is private, no-store and varies by Cookie',
    async (path) => {
      const answer = await buyer.call(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
      expect(answer.headers.get('vary')?.split(/\s*,\s*/).map((name) => name.toLowerCase())).toContain('cookie');
      const asked = await server.request(path);
      expect(asked.headers.get('cache-control')).toBe('private, no-store');
    },
  );

  it("a visitor's cart answer is private too", async () => {
    const answer = await server.request('/v1/cart/count', { cookies: { cart_id: 'A'.repeat(24) } });
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('keys are bounded', () => {
  it('a page address with a parameter no page reads is rendered for its visitor, never stored', async () => {
    for (const path of ['/en/faq?nonce=1', '/en/faq?page=303&nonce=2', '/en/?%00=1']) {
      await rawGet(path);
      expect((await rawGet(path)).headers['x-cache'], path).toBeUndefined();
    }
  });

  it('campaign parameters share the page without them', async () => {
    await rawGet('/en/our-story?page=304');
    const tagged = await rawGet('/en/our-story?page=304&utm_source=newsletter&gclid=abc');
    expect(tagged.headers['x-cache']).toBe('hit');
    expect(tagged.body).not.toContain('newsletter');
  });

  it('an API address with a parameter its route does not read is never stored', async () => {
    for (const path of ['/v1/good/list?page_size=2&nonce=1', '/v1/goodGroup/list/2?nonce=1']) {
      await rawGet(path);
      expect((await rawGet(path)).headers['x-cache'], path).toBeUndefined();
    }
  });

  it('made-up Host headers do not make new entries once PUBLIC_URL is set', async () => {
    const shop = await startTestServer({ PUBLIC_URL: 'https://shop.example' });
    try {
      const first = await fetch(`${shop.url}/en/faq?page=305`);
      expect(first.headers.get('x-cache')).toBe('miss');
      const viaOtherHost = await new Promise<http.IncomingMessage>((resolve) =>
        http.get(`${shop.url}/en/faq?page=305`, { headers: { host: 'attacker.example' } }, resolve),
      );
      viaOtherHost.resume();
      expect(viaOtherHost.headers['x-cache']).toBe('hit');
      const html = await first.text();
      expect(html).toContain('https://shop.example');
      expect(html).not.toContain('attacker.example');
    } finally {
      await shop.close();
    }
  });
});

describe('encodings', () => {
  it.each([
    ['gzip;q=0', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['gzip;q=0, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip, br;q=0.5', 'gzip'],
    ['identity', undefined],
    ['GZIP', 'gzip'],
  ])('Accept-Encoding %s is answered with %s', async (acceptEncoding, expected) => {
    const path = '/en/faq?page=306';
    await rawGet(path);
    const answer = await rawGet(path, { 'accept-encoding': acceptEncoding });
    expect(answer.headers['x-cache']).toBe('hit');
    expect(answer.headers['content-encoding']).toBe(expected);
  });
});

describe('the cache itself', () => {
  async function bareApp(handler: (request: import('fastify').FastifyRequest) => unknown) {
    const appContext = { kv: createMemoryStore(), log: pino({ level: 'silent' }), env: {} } as unknown as AppContext;
    let frontDoor: FrontDoor | undefined;
    const app = Fastify({ serverFactory: (listener, options) => serverWithFrontDoor(listener, options, () => frontDoor) });
    frontDoor = registerResponseCache(app, { appContext, ttlSeconds: 60, secureCookies: false, https: false })!.frontDoor;
    registerRequestContext(app, appContext);
    app.setValidatorCompiler(() => (data) => ({ value: data }));
    app.get('/v1/thing', { config: { publicCache: true }, schema: { querystring: z.object({ q: z.string().optional() }) } }, async (request) =>
      handler(request),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    return { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
  }

  it('refuses an answer marked personal, whatever its key says, and sends it private', async () => {
    const { app, url } = await bareApp((request) => {
      markPersonal(request.ctx);
      return { code: 200, msg: 'ok', data: 'for one buyer only' };
    });
    try {
      const first = await fetch(`${url}/v1/thing`);
      const second = await fetch(`${url}/v1/thing`);
      expect(second.headers.get('x-cache')).toBeNull();
      expect(first.headers.get('cache-control')).toBe('private, no-store');
      expect(first.headers.get('vary')).toMatch(/cookie/i);
    } finally {
      await app.close();
    }
  });

  it('many distinct query strings never push out an address without one', async () => {
    const { app, url } = await bareApp((request) => ({ code: 200, msg: 'ok', data: (request.query as { q?: string }).q ?? 'catalogue' }));
    try {
      await fetch(`${url}/v1/thing`);
      for (let index = 0; index < 4_100; index += 1) await app.inject({ url: `/v1/thing?q=${index}` });
      expect((await fetch(`${url}/v1/thing`)).headers.get('x-cache')).toBe('hit');
      expect((await fetch(`${url}/v1/thing?q=4099`)).headers.get('x-cache')).toBe('hit');
      expect((await fetch(`${url}/v1/thing?q=0`)).headers.get('x-cache')).toBe('miss');
    } finally {
      await app.close();
    }
  });
});
