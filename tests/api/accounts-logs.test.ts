import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { TEST_CAPTCHA } from '../support/accounts';
import { openTestDatabase, postgresAdminUrl } from '../support/database';
import { freePort, spawnServer, unshed, waitForReady } from '../support/spawn-server';

async function call(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  // A spawned copy on a busy machine may shed a request (503, nothing done): it is sent again.
  const response = await unshed(() =>
    fetch(url, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  return { headers: response.headers, body: await response.json() };
}

/** The built server with its real logger at the most verbose level: no secret of a whole sign-in may reach the log. */
// A fresh embedded database pays for initdb first; on a busy 2-core machine that alone can take a minute.
describe('tokens, signs, passwords, codes, emails and phones never reach the logs', { timeout: 240_000 }, () => {
  it('holds for register, login, emailed code and authenticated calls', async () => {
    const database = postgresAdminUrl
      ? await openTestDatabase({ dataDir: inject('dataDir'), runId: inject('runId') })
      : undefined;
    await database?.handle.close();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-logs-'));
    const server = spawnServer(
      {
        NODE_ENV: 'test',
        LOG_LEVEL: 'trace',
        DATA_DIR: dataDir,
        SEED_DEMO_DATA: 'false',
        CAPTCHA_TEST_ANSWER: TEST_CAPTCHA,
        DATABASE_URL: database?.url,
        REDIS_KEY_PREFIX: `test-logs:${process.pid}:${Date.now()}:`,
        SMTP_URL: '',
      },
      await freePort(),
    );
    try {
      await waitForReady(server.url, 180_000);
      const captcha = async () =>
        (await call(`${server.url}/v1/captcha`, 'POST', { captcha_type: 'digit' })).body.data.id;
      const password = 'Very-Secret-Password-77';
      const email = `logs-${Date.now()}@example.com`;
      const registered = await call(`${server.url}/v1/user/registe`, 'POST', {
        username: `logs${Date.now()}`,
        mobile: '13812345678',
        email,
        password,
        dots: TEST_CAPTCHA,
        key: await captcha(),
      });
      const { access_token: token, access_sign: sign } = registered.body.data;
      await call(`${server.url}/v1/user/login`, 'POST', { email, password, dots: TEST_CAPTCHA, key: await captcha() });
      await call(`${server.url}/v1/user/info`, 'GET', undefined, { token, sign });
      await call(
        `${server.url}/v1/user/sendCode`,
        'POST',
        { email, dots: TEST_CAPTCHA, key: await captcha() },
        { lang: 'en' },
      );
      const outbox = path.join(dataDir, 'outbox');
      const [mailFile] = fs.readdirSync(outbox);
      if (mailFile === undefined) throw new Error(`no mail in ${outbox} after sendCode`);
      const mail = fs.readFileSync(path.join(outbox, mailFile), 'utf8');
      const code = /verification code is (\d{6})/.exec(mail.replace(/=\r?\n/g, ''))![1];
      const byCode = await call(`${server.url}/v1/user/loginByCode`, 'POST', { email, code });
      expect(byCode.body.code).toBe(200);
      await call(
        `${server.url}/v1/user/password`,
        'PUT',
        { old_password: password, new_password: 'Another-Secret-99' },
        { token, sign },
      );

      const log = server.output();
      expect(log).toContain('mail written to the local outbox');
      for (const secret of [token, sign, byCode.body.data.access_token, password, 'Another-Secret-99', code])
        expect(log).not.toContain(secret);
      // Personal data is masked, not only secrets: the outbox line names the buyer as l***@example.com.
      expect(log).not.toContain(email);
      expect(log).not.toContain('13812345678');
      expect(log).toContain('"to":"l***@example.com"');
      const lines = log.split('\n').filter((line) => line.trim() !== '');
      const notJson = lines.filter((line) => {
        try {
          return typeof JSON.parse(line) !== 'object';
        } catch {
          return true;
        }
      });
      expect(notJson).toEqual([]);
    } finally {
      await server.stop();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
