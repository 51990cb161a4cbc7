import type { LocalizedText } from '../../../i18n/locales';

/**
 * Everything a staff member may be allowed to do, as `area:action`. Every admin endpoint
 * names one of these (server/http/admin-api.ts refuses to register one that does not), and
 * the console hides what the signed-in member lacks. docs/console.md has the table.
 */
export const PERMISSIONS = [
  'orders:read',
  'orders:fulfil',
  'orders:cancel',
  'orders:note',
  'orders:export',
  'payments:refund',
  'aftersales:read',
  'aftersales:manage',
  'customers:read',
  'customers:write',
  'customers:export',
  'customers:erase',
  'catalog:write',
  'settings:write',
  'staff:manage',
  'audit:read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export const BUILT_IN_ROLE_KEYS = ['owner', 'manager', 'fulfilment', 'support', 'catalogue'] as const;
export type BuiltInRoleKey = (typeof BUILT_IN_ROLE_KEYS)[number];

export interface BuiltInRole {
  name: LocalizedText;
  permissions: readonly Permission[];
  /** Minor units of the settlement currency; null is no limit. Owners can change it per shop. */
  refundLimitMinor: number | null;
  /** Members of the role must sign in with a second factor. */
  requiresSecondFactor: boolean;
}

/**
 * The roles every shop starts with. The Owner has every permission, cannot be deleted, and
 * the last Owner cannot be removed or demoted (server/domains/staff). Their permission lists
 * are re-applied at start so a new permission reaches existing shops; refund limits stay as
 * the Owner set them.
 */
export const BUILT_IN_ROLES: Record<BuiltInRoleKey, BuiltInRole> = {
  owner: {
    name: { en: 'Owner', 'zh-cn': '店主' },
    permissions: PERMISSIONS,
    refundLimitMinor: null,
    requiresSecondFactor: true,
  },
  manager: {
    name: { en: 'Manager', 'zh-cn': '经理' },
    permissions: [
      'orders:read',
      'orders:fulfil',
      'orders:cancel',
      'orders:note',
      'orders:export',
      'payments:refund',
      'aftersales:read',
      'aftersales:manage',
      'customers:read',
      'customers:write',
      'customers:export',
      'catalog:write',
      'audit:read',
    ],
    refundLimitMinor: 500_000,
    requiresSecondFactor: false,
  },
  fulfilment: {
    name: { en: 'Fulfilment', 'zh-cn': '发货' },
    // Receiving returned parcels and shipping replacements is warehouse work; refunds are not.
    permissions: ['orders:read', 'orders:fulfil', 'orders:note', 'aftersales:read', 'aftersales:manage'],
    refundLimitMinor: 0,
    requiresSecondFactor: false,
  },
  support: {
    name: { en: 'Support', 'zh-cn': '客服' },
    permissions: [
      'orders:read',
      'orders:note',
      'orders:cancel',
      'payments:refund',
      'aftersales:read',
      'aftersales:manage',
      'customers:read',
      'customers:write',
    ],
    refundLimitMinor: 50_000,
    requiresSecondFactor: false,
  },
  catalogue: {
    name: { en: 'Catalogue', 'zh-cn': '商品' },
    permissions: ['catalog:write'],
    refundLimitMinor: 0,
    requiresSecondFactor: false,
  },
};

/**
 * A member's refund limit: the highest limit among their roles that grant `payments:refund`
 * (null when one of them has none); 0 when no role lets them refund.
 */
export function refundLimitOf(
  roles: ReadonlyArray<{ permissions: readonly string[]; refundLimitMinor: number | null }>,
): number | null {
  let limit: number | null = 0;
  for (const role of roles) {
    if (!role.permissions.includes('payments:refund')) continue;
    if (role.refundLimitMinor === null) return null;
    limit = Math.max(limit, role.refundLimitMinor);
  }
  return limit;
}
