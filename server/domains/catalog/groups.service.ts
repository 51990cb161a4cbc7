import { and, asc, eq } from 'drizzle-orm';
import { pickText, type Locale } from '../../../i18n/locales';
import { productGroups } from '../../db/schema';
import type { AppContext } from '../../context';
import type { GroupDetail, GroupNode } from './catalog.schemas';

export type GroupRow = typeof productGroups.$inferSelect;

/** All visible groups; there are tens of them, so callers shape trees in memory. */
export async function visibleGroups(ctx: AppContext): Promise<GroupRow[]> {
  return ctx.db
    .select()
    .from(productGroups)
    .where(eq(productGroups.visible, true))
    .orderBy(asc(productGroups.sort), asc(productGroups.id));
}

function toNode(row: GroupRow, locale: Locale, children: GroupNode[]): GroupNode {
  return {
    id: row.id,
    slug: row.slug,
    name: pickText(row.name, locale),
    description: pickText(row.description, locale),
    image: row.image,
    parent_id: row.parentId,
    leaf: children.length === 0,
    children,
  };
}

/** `GET /v1/goodGroup/list/2`: the category tree that drives navigation. */
export async function categoryTree(ctx: AppContext, locale: Locale): Promise<GroupNode[]> {
  const categories = (await visibleGroups(ctx)).filter((group) => group.kind === 'category');
  const build = (parentId: number | null): GroupNode[] =>
    categories.filter((group) => group.parentId === parentId).map((group) => toNode(group, locale, build(group.id)));
  return build(null);
}

/** Ids of a group and every category below it, so a parent category lists its children's products. */
export function groupAndDescendantIds(groups: GroupRow[], rootId: number): number[] {
  const ids = [rootId];
  for (let index = 0; index < ids.length; index++) {
    for (const group of groups) if (group.parentId === ids[index] && !ids.includes(group.id)) ids.push(group.id);
  }
  return ids;
}

export async function getGroup(ctx: AppContext, id: number, locale: Locale): Promise<GroupDetail | null> {
  const groups = await visibleGroups(ctx);
  const group = groups.find((candidate) => candidate.id === id);
  if (!group) return null;
  const trail: GroupRow[] = [];
  for (let current: GroupRow | undefined = group; current; current = groups.find((g) => g.id === current!.parentId)) {
    trail.unshift(current);
    if (trail.length > 10) break;
  }
  const children = groups.filter((candidate) => candidate.parentId === group.id && candidate.kind === group.kind);
  return {
    ...toNode(
      group,
      locale,
      children.map((child) => toNode(child, locale, [])),
    ),
    kind: group.kind,
    updated_at: group.updatedAt.toISOString(),
    breadcrumb: trail.map((item) => ({ id: item.id, name: pickText(item.name, locale) })),
  };
}

export async function collectionGroups(ctx: AppContext): Promise<GroupRow[]> {
  return ctx.db
    .select()
    .from(productGroups)
    .where(and(eq(productGroups.visible, true), eq(productGroups.kind, 'collection')))
    .orderBy(asc(productGroups.sort), asc(productGroups.id));
}
