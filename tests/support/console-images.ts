import sharp from 'sharp';
import type { TestStaff } from './staff';
import type { TestServer } from './test-server';

export interface Upload {
  name: string;
  bytes: Buffer;
  type?: string;
}

/** A multipart upload through the real server, as the console's editors send it. */
export async function uploadImages(
  shop: TestServer,
  staff: TestStaff,
  files: Upload[],
  options: { path?: string; lang?: string } = {},
) {
  const form = new FormData();
  for (const file of files)
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/png' }), file.name);
  const response = await fetch(`${shop.url}/v1/admin/media/${options.path ?? 'images'}`, {
    method: 'POST',
    body: form,
    headers: {
      ...staff.headers,
      lang: options.lang ?? 'en',
      cookie: Object.entries(staff.cookies)
        .map(([name, value]) => `${name}=${value}`)
        .join('; '),
    },
  });
  return { status: response.status, body: await response.json() };
}

/** A picture no other test draws: its bytes and so its hash are this test's own. */
export function uniqueColour(): string {
  return `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;
}

/** A PNG of one colour (by default one no other test draws). */
export const png = (width: number, height: number, colour = uniqueColour()) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
