import { z } from 'zod';

/** One cascader option (SPEC section 3): `id`, a `leaf` flag and `children`. */
export const areaNode = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string().describe("`name_en` or `name_zh`, following the request's language"),
  name_en: z.string(),
  name_zh: z.string(),
  leaf: z.boolean(),
  /** Present on every node that is not a leaf; absent on leaves. */
  get children() {
    return z.array(areaNode).optional();
  },
});
export type AreaNode = z.infer<typeof areaNode>;

/** `GET /v1/area/all`. */
export const areaQuery = z.object({
  /** A country ('US') or province/state ('US-CA') id: answers only its children. */
  parent_id: z
    .string()
    .regex(/^[A-Za-z]{2}(-[A-Za-z0-9]{1,10})?$/)
    .optional(),
});

/** The address form's cascade, trimmed from the tree to ids and names (app/components/address/areas.server.ts). */
export type AreaOption = Pick<AreaNode, 'id' | 'name'>;
/** A province/state; `cities` is the full list when the tree has it (mainland China), else fetched on demand. */
type AreaState = AreaOption & { cities?: AreaOption[] };
export type AreaCountry = AreaOption & { states: AreaState[] };
