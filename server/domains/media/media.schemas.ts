import { z } from 'zod';

/** `/images/<path>` and `/uploads/<path>`: a resized webp (`w`), a lighter copy (`q`), or the original. */
export const imageQuery = z.object({
  w: z.coerce.number().int().min(16).max(4000).optional(),
  q: z.coerce.number().int().min(1).max(100).optional(),
  format: z.enum(['webp', 'original']).optional(),
});
