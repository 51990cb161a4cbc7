import { describe, expect, it } from 'vitest';
import { ACCOUNT_TEST_ENV, authHeaders, cookieValue, loginRequest, registerUser } from '../support/accounts';
import { prepareSku } from '../support/buyers';
import { useTestApp } from '../support/test-server';

const server = useTestApp(ACCOUNT_TEST_ENV);

describe('a visitor cart at login', () => {
  it('joins the account in the login answer itself, and the visitor cookie is retired', async () => {
    const sku = await prepareSku(server, { stock: 20 });
    const member = await registerUser(server);
    const added = await server.request('/v1/cart/items', { method: 'POST', body: { sku_id: sku.id, quantity: 3 } });
    const cartId = cookieValue(added.headers.getSetCookie(), 'cart_id')!;
    expect(cartId).toBeTruthy();

    const login = await loginRequest(server, member.email, member.password, { cookie: `cart_id=${cartId}` });
    expect(login.body.code).toBe(200);
    expect(cookieValue(login.headers.getSetCookie(), 'cart_id')).toBe('');

    const session = { token: login.body.data.access_token, sign: login.body.data.access_sign };
    const count = await server.request('/v1/cart/count', { headers: authHeaders(session) });
    expect(count.body.data).toMatchObject({ count: 3 });
    const visitorCart = await server.request('/v1/cart', { cookies: { cart_id: cartId } });
    expect(visitorCart.body.data.lines).toEqual([]);
  });
});
