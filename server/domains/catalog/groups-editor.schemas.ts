import { z } from 'zod';
import { rowId, rowIdFromText } from '../../shared/ids.schemas';
import { singleLineText, multiLineText } from '../../shared/text';

/**
 * The console's groups editor (docs/console.md, "Groups and collections"): the category tree
 * (SPEC's groups list 2) and the home sections (list 1). Names and descriptions are kept in
 * both languages; routes, the service and the console's forms all read these shapes.
 */

export const GROUP_KINDS = ['category', 'collection'] as const;

/** How deep the category tree may go: the storefront's menus show three levels. */
export const MAX_CATEGORY_DEPTH = 3;

/** Most products one group may hold through the editor (a home section shows its first few). */
export const MAX_GROUP_PRODUCTS = 500;

const groupName = z.object({ en: singleLineText(80).min(1), 'zh-cn': singleLineText(80).min(1) });
const groupDescription = z.object({ en: multiLineText(2000), 'zh-cn': multiLineText(2000) });

export const groupIdParams = z.object({ id: rowIdFromText });

/** A new group: a category under `parent_id` (null: the top level) or a home section. */
export const createGroupBody = z.object({
  kind: z.enum(GROUP_KINDS),
  parent_id: rowId.nullable().default(null),
  name: groupName,
  description: groupDescription.default({ en: '', 'zh-cn': '' }),
  visible: z.boolean().default(true),
});
export type CreateGroupBody = z.output<typeof createGroupBody>;

/** Rename, describe, hide or show. */
export const updateGroupBody = z.object({
  name: groupName,
  description: groupDescription,
  visible: z.boolean(),
});
export type UpdateGroupBody = z.output<typeof updateGroupBody>;

/**
 * Where a group goes: under `parent_id` (null: the top level; always null for a home
 * section) at position `index` among its new siblings (0 is first; past the end is last).
 * Dragging, the keyboard's move up / move down and "move under" all send this.
 */
export const moveGroupBody = z.object({
  parent_id: rowId.nullable(),
  index: z.number().int().min(0).max(10_000),
});
export type MoveGroupBody = z.output<typeof moveGroupBody>;

/** The group's products in their order, replacing what it held. */
export const groupProductsBody = z.object({
  product_ids: z
    .array(rowId)
    .max(MAX_GROUP_PRODUCTS)
    .refine((ids) => new Set(ids).size === ids.length, 'adminGroups.error.duplicateProduct'),
});

export const productPickerQuery = z.object({ q: singleLineText(100).default('') });

const localizedText = z.object({ en: z.string(), 'zh-cn': z.string() });

export const editableGroup = z.object({
  id: z.number().int(),
  slug: z.string(),
  kind: z.enum(GROUP_KINDS),
  parent_id: z.number().int().nullable(),
  name: localizedText,
  description: localizedText,
  visible: z.boolean(),
  sort: z.number().int(),
  product_count: z.number().int(),
});
export type EditableGroup = z.infer<typeof editableGroup>;

/** Every group, each level in its order: the console builds the tree from `parent_id`. */
export const groupList = z.object({
  categories: z.array(editableGroup),
  collections: z.array(editableGroup),
});
export type GroupList = z.infer<typeof groupList>;

export const groupProduct = z.object({
  id: z.number().int(),
  name: localizedText,
  listed: z.boolean(),
  image: z.string().nullable(),
});
export type GroupProduct = z.infer<typeof groupProduct>;

export const groupProducts = z.object({ group: editableGroup, products: z.array(groupProduct) });
export type GroupProducts = z.infer<typeof groupProducts>;

/** What deleting a group did: its products stay in the catalogue, only their place in it goes. */
export const deletedGroup = z.object({ products_unassigned: z.number().int() });
