import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productImages, products } from '../../server/db/schema';
import {
  fetchImageBytes,
  isPrivateAddress,
  type ImageFetchError,
  type ImageFetchLimits,
} from '../../server/domains/catalog/product-csv-images';
import { startImageServer } from '../support/image-server';
import { csvOf, seededImageAndGroup, teapotRows, uploadCsv, type Cells } from '../support/product-csv';
import { createSignedInStaff, type TestStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/**
 * Products CSV images by web address (ADR 0161): fetched under limits, refused on private
 * addresses unless the operator trusts the host, stored as the console's uploads are.
 */
const server = useTestServer({ IMPORT_IMAGE_TRUSTED_HOSTS: '127.0.0.1' });

let editor: TestStaff;
let shop: Awaited<ReturnType<typeof seededImageAndGroup>>;
let images: Awaited<ReturnType<typeof startImageServer>>;
const tag = `${process.pid}-${Date.now().toString(36)}`;

beforeAll(async () => {
  editor = await createSignedInStaff(server, { role: 'catalogue' });
  shop = await seededImageAndGroup(server);
  images = await startImageServer();
});
afterAll(() => images?.close());

const limits = (trusted: string[] = []): ImageFetchLimits => ({
  trustedHosts: new Set(trusted),
  maxBytes: 20 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
});

async function refusal(promise: Promise<unknown>) {
  const error = (await promise.then(
    () => null,
    (failure: unknown) => failure,
  )) as ImageFetchError | null;
  return error?.key;
}

describe('fetching the images a products CSV names', () => {
  it('tells private, loopback, link-local, multicast and metadata addresses from public ones', () => {
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '224.0.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '64:ff9b:1::a00:1',
    ];
    const allowed = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
    expect(refused.filter((address) => !isPrivateAddress(address))).toEqual([]);
    expect(allowed.filter((address) => isPrivateAddress(address))).toEqual([]);
  });

  it('refuses 127.0.0.1 and a name resolving to it unless the host is trusted', async () => {
    expect(await refusal(fetchImageBytes(images.url('/ok.png'), limits()))).toBe('adminProductCsv.image.private');
    expect(await refusal(fetchImageBytes(`http://localhost:${images.port}/ok.png`, limits()))).toBe(
      'adminProductCsv.image.private',
    );
    expect((await fetchImageBytes(images.url('/ok.png'), limits(['127.0.0.1']))).subarray(1, 4).toString()).toBe('PNG');
    expect(await refusal(fetchImageBytes('file:///etc/passwd', limits(['127.0.0.1'])))).toBe(
      'adminProductCsv.image.scheme',
    );
    // A redirect to an address no parser takes fails that image, not the import.
    expect(await refusal(fetchImageBytes(images.url('/to-broken'), limits(['127.0.0.1'])))).toBe(
      'adminProductCsv.image.scheme',
    );
  });

  it('reports each image that cannot be had on its row in the dry run, in English and Chinese, and writes nothing', async () => {
    const handle = `csv-img-bad-${tag}`;
    const imageRow = (src: string, position: number): Cells => ({
      Handle: handle,
      'Image Src': src,
      'Image Position': String(position),
    });
    const rows = [
      ...teapotRows(handle, shop, { 'Image Src': images.url('/ok.png') }),
      imageRow(images.url('/big'), 2), // row 6
      imageRow(images.url('/text'), 3),
      imageRow(images.url('/hop/0'), 4),
      imageRow(images.url('/to-metadata'), 5),
      imageRow(images.url('/to-localhost'), 6),
      imageRow(images.url('/missing.png'), 7),
      imageRow('ftp://127.0.0.1/a.png', 8), // row 12
    ];
    const dry = await uploadCsv(server, editor, { text: csvOf(rows) }, 'dry_run=false');
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.data.written).toBe(false);
    const privateAddress =
      'Image Src points to a private or local network address: the shop fetches images only from public addresses';
    expect(dry.body.data.problems).toEqual([
      { row: 6, column: 'Image Src', message: 'The image is too large: at most 20 MB' },
      { row: 7, column: 'Image Src', message: 'The file at this address is not a JPEG, PNG, WebP, AVIF or GIF image' },
      { row: 8, column: 'Image Src', message: 'The image address redirects more than 3 times' },
      { row: 9, column: 'Image Src', message: privateAddress },
      { row: 10, column: 'Image Src', message: privateAddress },
      { row: 11, column: 'Image Src', message: 'The image could not be fetched: the server answered 404' },
      {
        row: 12,
        column: 'Image Src',
        message: 'Image Src must be an http or https address, or an image already in this shop',
      },
    ]);
    const zh = await uploadCsv(server, editor, { text: csvOf(rows) }, 'dry_run=true', 'zh-cn');
    expect(zh.body.data.problems[3].message).toBe('Image Src 指向内网或本机地址：本店只从公网地址获取图片');
    expect(await server.ctx.db.select().from(products).where(eq(products.slug, handle))).toEqual([]);
  });

  it('stores a fetched image as an upload at its content-hashed address, and a second run is unchanged', async () => {
    const handle = `csv-img-ok-${tag}`;
    const file = csvOf(teapotRows(handle, shop, { 'Image Src': images.url('/ok.png') }));
    const dry = await uploadCsv(server, editor, { text: file });
    expect(dry.body.data.problems).toEqual([]);
    const done = await uploadCsv(server, editor, { text: file }, 'dry_run=false');
    expect(done.body.data.written, done.text).toBe(true);
    const [product] = await server.ctx.db.select({ id: products.id }).from(products).where(eq(products.slug, handle));
    const stored = await server.ctx.db
      .select({ url: productImages.url, width: productImages.width, height: productImages.height })
      .from(productImages)
      .where(eq(productImages.productId, product!.id))
      .orderBy(asc(productImages.id));
    expect(stored).toEqual([{ url: expect.stringMatching(/^\/images\/h\/[0-9a-f]{32}\.png$/), width: 40, height: 30 }]);
    const served = await fetch(`${server.url}${stored[0]!.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const variant = await fetch(`${server.url}${stored[0]!.url}?w=64`);
    expect(variant.status).toBe(200);

    const again = await uploadCsv(server, editor, { text: file }, 'dry_run=false');
    expect(again.body.data.products).toEqual({ create: 0, update: 0, unchanged: 1 });
  });
});
