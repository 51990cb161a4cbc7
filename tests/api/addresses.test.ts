import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { userAddresses } from '../../server/db/schema';
import { DEFAULT_SITE_SETTINGS } from '../../server/domains/site-settings/site-settings.defaults';
import { updateSiteSettings } from '../../server/domains/site-settings/site-settings.service';
import { chinaAddress, makeBuyer, prepareSku, usAddress, type Buyer } from '../support/buyers';
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
    const response = await bob.call('/v1/useraddress', {
      method: 'POST',
      body: { ...usAddress, country_code: 'BR', postal_code: '01310-100' },
    });
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

/** A complete address in each country the tests use: a state from the area tree, a town typed in, a local phone. */
const ADDRESSES: Record<string, Record<string, string>> = {
  DE: { country_code: 'DE', province_id: 'DE-BE', city: 'Berlin', contact_phone: '+49 30 901820' },
  US: { country_code: 'US', province_id: 'US-CA', city: 'San Francisco', contact_phone: '+1 415 555 0132' },
  GB: { country_code: 'GB', city: 'London', contact_phone: '+44 20 7946 0958' },
  CA: { country_code: 'CA', province_id: 'CA-ON', city: 'Ottawa', contact_phone: '+1 613 555 0132' },
  JP: { country_code: 'JP', province_id: 'JP-13', city: 'Chiyoda', contact_phone: '+81 3-1234-5678' },
  CN: { country_code: 'CN', province_id: 'CN-GD', city_id: 'CN-GD-440100', contact_phone: '13812345678' },
  AU: { country_code: 'AU', province_id: 'AU-NSW', city: 'Sydney', contact_phone: '+61 2 9374 4000' },
  FR: { country_code: 'FR', city: 'Paris', contact_phone: '+33 1 42 68 53 00' },
  SG: { country_code: 'SG', city: 'Singapore', contact_phone: '+65 6123 4567' },
  MY: { country_code: 'MY', province_id: 'MY-14', city: 'Kuala Lumpur', contact_phone: '+60 3-2615 8188' },
  HK: { country_code: 'HK', city: 'Kowloon', contact_phone: '+852 2123 4567' },
};

describe('postal codes by country (ADR 0118)', () => {
  let dana: Buyer;
  const addressIn = async (country: string, postalCode: string | undefined, extra: Record<string, string> = {}) => {
    const { country_code, ...rest } = ADDRESSES[country]!;
    // Countries whose states the tree lists need one; the first of the tree's list is as good as any.
    if (!('province_id' in rest)) {
      const states = (await dana.call(`/v1/area/all?parent_id=${country_code}`)).body.data;
      if (states.length) rest.province_id = states[0].id;
    }
    return {
      country_code,
      ...rest,
      detail: '1 Example Street',
      contact_name: 'Dana Example',
      ...(postalCode === undefined ? {} : { postal_code: postalCode }),
      ...extra,
    };
  };

  beforeAll(async () => {
    dana = await makeBuyer(server, 'dana-postal');
    await updateSiteSettings(server.ctx, { country_list: [...DEFAULT_SITE_SETTINGS.country_list, 'HK'] });
  });

  it.each([
    ['DE', '10115', '10115'],
    ['DE', ' 10 115 ', '10115'],
    ['US', '94105', '94105'],
    ['US', '941051234', '94105-1234'],
    ['GB', 'sw1a1aa', 'SW1A 1AA'],
    ['GB', 'EC1A  1BB', 'EC1A 1BB'],
    ['CA', 'k1a0b1', 'K1A 0B1'],
    ['JP', '1000001', '100-0001'],
    ['JP', '１００－０００１', '100-0001'],
    ['CN', '510000', '510000'],
    ['AU', '2000', '2000'],
    ['FR', '75 001', '75001'],
    ['SG', '018956', '018956'],
    ['MY', '50050', '50050'],
    ['HK', '', ''],
  ])('%s accepts %j and keeps it as %j', async (country, typed, stored) => {
    const created = await dana.call('/v1/useraddress', { method: 'POST', body: await addressIn(country, typed) });
    expect(created.status).toBe(200);
    expect(created.body.data.postal_code).toBe(stored);
    await dana.call(`/v1/useraddress/${created.body.data.id}`, { method: 'DELETE' });
  });

  it.each([
    ['DE', 'ABC', 'Enter a 5-digit postal code, e.g. 10115', '请输入 5 位数字的邮政编码，例如 10115'],
    ['DE', undefined, 'Enter a 5-digit postal code, e.g. 10115', '请输入 5 位数字的邮政编码，例如 10115'],
    ['US', '9410', 'Enter a 5-digit postal code, e.g. 94103', '请输入 5 位数字的邮政编码，例如 94103'],
    ['US', '', 'Enter a 5-digit postal code, e.g. 94103', '请输入 5 位数字的邮政编码，例如 94103'],
    ['GB', '12345', 'Enter the postal code in the form SW1A 1AA', '请按 SW1A 1AA 的格式填写邮政编码'],
    ['CA', '12345', 'Enter the postal code in the form K1A 0B1', '请按 K1A 0B1 的格式填写邮政编码'],
    ['JP', '12-345', 'Enter the postal code in the form 100-0001', '请按 100-0001 的格式填写邮政编码'],
    ['CN', '51000', 'Enter a 6-digit postal code, e.g. 100000', '请输入 6 位数字的邮政编码，例如 100000'],
    ['AU', '20000', 'Enter a 4-digit postal code, e.g. 2000', '请输入 4 位数字的邮政编码，例如 2000'],
    ['FR', 'Paris', 'Enter a 5-digit postal code, e.g. 75001', '请输入 5 位数字的邮政编码，例如 75001'],
    ['SG', '1234', 'Enter a 6-digit postal code, e.g. 018956', '请输入 6 位数字的邮政编码，例如 018956'],
    ['HK', '#1', 'Please enter a valid postal code', '请输入有效的邮政编码'],
  ])('%s refuses %j, naming the expected format in both languages', async (country, typed, en, zh) => {
    const body = await addressIn(country, typed);
    const english = await dana.call('/v1/useraddress', { method: 'POST', body });
    expect(english.status).toBe(400);
    expect(english.body.msg).toBe(en);
    const chinese = await dana.call('/v1/useraddress', { method: 'POST', body, headers: { lang: 'zh-cn' } });
    expect(chinese.status).toBe(400);
    expect(chinese.body.msg).toBe(zh);
  });

  it('refuses an over-long postal code and one with control characters, naming the field', async () => {
    const long = await dana.call('/v1/useraddress', { method: 'POST', body: await addressIn('DE', '1'.repeat(21)) });
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe('Postal code cannot be longer than 20 characters');
    const control = await dana.call('/v1/useraddress', {
      method: 'POST',
      body: await addressIn('DE', '10115\u0000'),
      headers: { lang: 'zh-cn' },
    });
    expect(control.status).toBe(400);
    expect(control.body.msg).toBe('邮政编码包含不允许的字符（控制字符或无效文本）');
  });

  it('applies the rule to changes too (PUT)', async () => {
    const created = await dana.call('/v1/useraddress', { method: 'POST', body: await addressIn('DE', '10115') });
    const changed = await dana.call('/v1/useraddress', {
      method: 'PUT',
      body: { ...(await addressIn('DE', '1011')), id: created.body.data.id },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.msg).toBe('Enter a 5-digit postal code, e.g. 10115');
    const kept = await dana.call(`/v1/useraddress?id=${created.body.data.id}`);
    expect(kept.body.data.postal_code).toBe('10115');
    await dana.call(`/v1/useraddress/${created.body.data.id}`, { method: 'DELETE' });
  });
});

describe('free-text city', () => {
  let erin: Buyer;
  beforeAll(async () => {
    erin = await makeBuyer(server, 'erin-city');
  });

  it('accepts a town the suggestion list does not have, in a state that has a list', async () => {
    const suggestions = (await erin.call('/v1/area/all?parent_id=US-CA')).body.data as Array<{ name: string }>;
    expect(suggestions.some((city) => city.name === 'Gualala')).toBe(false);
    const created = await erin.call('/v1/useraddress', { method: 'POST', body: { ...usAddress, city: 'Gualala' } });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ city_id: null, city: 'Gualala', province: 'California' });
  });

  it('refuses an over-long city and one with control characters', async () => {
    const long = await erin.call('/v1/useraddress', { method: 'POST', body: { ...usAddress, city: 'x'.repeat(101) } });
    expect(long.status).toBe(400);
    expect(long.body.msg).toBe('City cannot be longer than 100 characters');
    const control = await erin.call('/v1/useraddress', {
      method: 'POST',
      body: { ...usAddress, city: 'Sea\u0007Ranch' },
    });
    expect(control.status).toBe(400);
    expect(control.body.msg).toMatch(/^City contains characters that are not allowed/);
  });
});

describe('an address saved before postal codes were checked', () => {
  it('still reads, and checkout asks the buyer to fix its postal code before ordering', async () => {
    const frank = await makeBuyer(server, 'frank-legacy');
    const created = await frank.call('/v1/useraddress', { method: 'POST', body: usAddress });
    // A four-digit ZIP, as the shop used to accept.
    await server.ctx.db
      .update(userAddresses)
      .set({ postalCode: '9410' })
      .where(eq(userAddresses.id, created.body.data.id));
    const read = await frank.call('/v1/useraddress/list');
    expect(read.status).toBe(200);
    expect(read.body.data[0]).toMatchObject({ postal_code: '9410', city: 'San Francisco' });

    const sku = await prepareSku(server, { stock: 5 });
    const body = { items: [{ sku_id: sku.id, quantity: 1 }] };
    expect((await frank.call('/v2/order/confirm', { method: 'POST', body })).status).toBe(200);
    const placed = await frank.call('/v2/order', { method: 'POST', body });
    expect(placed.status).toBe(400);
    expect(placed.body.msg).toBe(
      'Please edit your shipping address before ordering. Enter a 5-digit postal code, e.g. 94103',
    );
    const chinese = await frank.call('/v2/order', { method: 'POST', body, headers: { lang: 'zh-cn' } });
    expect(chinese.body.msg).toBe('下单前请先修改收货地址：请输入 5 位数字的邮政编码，例如 94103');
  });
});
