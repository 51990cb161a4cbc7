import { userAddresses, users } from '../../server/db/schema/index.ts';
import { createSession } from '../../server/domains/customers/sessions.service.ts';

/**
 * `count` buyers written straight into the shop's database, each with a default address in
 * Guangzhou and a live session: `{ session: { token, sign }, addressId, apiHeaders }`, where
 * `apiHeaders` are what the header-token API path wants. Runs under tsx (the shop's own code).
 */
export async function createBenchBuyers(handle, { count, prefix, sessionSecret }) {
  const ctx = { db: handle.db, env: { SESSION_SECRET: sessionSecret } };
  const buyers = [];
  for (let i = 0; i < count; i++) {
    const [user] = await handle.db
      .insert(users)
      .values({ email: `${prefix}-${i}@example.com`, username: `${prefix}-${i}` })
      .returning();
    const [address] = await handle.db
      .insert(userAddresses)
      .values({
        userId: user.id,
        countryCode: 'CN',
        provinceId: 'CN-GD',
        provinceName: { en: 'Guangdong', 'zh-cn': '广东省' },
        cityId: 'CN-GD-440100',
        cityName: { en: 'Guangzhou', 'zh-cn': '广州市' },
        detail: `${i} Tianhe Road`,
        postalCode: '510000',
        contactName: `Buyer ${i}`,
        contactPhone: '+8613812345678',
        isDefault: true,
      })
      .returning();
    const session = await createSession(ctx, user.id);
    buyers.push({
      session,
      addressId: address.id,
      apiHeaders: { token: session.token, sign: session.sign, 'content-type': 'application/json', lang: 'en' },
    });
  }
  return buyers;
}
