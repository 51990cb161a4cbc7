import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TEST_ENV, authHeaders, cookieValue, registerUser, type RegisteredUser } from '../support/accounts';
import { useTestServer } from '../support/test-server';

const server = useTestServer({ ...ACCOUNT_TEST_ENV, UPLOAD_MAX_BYTES: String(200 * 1024) });
let user: RegisteredUser;
beforeAll(async () => {
  user = await registerUser(server);
});

async function upload(
  file: { bytes: Buffer; type: string; name?: string } | null,
  headers: Record<string, string> = {},
  field = 'image',
) {
  const form = new FormData();
  if (file) form.append(field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name ?? 'picture');
  form.append('note', 'hello');
  const response = await fetch(`${server.url}/v1/upload`, { method: 'POST', body: form, headers });
  return { status: response.status, body: await response.json() };
}

async function jpegWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: '#ff6900' } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'SECRET-OWNER', Artist: 'SECRET-ARTIST' } })
    .toBuffer();
}

describe('POST /v1/upload', () => {
  it('stores a re-encoded webp without metadata and answers code 0 with its URL', async () => {
    const original = await jpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const response = await upload(
      { bytes: original, type: 'image/jpeg', name: 'photo.jpg' },
      authHeaders(user, { lang: 'en' }),
    );
    expect(response.body).toEqual({
      code: 0,
      msg: 'Upload successful',
      data: expect.stringMatching(/^\/uploads\/\d{4}-\d\d\/[\w-]{22}\.webp$/),
    });
    const served = await fetch(server.url + response.body.data);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await served.arrayBuffer());
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 640, height: 480 });
    expect(metadata.exif).toBeUndefined();
    expect(bytes.includes('SECRET-OWNER')).toBe(false);
    // The upload can be a profile picture.
    const saved = await server.request('/v1/user/info', {
      method: 'PUT',
      body: { avatar: response.body.data },
      headers: authHeaders(user),
    });
    expect(saved.body.data.avatar).toBe(response.body.data);
  });

  it('works with the session cookie and the CSRF echo, like the storefront widget', async () => {
    const csrf = cookieValue(user.cookies, 'csrf_token')!;
    const bytes = await sharp({ create: { width: 20, height: 20, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    const cookie = `access_token=${user.token}; csrf_token=${csrf}`;
    expect((await upload({ bytes, type: 'image/png' }, { cookie })).status).toBe(403);
    const response = await upload({ bytes, type: 'image/png' }, { cookie, 'x-csrf-token': csrf });
    expect(response.body.code).toBe(0);
  });

  it('needs a login (301)', async () => {
    const response = await upload({ bytes: await jpegWithExif(), type: 'image/jpeg' });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe(301);
  });

  it('refuses files that are not images, even when they claim to be', async () => {
    const text = await upload({ bytes: Buffer.from('hello'), type: 'text/plain' }, authHeaders(user, { lang: 'en' }));
    expect(text.body).toEqual({ code: 400, msg: 'Only image files can be uploaded', data: null });
    const fake = await upload(
      { bytes: Buffer.from('<?php echo 1; ?>'), type: 'image/png' },
      authHeaders(user, { lang: 'zh-cn' }),
    );
    expect(fake.body).toEqual({ code: 400, msg: '只能上传图片文件', data: null });
  });

  it('refuses images over the size cap', async () => {
    const noisy = await sharp(
      Buffer.from(Array.from({ length: 400 * 400 * 3 }, () => Math.floor(Math.random() * 256))),
      { raw: { width: 400, height: 400, channels: 3 } },
    )
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(200 * 1024);
    const response = await upload({ bytes: noisy, type: 'image/png' }, authHeaders(user, { lang: 'en' }));
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 413, msg: 'The image is too large (at most 200 KB)', data: null });
  });

  it('asks for a file when none is sent', async () => {
    const response = await upload(null, authHeaders(user, { lang: 'en' }));
    expect(response.body).toEqual({ code: 400, msg: 'Please choose an image to upload', data: null });
  });

  it('does not serve paths outside the uploads folder', async () => {
    expect((await fetch(`${server.url}/uploads/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });
});
