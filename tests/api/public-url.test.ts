import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsecureConfigError, loadEnv } from '../../server/shared/env';
import { makeBuyer, type Buyer } from '../support/buyers';
import { startTestServer, type TestServer } from '../support/test-server';
import { makeOrder, SANDBOX_SECRET } from './payments-fixtures';

describe('PUBLIC_URL', () => {
  it('is required to start in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(InsecureConfigError);
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL is required/);
    expect(loadEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://shop.example' }).PUBLIC_URL).toBe(
      'https://shop.example',
    );
  });
});

describe('links that leave the site never come from the Host header', () => {
  let server: TestServer;
  let buyer: Buyer;

  beforeAll(async () => {
    server = await startTestServer({
      PUBLIC_URL: 'https://shop.example',
      PAYMENT_PROVIDER: 'sandbox',
      SANDBOX_WEBHOOK_SECRET: SANDBOX_SECRET,
    });
    buyer = await makeBuyer(server);
  });
  afterAll(() => server?.close());

  it('sends the buyer back from the payment page to PUBLIC_URL, whatever Host the request named', async () => {
    const orderId = await makeOrder(server.ctx, buyer.id, 5_000, 'CNY');
    const started = await server.app.inject({
      method: 'POST',
      url: '/v1/pay',
      headers: {
        ...buyer.headers,
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'content-type': 'application/json',
      },
      payload: { order_id: orderId },
    });
    expect(started.json()).toMatchObject({ code: 200 });
    const redirectUrl = started.json().data.redirect_url as string;

    const pressed = await server.app.inject({
      method: 'POST',
      url: `${redirectUrl}/pay`,
      headers: { host: 'evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(pressed.statusCode).toBe(303);
    expect(pressed.headers.location).toBe(`https://shop.example/en/result/success?order_id=${orderId}`);
  });

  it('names PUBLIC_URL in robots.txt and the sitemap', async () => {
    const robots = await server.app.inject({ method: 'GET', url: '/robots.txt', headers: { host: 'evil.example' } });
    expect(robots.body).toContain('Sitemap: https://shop.example/sitemap.xml');
    const sitemap = await server.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'evil.example' } });
    expect(sitemap.body).toContain('<loc>https://shop.example/en/');
    expect(sitemap.body).not.toContain('evil.example');
  });
});
