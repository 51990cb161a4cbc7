import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, productGroupMembers, productGroups, products } from '../../server/db/schema';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestApp } from '../support/test-server';

/** The groups editor in the admin API: categories, home sections, their order and products (docs/console.md). */
const server = useTestApp();

let catalogue: TestStaff | undefined;
async function editor(): Promise<TestStaff> {
  catalogue ??= await createSignedInStaff(server, { role: 'catalogue' });
  return catalogue;
}

async function auditOf(groupId: number) {
  return server.ctx.db
    .select({ action: auditEvents.action, changes: auditEvents.changes, actorLabel: auditEvents.actorLabel })
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, 'product_group'), eq(auditEvents.entityId, String(groupId))));
}

async function createGroup(body: Record<string, unknown>) {
  const answer = await (await editor()).request('/v1/admin/groups', { method: 'POST', body });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as { id: number; slug: string; sort: number };
}

const names = (en: string, zh: string) => ({ en, 'zh-cn': zh });

describe('who may edit groups', () => {
  it('refuses a Fulfilment or Support member every groups endpoint, and lets the Catalogue role in', async () => {
    const fulfilment = await createSignedInStaff(server, { role: 'fulfilment' });
    const support = await createSignedInStaff(server, { role: 'support' });
    const [group] = await server.ctx.db.select().from(productGroups).limit(1);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/v1/admin/groups'],
      ['POST', '/v1/admin/groups', { kind: 'category', name: names('X', '某') }],
      ['PUT', `/v1/admin/groups/${group!.id}`, { name: names('X', '某'), description: names('', ''), visible: true }],
      ['POST', `/v1/admin/groups/${group!.id}/move`, { parent_id: null, index: 0 }],
      ['DELETE', `/v1/admin/groups/${group!.id}`],
      ['GET', `/v1/admin/groups/${group!.id}/products`],
      ['PUT', `/v1/admin/groups/${group!.id}/products`, { product_ids: [] }],
      ['GET', '/v1/admin/groups/product-picker?q=tea'],
    ];
    for (const member of [fulfilment, support]) {
      for (const [method, path, body] of calls) {
        const answer = await member.request(path, { method, body });
        expect([method, path, answer.status, answer.body.msg]).toEqual([
          method,
          path,
          403,
          'Your role does not allow this. Ask an Owner for access',
        ]);
      }
    }
    const [before] = await server.ctx.db.select().from(productGroups).where(eq(productGroups.id, group!.id));
    expect(before).toEqual(group);
    expect((await (await editor()).request('/v1/admin/groups')).status).toBe(200);
  });
});

describe('the category tree', () => {
  it('creates a category and a subcategory in both languages, last in their level, audited, shown in the shop', async () => {
    const top = await createGroup({ kind: 'category', name: names('Garden Tools', '园艺工具') });
    expect(top.slug).toBe('garden-tools');
    const again = await createGroup({ kind: 'category', name: names('Garden tools', '园艺工具二') });
    expect(again.slug).toBe('garden-tools-2');
    const sub = await createGroup({ kind: 'category', parent_id: top.id, name: names('Shears', '剪刀') });

    const list = await (await editor()).request('/v1/admin/groups');
    const categories = list.body.data.categories as Array<{ id: number; parent_id: number | null; name: unknown }>;
    const topLevel = categories.filter((group) => group.parent_id === null).map((group) => group.id);
    expect(topLevel.slice(-2)).toEqual([top.id, again.id]);
    expect(categories.find((group) => group.id === sub.id)).toMatchObject({
      parent_id: top.id,
      name: { en: 'Shears', 'zh-cn': '剪刀' },
      visible: true,
      product_count: 0,
    });

    expect(await auditOf(sub.id)).toEqual([
      {
        action: 'group.created',
        actorLabel: (await editor()).email,
        changes: {
          kind: { after: 'category' },
          slug: { after: 'shears' },
          name: { after: { en: 'Shears', 'zh-cn': '剪刀' } },
          description: { after: { en: '', 'zh-cn': '' } },
          visible: { after: true },
          parent_id: { after: top.id },
        },
      },
    ]);

    const english = await server.request('/v1/goodGroup/list/2', { headers: { lang: 'en' } });
    const chinese = await server.request('/v1/goodGroup/list/2', { headers: { lang: 'zh-cn' } });
    const garden = (english.body.data as Array<{ id: number; name: string; children: Array<{ name: string }> }>).find(
      (node) => node.id === top.id,
    );
    expect(garden?.name).toBe('Garden Tools');
    expect(garden?.children.map((child) => child.name)).toEqual(['Shears']);
    expect((chinese.body.data as Array<{ id: number; name: string }>).find((node) => node.id === top.id)?.name).toBe(
      '园艺工具',
    );
  });

  it('renames in both languages and hides: the shop menu follows at once', async () => {
    const group = await createGroup({ kind: 'category', name: names('Lamps', '灯具') });
    const before = await server.request('/v1/goodGroup/list/2', { headers: { lang: 'en' } });
    expect(before.body.data.map((node: { id: number }) => node.id)).toContain(group.id);

    const renamed = await (
      await editor()
    ).request(`/v1/admin/groups/${group.id}`, {
      method: 'PUT',
      body: { name: names('Lighting', '照明'), description: names('Lamps and lights', '灯'), visible: true },
    });
    expect(renamed.body.data).toMatchObject({ name: { en: 'Lighting', 'zh-cn': '照明' }, visible: true });
    const menu = await server.request('/v1/goodGroup/list/2', { headers: { lang: 'zh-cn' } });
    expect(menu.body.data.find((node: { id: number }) => node.id === group.id)?.name).toBe('照明');

    await (
      await editor()
    ).request(`/v1/admin/groups/${group.id}`, {
      method: 'PUT',
      body: { name: names('Lighting', '照明'), description: names('Lamps and lights', '灯'), visible: false },
    });
    const hidden = await server.request('/v1/goodGroup/list/2', { headers: { lang: 'en' } });
    expect(hidden.body.data.map((node: { id: number }) => node.id)).not.toContain(group.id);
    expect((await auditOf(group.id)).map((event) => [event.action, event.changes])).toEqual([
      ['group.created', expect.any(Object)],
      [
        'group.updated',
        {
          name: { before: { en: 'Lamps', 'zh-cn': '灯具' }, after: { en: 'Lighting', 'zh-cn': '照明' } },
          description: { before: { en: '', 'zh-cn': '' }, after: { en: 'Lamps and lights', 'zh-cn': '灯' } },
        },
      ],
      ['group.updated', { visible: { before: true, after: false } }],
    ]);
  });

  it('moves a category under another and back to the top, refusing a loop and a fourth level', async () => {
    const a = await createGroup({ kind: 'category', name: names('Kitchen', '厨房') });
    const b = await createGroup({ kind: 'category', parent_id: a.id, name: names('Pots', '锅') });
    const c = await createGroup({ kind: 'category', parent_id: b.id, name: names('Woks', '炒锅') });
    const d = await createGroup({ kind: 'category', name: names('Knives', '刀具') });
    const staff = await editor();

    const loop = await staff.request(`/v1/admin/groups/${a.id}/move`, {
      method: 'POST',
      body: { parent_id: c.id, index: 0 },
    });
    expect([loop.status, loop.body.msg]).toEqual([
      400,
      'A category cannot go under itself or under one of its own subcategories',
    ]);
    const deep = await staff.request(`/v1/admin/groups/${d.id}/move`, {
      method: 'POST',
      body: { parent_id: c.id, index: 0 },
      headers: { lang: 'zh-cn' },
    });
    expect([deep.status, deep.body.msg]).toEqual([400, '分类最多 3 级']);

    const moved = await staff.request(`/v1/admin/groups/${d.id}/move`, {
      method: 'POST',
      body: { parent_id: a.id, index: 0 },
    });
    expect(moved.status).toBe(200);
    const under = (moved.body.data.categories as Array<{ id: number; parent_id: number | null }>)
      .filter((group) => group.parent_id === a.id)
      .map((group) => group.id);
    expect(under).toEqual([d.id, b.id]);

    const back = await staff.request(`/v1/admin/groups/${d.id}/move`, {
      method: 'POST',
      body: { parent_id: null, index: 0 },
    });
    const topLevel = (back.body.data.categories as Array<{ id: number; parent_id: number | null }>)
      .filter((group) => group.parent_id === null)
      .map((group) => group.id);
    expect(topLevel[0]).toBe(d.id);
    expect((await auditOf(d.id)).map((event) => [event.action, event.changes])).toEqual([
      ['group.created', expect.any(Object)],
      ['group.moved', { parent_id: { before: null, after: a.id }, position: { before: expect.any(Number), after: 0 } }],
      // First under Kitchen and first at the top level: only the parent changed.
      ['group.moved', { parent_id: { before: a.id, after: null } }],
    ]);
  });

  it('refuses to delete a category with subcategories, and deletes a leaf keeping its products', async () => {
    const parent = await createGroup({ kind: 'category', name: names('Stationery', '文具') });
    const child = await createGroup({ kind: 'category', parent_id: parent.id, name: names('Pens', '笔') });
    const [product] = await server.ctx.db.select({ id: products.id }).from(products).limit(1);
    const staff = await editor();
    expect(
      (
        await staff.request(`/v1/admin/groups/${child.id}/products`, {
          method: 'PUT',
          body: { product_ids: [product!.id] },
        })
      ).status,
    ).toBe(200);

    const refused = await staff.request(`/v1/admin/groups/${parent.id}`, { method: 'DELETE' });
    expect([refused.status, refused.body.msg]).toEqual([
      409,
      'This category still has subcategories (1): move or delete them first, then delete it',
    ]);
    const refusedZh = await staff.request(`/v1/admin/groups/${parent.id}`, {
      method: 'DELETE',
      headers: { lang: 'zh-cn' },
    });
    expect(refusedZh.body.msg).toBe('该分类下还有子分类（1 个）：请先移走或删除它们，再删除此分类');
    expect(await server.ctx.db.select().from(productGroups).where(eq(productGroups.id, parent.id))).toHaveLength(1);

    const deleted = await staff.request(`/v1/admin/groups/${child.id}`, { method: 'DELETE' });
    expect(deleted.body.data).toEqual({ products_unassigned: 1 });
    expect(await server.ctx.db.select().from(productGroups).where(eq(productGroups.id, child.id))).toEqual([]);
    expect(await server.ctx.db.select({ id: products.id }).from(products).where(eq(products.id, product!.id))).toEqual([
      { id: product!.id },
    ]);
    expect((await auditOf(child.id)).map((event) => event.action)).toEqual([
      'group.created',
      'group.products_set',
      'group.deleted',
    ]);
    expect((await staff.request(`/v1/admin/groups/${parent.id}`, { method: 'DELETE' })).body.data).toEqual({
      products_unassigned: 0,
    });
  });

  it('answers bad input with a localized message naming the field, and an unknown group with 404', async () => {
    const staff = await editor();
    const empty = await staff.request('/v1/admin/groups', {
      method: 'POST',
      body: { kind: 'category', name: names('', '空') },
    });
    // The field's label ('en' or a name for it) comes from the shared field names.
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toMatch(/ cannot be empty$/);
    const kind = await staff.request('/v1/admin/groups', {
      method: 'POST',
      body: { kind: 'folder', name: names('A', '甲') },
      headers: { lang: 'zh-cn' },
    });
    expect([kind.status, kind.body.msg]).toEqual([400, '类型必须是 category, collection 之一']);
    const section = await staff.request('/v1/admin/groups', {
      method: 'POST',
      body: { kind: 'collection', parent_id: 1, name: names('A', '甲') },
    });
    expect([section.status, section.body.msg]).toEqual([400, 'A home section cannot sit under another group']);
    const missing = await staff.request('/v1/admin/groups/999999', {
      method: 'PUT',
      body: { name: names('A', '甲'), description: names('', ''), visible: true },
    });
    expect([missing.status, missing.body.msg]).toEqual([404, 'There is no such group']);
  });
});

describe('home sections and products', () => {
  it('reorders the home sections: the storefront API follows in both languages', async () => {
    const staff = await editor();
    const sectionsBefore = await server.request('/v1/goodGroup/list/1', { headers: { lang: 'en' } });
    const before = (sectionsBefore.body.data as Array<{ id: number }>).map((section) => section.id);
    expect(before.length).toBeGreaterThanOrEqual(3);
    const last = before.at(-1)!;

    const moved = await staff.request(`/v1/admin/groups/${last}/move`, {
      method: 'POST',
      body: { parent_id: null, index: 0 },
    });
    expect(moved.body.data.collections.map((section: { id: number }) => section.id)).toEqual([
      last,
      ...before.slice(0, -1),
    ]);

    for (const lang of ['en', 'zh-cn']) {
      const after = await server.request('/v1/goodGroup/list/1', { headers: { lang } });
      expect((after.body.data as Array<{ id: number }>).map((section) => section.id)).toEqual([
        last,
        ...before.slice(0, -1),
      ]);
    }
  });

  it('retires the home and the section it changed, not the pages of products it did not touch', async () => {
    const [product] = await server.ctx.db.select({ id: products.id }).from(products).orderBy(products.id).limit(1);
    const productPath = `/v1/good/${product!.id}`;
    for (const path of [productPath, '/v1/goodGroup/list/1']) {
      await server.request(path, { headers: { lang: 'en' } });
      expect((await server.request(path, { headers: { lang: 'en' } })).headers.get('x-cache')).toBe('hit');
    }
    const sections = (await (await editor()).request('/v1/admin/groups')).body.data.collections as Array<{
      id: number;
    }>;
    await (
      await editor()
    ).request(`/v1/admin/groups/${sections[1]!.id}/move`, {
      method: 'POST',
      body: { parent_id: null, index: 0 },
    });
    expect((await server.request(productPath, { headers: { lang: 'en' } })).headers.get('x-cache')).toBe('hit');
    const home = await server.request('/v1/goodGroup/list/1', { headers: { lang: 'en' } });
    expect(home.headers.get('x-cache')).toBe('miss');
    expect(home.body.data[0].id).toBe(sections[1]!.id);
  });

  it('sets the products of a section in order, and a category takes its products out of their old category', async () => {
    const staff = await editor();
    const section = await createGroup({ kind: 'collection', name: names('Gifts', '礼物') });
    // The newest products: no other test of this file moved them between categories.
    const ids = (
      await server.ctx.db.select({ id: products.id }).from(products).orderBy(desc(products.id)).limit(3)
    ).map((row) => row.id);
    const set = await staff.request(`/v1/admin/groups/${section.id}/products`, {
      method: 'PUT',
      body: { product_ids: [ids[2], ids[0], ids[1]] },
    });
    expect(set.body.data.products.map((product: { id: number }) => product.id)).toEqual([ids[2], ids[0], ids[1]]);
    const home = await server.request('/v1/goodGroup/list/1', { headers: { lang: 'en' } });
    const gifts = (home.body.data as Array<{ id: number; products: Array<{ id: number }> }>).find(
      (candidate) => candidate.id === section.id,
    );
    expect(gifts?.products.map((product) => product.id)).toEqual([ids[2], ids[0], ids[1]]);

    // ids[0] sits in a seeded category; a new category takes it from there.
    const [oldCategory] = await server.ctx.db
      .select({ groupId: productGroupMembers.groupId })
      .from(productGroupMembers)
      .innerJoin(productGroups, eq(productGroups.id, productGroupMembers.groupId))
      .where(and(eq(productGroupMembers.productId, ids[0]!), eq(productGroups.kind, 'category')));
    expect(oldCategory).toBeDefined();
    const category = await createGroup({ kind: 'category', name: names('Favourites', '最爱') });
    await staff.request(`/v1/admin/groups/${category.id}/products`, { method: 'PUT', body: { product_ids: [ids[0]] } });
    const memberships = await server.ctx.db
      .select({ groupId: productGroupMembers.groupId })
      .from(productGroupMembers)
      .where(eq(productGroupMembers.productId, ids[0]!));
    expect(memberships.map((row) => row.groupId)).toEqual(expect.arrayContaining([category.id, section.id]));
    expect(memberships.map((row) => row.groupId)).not.toContain(oldCategory!.groupId);
    expect((await auditOf(category.id)).at(-1)).toMatchObject({
      action: 'group.products_set',
      changes: { product_ids: { before: [], after: [ids[0]] }, taken_from_groups: { after: [oldCategory!.groupId] } },
    });

    const unknown = await staff.request(`/v1/admin/groups/${section.id}/products`, {
      method: 'PUT',
      body: { product_ids: [ids[0], 999999] },
    });
    expect([unknown.status, unknown.body.msg]).toEqual([400, 'One of the products no longer exists: reload the page']);
    const twice = await staff.request(`/v1/admin/groups/${section.id}/products`, {
      method: 'PUT',
      body: { product_ids: [ids[0], ids[0]] },
    });
    expect([twice.status, twice.body.msg]).toEqual([400, 'A product is listed twice']);
    const kept = await staff.request(`/v1/admin/groups/${section.id}/products`);
    expect(kept.body.data.products.map((product: { id: number }) => product.id)).toEqual([ids[2], ids[0], ids[1]]);
  });

  it('finds products to add by name in either language', async () => {
    const [product] = await server.ctx.db.select().from(products).orderBy(products.id).limit(1);
    const word = product!.name['zh-cn'].slice(0, 2);
    const found = await (await editor()).request(`/v1/admin/groups/product-picker?q=${encodeURIComponent(word)}`);
    expect(found.body.data.map((row: { id: number }) => row.id)).toContain(product!.id);
  });
});
