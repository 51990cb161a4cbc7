import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresAdminUrl } from '../support/database';
import {
  ACCOUNT_TEST_ENV,
  GENEROUS_RATE_LIMITS,
  TEST_CAPTCHA,
  authHeaders,
  loginRequest,
  newCaptcha,
  registerUser,
  uniqueEmail,
} from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';

const redisUrl = process.env.REDIS_URL;
const reason = !postgresAdminUrl ? 'DATABASE_URL is not set' : !redisUrl ? 'REDIS_URL is not set' : '';

/**
 * Two copies of the shop on one PostgreSQL database and one Redis: whatever one copy
 * creates (a session, a captcha, a rate-limit count) holds on the other.
 */
describe.skipIf(Boolean(reason))(
  `two server copies share accounts state${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    let first: TestServer;
    let second: TestServer;

    beforeAll(async () => {
      const shared = {
        ...ACCOUNT_TEST_ENV,
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: `test-cluster:${process.pid}:${Date.now()}:`,
        RATE_LIMITS: `${GENEROUS_RATE_LIMITS},login.failures.client=3/600`,
      };
      first = await startTestServer(shared);
      second = await startTestServer(shared, { databaseUrl: first.databaseUrl });
      expect(first.ctx.kv.kind).toBe('redis');
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('a session made on one copy works, and is revoked, on the other', async () => {
      const user = await registerUser(first);
      expect((await second.request('/v1/user/info', { headers: authHeaders(user) })).body.data.uid).toBe(user.uid);
      expect((await second.request('/v1/user/info', { cookies: { access_token: user.token } })).body.data.uid).toBe(
        user.uid,
      );
      await second.request('/v1/user/logout', { method: 'POST', body: {}, headers: authHeaders(user) });
      expect((await first.request('/v1/user/info', { headers: authHeaders(user) })).body.code).toBe(302);
    });

    it('a captcha issued by one copy is answered on the other, once', async () => {
      const user = await registerUser(first);
      const key = await newCaptcha(first);
      const login = (server: TestServer) =>
        server.request('/v1/user/login', {
          method: 'POST',
          body: { email: user.email, password: user.password, dots: TEST_CAPTCHA, key },
        });
      expect((await login(second)).body.code).toBe(200);
      expect((await login(first)).body.code).toBe(4001);
    });

    it('a rate limit counted on one copy bites on the other', async () => {
      const email = uniqueEmail('cluster');
      const statuses = [];
      for (const server of [first, second, first, second])
        statuses.push((await loginRequest(server, email, 'wrong')).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
    });
  },
);
