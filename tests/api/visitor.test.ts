import { describe, expect, it } from 'vitest';
import { ACCOUNT_TEST_ENV, cookieValue, registerUser } from '../support/accounts';
import { makeBuyer, prepareSku } from '../support/buyers';
import { useTestApp } from '../support/test-server';

/** `GET /v1/visitor`: the header's personal parts for a page served from the shared cache (issue 13). */
const server = useTestApp(ACCOUNT_TEST_ENV);

describe('GET /v1/visitor', () => {
  it('answers nobody and an empty cart to a first-time visitor', async () => {
    const answer = await server.request('/v1/visitor');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ user: null, cart_count: 0 });
  });

  it("names the signed-in buyer and counts their cart's items", async () => {
    const buyer = await makeBuyer(server, 'visitor-mei');
    const sku = await prepareSku(server, { stock: 10 });
    const added = await buyer.call('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 3 } });
    expect(added.status).toBe(200);
    const answer = await buyer.call('/v1/visitor');
    expect(answer.body.data).toEqual({ user: { username: 'visitor-mei', avatar: null }, cart_count: 3 });
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
  });

  it('a sign-in sets the signed-in hint beside the session cookie: readable by the page, holding only "1"', async () => {
    const user = await registerUser(server);
    const hint = user.cookies.find((cookie) => cookie.startsWith('signed_in='));
    expect(hint).toMatch(/^signed_in=1; Max-Age=\d+; Path=\/; SameSite=Lax$/);
    const session = user.cookies.find((cookie) => cookie.startsWith('access_token='));
    expect(session).toContain('HttpOnly');
  });

  it('retires a stale session cookie and the hint with it, so the page stops waiting for a name', async () => {
    const answer = await server.request('/v1/visitor', { cookies: { access_token: 'stale', signed_in: '1' } });
    expect(answer.body.data).toEqual({ user: null, cart_count: 0 });
    const cleared = answer.headers.getSetCookie();
    expect(cookieValue(cleared, 'access_token')).toBe('');
    expect(cookieValue(cleared, 'signed_in')).toBe('');
  });
});
