import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents } from '../../server/db/schema';
import { png, uploadImages } from '../support/console-images';
import { startLocalS3, type LocalS3 } from '../support/local-s3';
import { narrowS3Bucket } from '../support/narrow-s3';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/**
 * The console's image upload on an S3 bucket whose policy is narrower than s3rver's (ADR
 * 0150): the SDK client's `send` is wrapped to answer as such a bucket does.
 */
let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(() => s3?.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const shop = useTestServer(() => s3.env);
let catalogue: TestStaff;
beforeAll(async () => {
  catalogue = await createSignedInStaff(shop, { role: 'catalogue' });
});

describe('a bucket without s3:ListBucket (403 for a missing key)', () => {
  it('takes the same new image from several uploads at once, serves it and its variant, and 404s what is missing', async () => {
    narrowS3Bucket({ writes: true });
    const bytes = await png(640, 320);
    const answers = await Promise.all(
      ['a.png', 'b.png', 'c.png'].map((name) => uploadImages(shop, catalogue, [{ name, bytes }])),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const urls = [...new Set(answers.map((answer) => answer.body.data.images[0].url as string))];
    expect(urls).toHaveLength(1);

    const served = await fetch(shop.url + urls[0]!);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).length).toBe(answers[0]!.body.data.images[0].bytes);
    const variant = await fetch(`${shop.url}${urls[0]!}?w=320`);
    expect([variant.status, variant.headers.get('content-type')]).toEqual([200, 'image/webp']);

    expect((await fetch(`${shop.url}/images/h/0123456789abcdef0123456789abcdef.png`)).status).toBe(404);
    expect((await fetch(`${shop.url}/images/demo/not-there.webp?w=320`)).status).toBe(404);
  });
});

describe('a bucket that refuses writes', () => {
  it('answers 503 "storage refused" in the member language and records no upload', async () => {
    narrowS3Bucket({ writes: false });
    const bytes = await png(100, 100);
    const english = await uploadImages(shop, catalogue, [{ name: 'refused.png', bytes }]);
    expect(english).toEqual({
      status: 503,
      body: {
        code: 503,
        msg: 'The file store refused to save this, so nothing was saved. Please try again later; the error has been logged for the shop.',
        data: null,
      },
    });
    const chinese = await uploadImages(shop, catalogue, [{ name: 'refused.png', bytes }], { lang: 'zh-cn' });
    expect([chinese.status, chinese.body.msg]).toEqual([
      503,
      '文件存储拒绝保存，因此没有保存任何内容。请稍后再试；此错误已记录并告知店铺。',
    ]);
    const audited = await shop.ctx.db
      .select({ id: auditEvents.id, changes: auditEvents.changes })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'media.image_uploaded'));
    expect(audited.filter((event) => JSON.stringify(event.changes).includes('refused.png'))).toEqual([]);
  });
});
