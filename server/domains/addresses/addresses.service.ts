import { and, asc, desc, eq, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { translate } from '../../../i18n';
import { pickText, type Locale, type LocalizedText } from '../../../i18n/locales';
import { userAddresses, users } from '../../db/schema';
import type { AddressSnapshot } from '../../db/schema/orders';
import type { AppContext } from '../../context';
import { BadRequestError, NotFoundError } from '../../shared/errors';
import { checkPostalCode } from '../../shared/postal-codes';
import { loadCountryNames } from '../areas/area-sources';
import { buildAreaTree, getAreaChildren, normalizeCountryList } from '../areas/areas.service';
import { getSiteSettings } from '../site-settings/site-settings.service';
import { MAX_ADDRESSES_PER_USER, type AddressInput, type AddressUpdate, type AddressView } from './addresses.schemas';
import { onlyRow } from '../../db/rows';
import { preparedPerDatabase } from '../../db/prepared';
import { rowFromJson } from '../../db/json-rows';
import type { Database } from '../../db/client';

type AddressRow = typeof userAddresses.$inferSelect;

const same = (text: string): LocalizedText => ({ en: text, 'zh-cn': text });

async function countryName(code: string): Promise<LocalizedText> {
  const names = (await loadCountryNames()).get(code);
  return names ? { en: names.en, 'zh-cn': names.zh } : same(code);
}

export async function addressView(row: AddressRow, locale: Locale): Promise<AddressView> {
  const country = pickText(await countryName(row.countryCode), locale);
  const province = pickText(row.provinceName, locale);
  const city = pickText(row.cityName, locale);
  const parts =
    locale === 'zh-cn' ? [country, province, city, row.detail] : [row.detail, city, province, row.postalCode, country];
  return {
    id: row.id,
    country_code: row.countryCode,
    country,
    province_id: row.provinceId,
    province,
    city_id: row.cityId,
    city,
    detail: row.detail,
    postal_code: row.postalCode,
    contact_name: row.contactName,
    contact_phone: row.contactPhone,
    is_default: row.isDefault,
    full_address: parts.filter(Boolean).join(locale === 'zh-cn' ? ' ' : ', '),
  };
}

/**
 * Checks an address against the shop's country list and the area tree, and the phone
 * number against the chosen country. Returns the columns to store.
 */
export async function resolveAddress(ctx: AppContext, input: AddressInput) {
  const codes = normalizeCountryList((await getSiteSettings(ctx)).country_list);
  if (!codes.includes(input.country_code)) throw new BadRequestError('address.countryNotShipped');
  const country = (await buildAreaTree(codes)).find((node) => node.id === input.country_code);
  if (!country) throw new BadRequestError('address.countryNotShipped');

  let provinceId: string | null = null;
  let provinceName: LocalizedText;
  const states = country.children ?? [];
  if (states.length > 0) {
    const province = states.find((node) => node.id === input.province_id);
    if (!province) throw new BadRequestError('address.provinceRequired');
    provinceId = province.id;
    provinceName = { en: province.name_en, 'zh-cn': province.name_zh };
  } else {
    provinceName = same(input.province ?? '');
  }

  let cityId: string | null = null;
  let cityName: LocalizedText;
  const province = states.find((node) => node.id === provinceId);
  if (province?.children?.length) {
    // The tree lists every city here (mainland China): one of them must be chosen.
    const city = province.children.find((node) => node.id === input.city_id);
    if (!city) throw new BadRequestError('address.cityRequired');
    cityId = city.id;
    cityName = { en: city.name_en, 'zh-cn': city.name_zh };
  } else if (input.city_id) {
    if (!provinceId || !input.city_id.startsWith(`${provinceId}-`)) throw new BadRequestError('address.cityRequired');
    const cities = await getAreaChildren(ctx, { parentId: provinceId, locale: 'en' }).catch(() => null);
    const city = cities?.areas.find((node) => node.id === input.city_id);
    if (!city) throw new BadRequestError('address.cityRequired');
    cityId = city.id;
    cityName = { en: city.name_en, 'zh-cn': city.name_zh };
  } else {
    if (!input.city) throw new BadRequestError('address.cityRequired');
    cityName = same(input.city);
  }

  const phone = parsePhoneNumberFromString(input.contact_phone, input.country_code as CountryCode);
  // "Valid for the chosen country": a valid number of another country is refused too.
  if (!phone || !phone.isValid() || phone.country !== input.country_code)
    throw new BadRequestError('address.phoneInvalid');

  return {
    countryCode: input.country_code,
    provinceId,
    provinceName,
    cityId,
    cityName,
    detail: input.detail,
    postalCode: input.postal_code ?? '',
    contactName: input.contact_name,
    contactPhone: phone.format('E.164'),
  };
}

function ownAddress(userId: number | Placeholder, id: number | Placeholder) {
  return and(eq(userAddresses.id, id), eq(userAddresses.userId, userId));
}

export async function listAddresses(
  ctx: AppContext,
  input: { userId: number; locale: Locale },
): Promise<AddressView[]> {
  const rows = await ctx.db
    .select()
    .from(userAddresses)
    .where(eq(userAddresses.userId, input.userId))
    .orderBy(desc(userAddresses.isDefault), desc(userAddresses.updatedAt), asc(userAddresses.id));
  return Promise.all(rows.map((row) => addressView(row, input.locale)));
}

/** One of the user's addresses; another user's id is "not found", never "forbidden". */
const addressById = preparedPerDatabase((db) =>
  db
    .select()
    .from(userAddresses)
    .where(ownAddress(sql.placeholder('userId'), sql.placeholder('id')))
    .limit(1)
    .prepare('address_by_id'),
);

export async function findAddress(
  ctx: AppContext,
  input: { userId: number; id: number },
): Promise<AddressRow | undefined> {
  const [row] = await addressById(ctx.db).execute(input);
  return row;
}

export async function getAddress(
  ctx: AppContext,
  input: { userId: number; id: number; locale: Locale },
): Promise<AddressView> {
  const row = await findAddress(ctx, input);
  if (!row) throw new NotFoundError('address.notFound');
  return addressView(row, input.locale);
}

/** The default address, or the most recently changed one. */
const DEFAULT_ADDRESS_FIRST = [desc(userAddresses.isDefault), desc(userAddresses.updatedAt)];

const defaultAddressOf = preparedPerDatabase((db) =>
  db
    .select()
    .from(userAddresses)
    .where(eq(userAddresses.userId, sql.placeholder('userId')))
    .orderBy(...DEFAULT_ADDRESS_FIRST)
    .limit(1)
    .prepare('default_address'),
);

/**
 * The address an order goes to, as JSON (`row_to_json`, read back by `addressFromJson`), for a
 * read that takes more than the address in one statement (checkout/quote-facts.ts): the user's
 * address `addressId` (an `int`; another user's is none), or their default when it is null.
 */
export function orderAddressJson(db: Database, userId: SQL, addressId: SQL): SQL<unknown> {
  const chosen = db
    .select()
    .from(userAddresses)
    .where(
      and(
        eq(userAddresses.userId, userId),
        sql`(${addressId}::int is null or ${userAddresses.id} = ${addressId}::int)`,
      ),
    )
    .orderBy(...DEFAULT_ADDRESS_FIRST)
    .limit(1);
  return sql`(select row_to_json(address) from (${chosen}) as address)`;
}

/** `orderAddressJson` read back: null when the user has no such address. */
export function addressFromJson(json: unknown): AddressRow | null {
  return json === null || json === undefined ? null : rowFromJson(userAddresses, json);
}

export async function defaultAddress(ctx: AppContext, userId: number): Promise<AddressRow | undefined> {
  const [row] = await defaultAddressOf(ctx.db).execute({ userId });
  return row;
}

export async function createAddress(
  ctx: AppContext,
  input: { userId: number; address: AddressInput; locale: Locale },
): Promise<AddressView> {
  const values = await resolveAddress(ctx, input.address);
  const row = await ctx.db.transaction(async (tx) => {
    // The user's row lock serialises their address writes, so the cap and the single default hold under concurrency.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for('update');
    const existing = await tx
      .select({ id: userAddresses.id })
      .from(userAddresses)
      .where(eq(userAddresses.userId, input.userId));
    if (existing.length >= MAX_ADDRESSES_PER_USER)
      throw new BadRequestError('address.limitReached', { max: MAX_ADDRESSES_PER_USER });
    const makeDefault = input.address.is_default === true || existing.length === 0;
    if (makeDefault)
      await tx.update(userAddresses).set({ isDefault: false }).where(eq(userAddresses.userId, input.userId));
    const created = onlyRow(
      await tx
        .insert(userAddresses)
        .values({ ...values, userId: input.userId, isDefault: makeDefault })
        .returning(),
    );
    return created;
  });
  return addressView(row, input.locale);
}

export async function updateAddress(
  ctx: AppContext,
  input: { userId: number; address: AddressUpdate; locale: Locale },
): Promise<AddressView> {
  const values = await resolveAddress(ctx, input.address);
  const row = await ctx.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, input.userId)).for('update');
    const [current] = await tx.select().from(userAddresses).where(ownAddress(input.userId, input.address.id));
    if (!current) throw new NotFoundError('address.notFound');
    // Unsetting the only default is not possible: exactly one address stays the default.
    const makeDefault = input.address.is_default ?? current.isDefault;
    if (makeDefault && !current.isDefault) {
      await tx.update(userAddresses).set({ isDefault: false }).where(eq(userAddresses.userId, input.userId));
    }
    const updated = onlyRow(
      await tx
        .update(userAddresses)
        .set({ ...values, isDefault: makeDefault || current.isDefault, updatedAt: new Date() })
        .where(eq(userAddresses.id, current.id))
        .returning(),
    );
    return updated;
  });
  return addressView(row, input.locale);
}

export async function deleteAddress(ctx: AppContext, input: { userId: number; id: number }): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [removed] = await tx.delete(userAddresses).where(ownAddress(input.userId, input.id)).returning();
    if (!removed) throw new NotFoundError('address.notFound');
    if (!removed.isDefault) return;
    // The newest remaining address becomes the default.
    const [next] = await tx
      .select({ id: userAddresses.id })
      .from(userAddresses)
      .where(and(eq(userAddresses.userId, input.userId), ne(userAddresses.id, removed.id)))
      .orderBy(desc(userAddresses.updatedAt))
      .limit(1);
    if (next) await tx.update(userAddresses).set({ isDefault: true }).where(eq(userAddresses.id, next.id));
  });
}

/** Deletes every address of a user (erasure, docs/console.md); answers how many went. */
export async function deleteAllAddresses(ctx: AppContext, userId: number): Promise<number> {
  const removed = await ctx.db
    .delete(userAddresses)
    .where(eq(userAddresses.userId, userId))
    .returning({ id: userAddresses.id });
  return removed.length;
}

/**
 * Addresses saved before postal codes were checked (ADR 0118) still show and can be read, but
 * an order needs a code the post accepts: the buyer is asked to edit the address first.
 */
export function assertPostalCodeShippable(row: AddressRow, locale: Locale): void {
  const checked = checkPostalCode(row.countryCode, row.postalCode);
  if (!checked.ok)
    throw new BadRequestError('address.postalCodeOutdated', {
      problem: translate(locale, checked.message, checked.params),
    });
}

/** The address as an order keeps it. */
export async function addressSnapshot(row: AddressRow): Promise<AddressSnapshot> {
  return {
    country_code: row.countryCode,
    country_name: await countryName(row.countryCode),
    province_id: row.provinceId,
    province_name: row.provinceName,
    city_id: row.cityId,
    city_name: row.cityName,
    detail: row.detail,
    postal_code: row.postalCode,
    contact_name: row.contactName,
    contact_phone: row.contactPhone,
  };
}
