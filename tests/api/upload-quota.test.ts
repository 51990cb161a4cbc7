import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeBuyer, type Buyer } from '../support/buyers';
import { useTestServer, type TestServer } from '../support/test-server';

async function upload(server: TestServer, buyer: Buyer, file: { bytes: Buffer; type: string }, lang = 'en') {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(file.bytes)], { type: file.type }), 'picture');
  const response = await fetch(`${server.url}/v1/upload`, {
    method: 'POST',
    body: form,
    headers: { ...buyer.headers, lang },
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

/** A few dozen bytes once stored as webp. */
const tinyPng = () =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();

/** Random pixels: about 30 KB once stored as webp, over the 20 KB allowance below. */
const noisyPng = () =>
  sharp(Buffer.from(Array.from({ length: 200 * 200 * 3 }, () => Math.floor(Math.random() * 256))), {
    raw: { width: 200, height: 200, channels: 3 },
  })
    .png()
    .toBuffer();

describe('daily upload allowance per buyer', () => {
  const server = useTestServer({ RATE_LIMITS: 'upload.quota.images=3/86400,upload.quota.bytes=20480/86400' });

  it('refuses the image after the allowance with 429, Retry-After and when uploads open again, in both languages', async () => {
    const buyer = await makeBuyer(server);
    const png = { bytes: await tinyPng(), type: 'image/png' };
    for (let n = 0; n < 3; n++) expect((await upload(server, buyer, png)).body.code).toBe(0);

    const refused = await upload(server, buyer, png);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(86_300);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(86_400);
    expect(refused.body).toEqual({
      code: 429,
      msg: 'You have reached your upload limit (3 images or 20 KB every 24 hours). You can upload again in 24 h 0 min',
      data: null,
    });
    const chinese = await upload(server, buyer, png, 'zh-cn');
    expect(chinese.status).toBe(429);
    expect(chinese.body.msg).toBe('已达到上传上限（每 24 小时 3 张或 20 KB），请在 24 小时 0 分钟后再上传');
  });

  it('counts each buyer alone', async () => {
    const first = await makeBuyer(server);
    const second = await makeBuyer(server);
    const png = { bytes: await tinyPng(), type: 'image/png' };
    for (let n = 0; n < 3; n++) await upload(server, first, png);
    expect((await upload(server, first, png)).status).toBe(429);
    expect((await upload(server, second, png)).body.code).toBe(0);
  });

  it('counts only images it stored, not refused files', async () => {
    const buyer = await makeBuyer(server);
    for (let n = 0; n < 3; n++)
      expect((await upload(server, buyer, { bytes: Buffer.from('not a picture'), type: 'image/png' })).status).toBe(
        400,
      );
    const png = { bytes: await tinyPng(), type: 'image/png' };
    for (let n = 0; n < 3; n++) expect((await upload(server, buyer, png)).body.code).toBe(0);
    expect((await upload(server, buyer, png)).status).toBe(429);
  });

  it('refuses further images once the stored bytes reach the allowance', async () => {
    const buyer = await makeBuyer(server);
    // Under the allowance when it starts, so this one is stored and takes the buyer past it.
    expect((await upload(server, buyer, { bytes: await noisyPng(), type: 'image/png' })).body.code).toBe(0);
    const refused = await upload(server, buyer, { bytes: await tinyPng(), type: 'image/png' });
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe(
      'You have reached your upload limit (3 images or 20 KB every 24 hours). You can upload again in 24 h 0 min',
    );
  });
});

describe('when the window has passed', () => {
  const server = useTestServer({ RATE_LIMITS: 'upload.quota.images=1/2,upload.quota.bytes=1048576/2' });

  it('takes uploads again', async () => {
    const buyer = await makeBuyer(server);
    const png = { bytes: await tinyPng(), type: 'image/png' };
    expect((await upload(server, buyer, png)).body.code).toBe(0);
    const refused = await upload(server, buyer, png);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await upload(server, buyer, png)).body.code).toBe(0);
  });
});
