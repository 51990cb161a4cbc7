import { beforeAll, describe, expect, it } from 'vitest';
import { chinaAddress, makeBuyer, usAddress, type Buyer } from '../support/buyers';
import { useTestApp } from '../support/test-server';

const server = useTestApp();
let alice: Buyer;
let bob: Buyer;

beforeAll(async () => {
  alice = await makeBuyer(server, 'alice-addr');
  bob = await makeBuyer(server, 'bob-addr');
});

describe('addresses', () => {
  it('needs a session (301 without one)', async () => {
    const response = await server.request('/v1/useraddress/list');
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(301);
  });

  it('adds an address with area names from the tree, a normalised phone, and makes the first one default', async () => {
    const created = await alice.call('/v1/useraddress', { method: 'POST', body: chinaAddress });
    expect(created.status).toBe(200);
    expect(created.body.msg).toBe('Saved');
    expect(created.body.data).toMatchObject({
      country_code: 'CN',
      country: 'China',
      province_id: 'CN-GD',
      province: 'Guangdong',
      city_id: 'CN-GD-440100',
      city: 'Guangzhou',
      contact_phone: '+8613812345678',
      is_default: true,
    });
    const zh = await alice.call(`/v1/useraddress?id=${created.body.data.id}`, { headers: { lang: 'zh-cn' } });
    expect(zh.body.data).toMatchObject({ country: '中国', province: '广东省', city: '广州市' });
  });

  it('keeps exactly one default address', async () => {
    const second = await alice.call('/v1/useraddress', { method: 'POST', body: { ...usAddress, is_default: true } });
    expect(second.body.data.is_default).toBe(true);
    expect(second.body.data.city).toBe('San Francisco');
    const list = await alice.call('/v1/useraddress/list');
    expect(list.body.data.filter((address: { is_default: boolean }) => address.is_default)).toHaveLength(1);
    expect(list.body.data[0].id).toBe(second.body.data.id);
    // Deleting the default hands it to the remaining address.
    await alice.call(`/v1/useraddress/${second.body.data.id}`, { method: 'DELETE' });
    const after = await alice.call('/v1/useraddress/list');
    expect(after.body.data).toHaveLength(1);
    expect(after.body.data[0].is_default).toBe(true);
  });

  it('updates an address with PUT', async () => {
    const [first] = (await alice.call('/v1/useraddress/list')).body.data;
    const updated = await alice.call('/v1/useraddress', {
      method: 'PUT',
      body: { ...chinaAddress, id: first.id, contact_name: 'Han Meimei' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.contact_name).toBe('Han Meimei');
    expect(updated.body.data.is_default).toBe(true);
  });

  it.each([
    [{ ...chinaAddress, country_code: undefined }, 'Please select your country of residence', '请选择您的居住国家'],
    [{ ...chinaAddress, province_id: 'US-CA' }, 'Please enter the province', '请输入省份'],
    [{ ...chinaAddress, city_id: 'CN-GD-110105' }, 'Please enter the city', '请输入城市'],
    [{ ...usAddress, city: undefined }, 'Please enter the city', '请输入城市'],
    [{ ...chinaAddress, detail: '  ' }, 'Please enter the detailed address', '请输入详细地址'],
    [{ ...chinaAddress, contact_name: '' }, 'Please enter your name', '请输入您的姓名'],
    [
      { ...chinaAddress, contact_phone: '+1 415 555 0132' },
      'Please enter a valid contact number',
      '请输入有效的联系电话',
    ],
    [{ ...usAddress, contact_phone: '12345' }, 'Please enter a valid contact number', '请输入有效的联系电话'],
  ])('refuses %j with SPEC section 5 messages in both languages', async (body, en, zh) => {
    const english = await bob.call('/v1/useraddress', { method: 'POST', body });
    expect(english.status).toBe(400);
    expect(english.body.msg).toBe(en);
    const chinese = await bob.call('/v1/useraddress', { method: 'POST', body, headers: { lang: 'zh-cn' } });
    expect(chinese.body.msg).toBe(zh);
  });

  it('refuses a country the shop does not ship to', async () => {
    const response = await bob.call('/v1/useraddress', { method: 'POST', body: { ...usAddress, country_code: 'BR' } });
    expect(response.status).toBe(400);
    expect(response.body.msg).toBe('We do not ship to this country yet');
  });

  it("answers 404 for another user's address on every call, and changes nothing", async () => {
    const [mine] = (await alice.call('/v1/useraddress/list')).body.data;
    const read = await bob.call(`/v1/useraddress?id=${mine.id}`);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ code: 404, msg: 'Address not found', data: null });
    expect((await bob.call('/v1/useraddress', { method: 'PUT', body: { ...usAddress, id: mine.id } })).status).toBe(
      404,
    );
    expect((await bob.call(`/v1/useraddress/${mine.id}`, { method: 'DELETE' })).status).toBe(404);
    expect(
      (await bob.call('/v1/useraddress/list')).body.data.some((address: { id: number }) => address.id === mine.id),
    ).toBe(false);
    const still = await alice.call(`/v1/useraddress?id=${mine.id}`);
    expect(still.body.data.contact_name).toBe('Han Meimei');
  });

  it('caps a user at 20 addresses', async () => {
    const carol = await makeBuyer(server, 'carol-addr');
    for (let i = 0; i < 20; i++) {
      const response = await carol.call('/v1/useraddress', {
        method: 'POST',
        body: { ...usAddress, detail: `${i} Main St` },
      });
      expect(response.status).toBe(200);
    }
    const over = await carol.call('/v1/useraddress', { method: 'POST', body: usAddress });
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe('You can keep at most 20 addresses');
  });
});
