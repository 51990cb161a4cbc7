import { z } from 'zod';

/** `/images/<path>` and `/uploads/<path>`: a resized webp (`w`), a lighter copy (`q`), or the original. */
export const imageQuery = z.object({
  w: z.coerce.number().int().min(16).max(4000).optional(),
  q: z.coerce.number().int().min(1).max(100).optional(),
  format: z.enum(['webp', 'original']).optional(),
});

/** One image the console stored: what the product and settings editors keep (docs/api.md, "Console images"). */
export const storedImage = z.object({
  url: z.string().describe('content-hashed public path, e.g. /images/h/<32 hex>.webp; `?w=` gives resized webp'),
  width: z.number().int().describe('pixels'),
  height: z.number().int().describe('pixels'),
  bytes: z.number().int().describe('size of the stored file'),
  content_type: z.enum(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']),
});
export type StoredImage = z.infer<typeof storedImage>;

/** `POST /v1/admin/media/images` and `/site-images`: the stored images, in the order they were sent. */
export const storedImages = z.object({ images: z.array(storedImage) });

/** `/images/h/<hash>.<ext>`: nothing else is a content-hashed image. */
export const hashedImageParams = z.object({
  file: z.string(),
});
