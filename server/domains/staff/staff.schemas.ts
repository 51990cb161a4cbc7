import { z } from 'zod';
import { LOCALES } from '../../../i18n/locales';
import { PERMISSIONS } from './permissions';

/** The signed-in member as the console sees them: what to show and what to offer. */
export const staffSelf = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  locale: z.enum(LOCALES),
  permissions: z.array(z.enum(PERMISSIONS)),
  role_ids: z.array(z.number().int()),
  /** Settlement-currency minor units; null is no limit. */
  refund_limit_minor: z.number().int().nullable(),
  second_factor: z.object({ enabled: z.boolean(), required: z.boolean() }),
});
export type StaffSelf = z.infer<typeof staffSelf>;

export const staffSessionState = z.object({
  staff: staffSelf.nullable(),
  /** No staff account exists yet: the console offers the first-start setup (link from the server log). */
  setup_required: z.boolean(),
});
