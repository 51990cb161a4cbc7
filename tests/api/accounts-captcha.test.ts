import { Writable } from 'node:stream';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checkCaptcha } from '../../server/domains/captcha/captcha.service';
import { InsecureConfigError, loadEnv } from '../../server/shared/env';
import { createLogger } from '../../server/shared/logger';
import { freePort, spawnServer } from '../support/spawn-server';
import { TEST_CAPTCHA } from '../support/accounts';
import { startTestApp, useTestApp, type TestApp } from '../support/test-server';

const server = useTestApp();

describe('POST /v1/captcha', () => {
  it('answers an id and a 300x300 PNG data URL, never cached', async () => {
    const response = await server.request('/v1/captcha', {
      method: 'POST',
      body: { captcha_type: 'digit', verify_value: '' },
    });
    expect(response.body.code).toBe(200);
    expect(response.body.data.id).toMatch(/^[\w-]{24}$/);
    expect(response.body.data.data).toMatch(/^data:image\/png;base64,/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const image = await sharp(Buffer.from(response.body.data.data.split(',')[1], 'base64')).metadata();
    expect(image).toMatchObject({ format: 'png', width: 300, height: 300 });
  });

  it('stores only a hash of the answer, for five minutes', async () => {
    const response = await server.request('/v1/captcha', { method: 'POST', body: { captcha_type: 'digit' } });
    const stored = await server.ctx.kv.get(`captcha:${response.body.data.id}`);
    expect(stored).toMatch(/^[\w-]{43}$/);
    expect(stored).not.toMatch(/^\d{4,5}$/);
    const ttl = await server.ctx.kv.ttlSeconds(`captcha:${response.body.data.id}`);
    expect(ttl).toBeGreaterThan(290);
    expect(ttl).toBeLessThanOrEqual(300);
  });

  it('refuses captcha types other than digit', async () => {
    const response = await server.request('/v1/captcha', {
      method: 'POST',
      body: { captcha_type: 'slide' },
      headers: { lang: 'en' },
    });
    expect(response.body).toEqual({ code: 400, msg: 'Captcha type must be one of digit', data: null });
  });

  it('limits captchas per IP, with Retry-After', async () => {
    const limited = await startTestApp({ RATE_LIMITS: 'captcha.ip=2/60' });
    await limited.request('/v1/captcha', { method: 'POST', body: { captcha_type: 'digit' } });
    expect((await limited.request('/v1/captcha')).status).toBe(200);
    const response = await limited.request('/v1/captcha', {
      method: 'POST',
      body: { captcha_type: 'digit' },
      headers: { lang: 'en' },
    });
    await limited.close();
    expect(response.status).toBe(429);
    expect(response.body.msg).toMatch(/^Too many requests. Please try again in \d+ seconds$/);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('GET /v1/captcha', () => {
  const open = useTestApp({ CAPTCHA_TEST_ANSWER: TEST_CAPTCHA });

  it('issues a fresh digit captcha too, never cached, usable once', async () => {
    const first = await open.request('/v1/captcha');
    const second = await open.request('/v1/captcha');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body.data.id).not.toBe(second.body.data.id);
    expect(await checkCaptcha(open.ctx, first.body.data.id, TEST_CAPTCHA)).toBe(true);
    expect(await checkCaptcha(open.ctx, first.body.data.id, TEST_CAPTCHA)).toBe(false);
  });

  it('uses a captcha up on a wrong answer too (no second guess)', async () => {
    const { body } = await open.request('/v1/captcha');
    expect(await checkCaptcha(open.ctx, body.data.id, '0')).toBe(false);
    expect(await checkCaptcha(open.ctx, body.data.id, TEST_CAPTCHA)).toBe(false);
  });

  it('accepts nothing for an unknown id', async () => {
    expect(await checkCaptcha(open.ctx, 'x'.repeat(24), TEST_CAPTCHA)).toBe(false);
  });
});

describe('test knobs are refused in production', { timeout: 120_000 }, () => {
  it('refuses CAPTCHA_TEST_ANSWER and OIDC_ISSUER_OVERRIDE', () => {
    expect(() => loadEnv({ NODE_ENV: 'production', CAPTCHA_TEST_ANSWER: '1234' })).toThrow(InsecureConfigError);
    expect(() => loadEnv({ NODE_ENV: 'production', OIDC_ISSUER_OVERRIDE: 'http://127.0.0.1:9/' })).toThrow(
      /OIDC_ISSUER_OVERRIDE is a test knob/,
    );
    expect(loadEnv({ NODE_ENV: 'test', OIDC_ISSUER_OVERRIDE: 'http://127.0.0.1:9/' }).OIDC_ISSUER_OVERRIDE).toBe(
      'http://127.0.0.1:9/',
    );
  });

  it('a production server with OIDC_ISSUER_OVERRIDE exits with a clear message', async () => {
    const spawned = spawnServer(
      { OIDC_ISSUER_OVERRIDE: 'http://127.0.0.1:9/', SEED_DEMO_DATA: 'false' },
      await freePort(),
    );
    expect(await spawned.exited).toBe(1);
    expect(spawned.output()).toContain('OIDC_ISSUER_OVERRIDE is a test knob');
  });
});

describe('logs', () => {
  it('redact tokens, signs, cookies, passwords and codes', () => {
    let output = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        output += chunk;
        done();
      },
    });
    const log = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, sink);
    log.info({
      req: { headers: { token: 'TOKEN-1', sign: 'SIGN-1', cookie: 'access_token=COOKIE-1', 'x-csrf-token': 'CSRF-1' } },
      res: { headers: { 'set-cookie': 'access_token=COOKIE-2', 'refresh-token': 'TOKEN-2', 'refresh-sign': 'SIGN-2' } },
      body: {
        password: 'PASS-1',
        new_password: 'PASS-2',
        old_password: 'PASS-3',
        code: 'CODE-1',
        dots: 'DOTS-1',
        id_token: 'IDT-1',
      },
      data: { access_token: 'TOKEN-3', access_sign: 'SIGN-3' },
    });
    expect(output).toContain('[redacted]');
    expect(output).not.toMatch(/TOKEN-|SIGN-|COOKIE-|CSRF-1|PASS-|CODE-1|DOTS-1|IDT-1/);
  });
});

describe('client IP for the limits', () => {
  const captchaFrom = (target: TestApp, ip: string) =>
    target.request('/v1/captcha', { headers: { 'x-forwarded-for': ip } });

  it('comes from X-Forwarded-For only with TRUST_PROXY=true', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMITS: 'captcha.ip=1/60' });
    const direct = await startTestApp({ RATE_LIMITS: 'captcha.ip=1/60' });
    try {
      expect((await captchaFrom(proxied, '203.0.113.1')).status).toBe(200);
      expect((await captchaFrom(proxied, '203.0.113.1')).status).toBe(429);
      expect((await captchaFrom(proxied, '203.0.113.2')).status).toBe(200);
      // Without a trusted proxy the header is the client's own claim: ignored.
      expect((await captchaFrom(direct, '203.0.113.1')).status).toBe(200);
      expect((await captchaFrom(direct, '203.0.113.2')).status).toBe(429);
    } finally {
      await proxied.close();
      await direct.close();
    }
  });
});
