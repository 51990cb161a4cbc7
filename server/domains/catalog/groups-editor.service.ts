import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { productGroupMembers, productGroups, productImages, products } from '../../db/schema';
import type { ActingContext, AppContext, TransactionContext } from '../../context';
import { onlyRow } from '../../db/rows';
import { recordAudit } from '../audit/audit.service';
import { bumpContentVersion } from '../../shared/content-version';
import { retireCatalogPages } from './catalog-pages';
import { AppError, BadRequestError, NotFoundError } from '../../shared/errors';
import type { GroupRow } from './groups.service';
import {
  MAX_CATEGORY_DEPTH,
  type CreateGroupBody,
  type EditableGroup,
  type GroupList,
  type GroupProduct,
  type GroupProducts,
  type MoveGroupBody,
  type UpdateGroupBody,
} from './groups-editor.schemas';

/**
 * The console's groups editor (catalog:write; docs/console.md): categories in a tree and home
 * sections in an order. Every change runs in one transaction with its audit event, under a
 * lock on the groups of its kind (tens of rows), so two editors reordering at once take turns.
 * Deleting a group never deletes products: they only leave it.
 */

const groupNotFound = () => new NotFoundError('adminGroups.error.notFound');

class GroupConflictError extends AppError {
  constructor(key: 'adminGroups.error.hasChildren', params: { count: number }) {
    super('conflict', key, params);
  }
}

/** Gaps between sort values, so a hand edit in SQL can still slot a group in between. */
const SORT_STEP = 10;

/**
 * Retires the cached pages a group change affects: the group's listing (and the categories
 * above it), the home when it is a home section, the pages of products whose category
 * changed; the navigation, which every page shows, only when the tree changed.
 */
async function retireGroupPages(
  ctx: AppContext,
  change: { groupIds: readonly number[]; productIds?: readonly number[]; navigation: boolean },
): Promise<void> {
  if (change.navigation) await bumpContentVersion(ctx);
  else await retireCatalogPages(ctx, { groupIds: change.groupIds, productIds: change.productIds });
}

async function productCounts(ctx: AppContext): Promise<Map<number, number>> {
  const rows = await ctx.db
    .select({ groupId: productGroupMembers.groupId, products: count() })
    .from(productGroupMembers)
    .groupBy(productGroupMembers.groupId);
  return new Map(rows.map((row) => [row.groupId, row.products]));
}

function viewOf(row: GroupRow, productCount: number): EditableGroup {
  return {
    id: row.id,
    slug: row.slug,
    kind: row.kind,
    parent_id: row.parentId,
    name: row.name,
    description: row.description,
    visible: row.visible,
    sort: row.sort,
    product_count: productCount,
  };
}

function auditFields(row: GroupRow) {
  return { name: row.name, description: row.description, visible: row.visible, parent_id: row.parentId };
}

export async function listEditableGroups(ctx: AppContext): Promise<GroupList> {
  const rows = await ctx.db.select().from(productGroups).orderBy(asc(productGroups.sort), asc(productGroups.id));
  const counts = await productCounts(ctx);
  const views = rows.map((row) => viewOf(row, counts.get(row.id) ?? 0));
  return {
    categories: views.filter((group) => group.kind === 'category'),
    collections: views.filter((group) => group.kind === 'collection'),
  };
}

/** Every group of a kind, locked for this transaction, in their order. */
async function lockKind(ctx: TransactionContext, kind: GroupRow['kind']): Promise<GroupRow[]> {
  return ctx.db
    .select()
    .from(productGroups)
    .where(eq(productGroups.kind, kind))
    .orderBy(asc(productGroups.sort), asc(productGroups.id))
    .for('update');
}

async function lockGroup(ctx: TransactionContext, id: number): Promise<{ group: GroupRow; kin: GroupRow[] }> {
  const [found] = await ctx.db.select({ kind: productGroups.kind }).from(productGroups).where(eq(productGroups.id, id));
  if (!found) throw groupNotFound();
  const kin = await lockKind(ctx, found.kind);
  const group = kin.find((row) => row.id === id);
  if (!group) throw groupNotFound();
  return { group, kin };
}

function depthOf(groups: readonly GroupRow[], id: number | null): number {
  let depth = 0;
  for (let current = id; current !== null && depth <= groups.length; depth++)
    current = groups.find((group) => group.id === current)?.parentId ?? null;
  return depth;
}

/** Levels below a group, itself counted: a leaf is 1. */
function heightOf(groups: readonly GroupRow[], id: number): number {
  const children = groups.filter((group) => group.parentId === id);
  return 1 + Math.max(0, ...children.map((child) => heightOf(groups, child.id)));
}

function isInside(groups: readonly GroupRow[], id: number | null, ancestorId: number): boolean {
  for (let current = id, steps = 0; current !== null && steps <= groups.length; steps++) {
    if (current === ancestorId) return true;
    current = groups.find((group) => group.id === current)?.parentId ?? null;
  }
  return false;
}

/** Checks that `parentId` may hold a subtree `height` levels tall of the given kind. */
function checkParent(groups: readonly GroupRow[], kind: GroupRow['kind'], parentId: number | null, height: number) {
  if (parentId === null) return;
  if (kind === 'collection') throw new BadRequestError('adminGroups.error.sectionParent');
  if (!groups.some((group) => group.id === parentId)) throw new BadRequestError('adminGroups.error.unknownParent');
  if (depthOf(groups, parentId) + height > MAX_CATEGORY_DEPTH)
    throw new BadRequestError('adminGroups.error.tooDeep', { levels: MAX_CATEGORY_DEPTH });
}

/** Writes the sort of every sibling in the given order. */
async function writeOrder(ctx: TransactionContext, ids: readonly number[]): Promise<void> {
  for (const [position, id] of ids.entries())
    await ctx.db
      .update(productGroups)
      .set({ sort: (position + 1) * SORT_STEP })
      .where(eq(productGroups.id, id));
}

/** A readable, unique address word from the English name: `New arrivals` -> `new-arrivals`, then `-2`, `-3`... */
async function freeSlug(ctx: TransactionContext, name: string, kind: GroupRow['kind']): Promise<string> {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || kind;
  const taken = new Set(
    (
      await ctx.db
        .select({ slug: productGroups.slug })
        .from(productGroups)
        .where(sql`${productGroups.slug} like ${`${base}%`}`)
    ).map((row) => row.slug),
  );
  let slug = base;
  for (let suffix = 2; taken.has(slug); suffix++) slug = `${base}-${suffix}`;
  return slug;
}

async function viewWithCount(ctx: AppContext, row: GroupRow): Promise<EditableGroup> {
  const [members] = await ctx.db
    .select({ products: count() })
    .from(productGroupMembers)
    .where(eq(productGroupMembers.groupId, row.id));
  return viewOf(row, members?.products ?? 0);
}

export async function createGroup(ctx: ActingContext, input: CreateGroupBody): Promise<EditableGroup> {
  const created = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const kin = await lockKind(t, input.kind);
    checkParent(kin, input.kind, input.parent_id, 1);
    const siblings = kin.filter((group) => group.parentId === input.parent_id);
    const row = onlyRow(
      await tx
        .insert(productGroups)
        .values({
          kind: input.kind,
          parentId: input.parent_id,
          slug: await freeSlug(t, input.name.en, input.kind),
          name: input.name,
          description: input.description,
          visible: input.visible,
          sort: Math.max(0, ...siblings.map((sibling) => sibling.sort)) + SORT_STEP,
        })
        .returning(),
    );
    await recordAudit(t, {
      action: 'group.created',
      entityType: 'product_group',
      entityId: row.id,
      after: { kind: row.kind, slug: row.slug, ...auditFields(row) },
    });
    return row;
  });
  await retireGroupPages(ctx, {
    groupIds: [created.id],
    navigation: created.kind === 'category' && created.visible,
  });
  return viewOf(created, 0);
}

export async function updateGroup(ctx: ActingContext, id: number, input: UpdateGroupBody): Promise<EditableGroup> {
  const { before, after } = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const { group } = await lockGroup(t, id);
    const updated = onlyRow(
      await tx
        .update(productGroups)
        .set({ name: input.name, description: input.description, visible: input.visible, updatedAt: new Date() })
        .where(eq(productGroups.id, id))
        .returning(),
    );
    await recordAudit(t, {
      action: 'group.updated',
      entityType: 'product_group',
      entityId: id,
      before: auditFields(group),
      after: auditFields(updated),
    });
    return { before: group, after: updated };
  });
  const renamedOrShown = before.visible !== after.visible || JSON.stringify(before.name) !== JSON.stringify(after.name);
  await retireGroupPages(ctx, { groupIds: [id], navigation: after.kind === 'category' && renamedOrShown });
  return viewWithCount(ctx, after);
}

/** Puts a group under a new parent (categories) and at a new place among its siblings. */
export async function moveGroup(ctx: ActingContext, id: number, input: MoveGroupBody): Promise<GroupList> {
  const moved = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const { group, kin } = await lockGroup(t, id);
    if (input.parent_id !== null && isInside(kin, input.parent_id, id))
      throw new BadRequestError('adminGroups.error.intoItself');
    checkParent(kin, group.kind, input.parent_id, heightOf(kin, id));
    const siblings = kin.filter((row) => row.parentId === input.parent_id && row.id !== id).map((row) => row.id);
    const order = [...siblings.slice(0, input.index), id, ...siblings.slice(input.index)];
    if (group.parentId !== input.parent_id)
      await tx
        .update(productGroups)
        .set({ parentId: input.parent_id, updatedAt: new Date() })
        .where(eq(productGroups.id, id));
    await writeOrder(t, order);
    const beforeOrder = kin.filter((row) => row.parentId === group.parentId).map((row) => row.id);
    await recordAudit(t, {
      action: 'group.moved',
      entityType: 'product_group',
      entityId: id,
      before: { parent_id: group.parentId, position: beforeOrder.indexOf(id) },
      after: { parent_id: input.parent_id, position: order.indexOf(id) },
    });
    return group;
  });
  await retireGroupPages(ctx, { groupIds: [id], navigation: moved.kind === 'category' });
  return listEditableGroups(ctx);
}

/**
 * Deletes a group that has no groups under it. Its products stay in the catalogue (and in
 * their other groups); a product whose only category it was has no category until given one.
 */
export async function deleteGroup(ctx: ActingContext, id: number): Promise<{ products_unassigned: number }> {
  const { group, members } = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const { group, kin } = await lockGroup(t, id);
    const children = kin.filter((row) => row.parentId === id).length;
    if (children > 0) throw new GroupConflictError('adminGroups.error.hasChildren', { count: children });
    const memberRows = await tx
      .select({ productId: productGroupMembers.productId })
      .from(productGroupMembers)
      .where(eq(productGroupMembers.groupId, id));
    await tx.delete(productGroups).where(eq(productGroups.id, id));
    await recordAudit(t, {
      action: 'group.deleted',
      entityType: 'product_group',
      entityId: id,
      before: {
        kind: group.kind,
        slug: group.slug,
        ...auditFields(group),
        product_ids: memberRows.map((row) => row.productId),
      },
    });
    return { group, members: memberRows.length };
  });
  // A deleted home section is no longer there to say it was one: the home is named.
  if (group.kind === 'collection') await retireCatalogPages(ctx, { groupIds: [id], home: true });
  else await retireGroupPages(ctx, { groupIds: [id], navigation: true });
  return { products_unassigned: members };
}

/** A product's first image, as a column of the product rows read with it. */
const coverImage = sql<
  string | null
>`(select ${productImages.url} from ${productImages} where ${productImages.productId} = ${products.id} order by ${productImages.sort}, ${productImages.id} limit 1)`;

async function productsOf(ctx: AppContext, groupId: number): Promise<GroupProduct[]> {
  const rows = await ctx.db
    .select({
      id: products.id,
      name: products.name,
      listed: products.listed,
      image: coverImage,
    })
    .from(productGroupMembers)
    .innerJoin(products, eq(products.id, productGroupMembers.productId))
    .where(eq(productGroupMembers.groupId, groupId))
    .orderBy(asc(productGroupMembers.sort), asc(products.id));
  return rows;
}

export async function groupProductsOf(ctx: AppContext, id: number): Promise<GroupProducts> {
  const [row] = await ctx.db.select().from(productGroups).where(eq(productGroups.id, id));
  if (!row) throw groupNotFound();
  const productList = await productsOf(ctx, id);
  return { group: viewOf(row, productList.length), products: productList };
}

/**
 * Replaces the group's products with `productIds`, in that order. A product sits in one
 * category: putting it in this category takes it out of the one it was in.
 */
export async function setGroupProducts(ctx: ActingContext, id: number, productIds: readonly number[]) {
  const { group, movedFrom, changedProducts } = await ctx.db.transaction(async (tx) => {
    const t = { ...ctx, db: tx };
    const { group } = await lockGroup(t, id);
    const known = productIds.length
      ? await tx
          .select({ id: products.id })
          .from(products)
          .where(inArray(products.id, [...productIds]))
      : [];
    if (known.length !== productIds.length) throw new BadRequestError('adminGroups.error.unknownProduct');
    const before = await tx
      .select({ productId: productGroupMembers.productId })
      .from(productGroupMembers)
      .where(eq(productGroupMembers.groupId, id))
      .orderBy(asc(productGroupMembers.sort), asc(productGroupMembers.productId));
    let movedFrom: number[] = [];
    if (group.kind === 'category' && productIds.length) {
      const elsewhere = await tx
        .delete(productGroupMembers)
        .where(
          and(
            inArray(productGroupMembers.productId, [...productIds]),
            ne(productGroupMembers.groupId, id),
            inArray(
              productGroupMembers.groupId,
              tx.select({ id: productGroups.id }).from(productGroups).where(eq(productGroups.kind, 'category')),
            ),
          ),
        )
        .returning({ groupId: productGroupMembers.groupId });
      movedFrom = [...new Set(elsewhere.map((row) => row.groupId))];
    }
    await tx.delete(productGroupMembers).where(eq(productGroupMembers.groupId, id));
    if (productIds.length)
      await tx
        .insert(productGroupMembers)
        .values(productIds.map((productId, index) => ({ groupId: id, productId, sort: (index + 1) * SORT_STEP })));
    await recordAudit(t, {
      action: 'group.products_set',
      entityType: 'product_group',
      entityId: id,
      before: { product_ids: before.map((row) => row.productId) },
      after: { product_ids: [...productIds], ...(movedFrom.length ? { taken_from_groups: movedFrom } : {}) },
    });
    const was = new Set(before.map((row) => row.productId));
    const changedProducts = [
      ...productIds.filter((productId) => !was.has(productId)),
      ...[...was].filter((productId) => !productIds.includes(productId)),
    ];
    return { group, movedFrom, changedProducts };
  });
  await retireGroupPages(ctx, {
    groupIds: [id, ...movedFrom],
    // A product page names its category: those that joined or left this one show it.
    productIds: group.kind === 'category' ? changedProducts : [],
    navigation: false,
  });
  return groupProductsOf(ctx, id);
}

/** Products to pick from when filling a group: by name in either language, newest first. */
export async function pickableProducts(ctx: AppContext, q: string): Promise<GroupProduct[]> {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return ctx.db
    .select({
      id: products.id,
      name: products.name,
      listed: products.listed,
      image: coverImage,
    })
    .from(products)
    .where(q ? sql`${products.searchText} like ${pattern}` : undefined)
    .orderBy(sql`${products.createdAt} desc`, asc(products.id))
    .limit(20);
}
