import { renderToString } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ImageUploads, makeRoom } from './image-uploads';

/**
 * The multi-image control as the server renders it (uploaded images, the add tile, read-only),
 * and its rule for files chosen beyond the limit. Files on their way (ready, uploading, fail)
 * exist only in a browser: the after-sale pages' browser tests drive those.
 */
function render(element: React.ReactElement, locale: 'en' | 'zh-cn' = 'en'): string {
  const Page = createRoutesStub([{ id: 'root', path: '/:locale', Component: () => element }]);
  return renderToString(<Page initialEntries={[`/${locale}`]} hydrationData={{ loaderData: { root: { locale } } }} />);
}

const PHOTOS = ['/v1/upload/private/AAAAAAAAAAAAAAAAAAAAAA', '/v1/upload/private/BBBBBBBBBBBBBBBBBBBBBB'];

function statesOf(html: string): string[] {
  return [...html.matchAll(/data-testid="upload-item" data-state="(\w+)"/g)].map((match) => match[1]!);
}

describe('ImageUploads', () => {
  it('shows each uploaded image as a success thumbnail with preview and delete, then the add tile', () => {
    const html = render(<ImageUploads value={PHOTOS} onChange={() => {}} label="Photos" tip="JPG or PNG" />);
    expect(statesOf(html)).toEqual(['success', 'success']);
    expect(html).toContain('<ul class="image-uploads__list" aria-label="Photos">');
    expect(html).toContain(
      '<img src="/v1/upload/private/AAAAAAAAAAAAAAAAAAAAAA" alt="Image 1" width="80" height="80"/>',
    );
    expect(html).toContain('<span class="sr-only">Preview image 2</span>');
    expect(html).toContain('<span class="sr-only">Delete image 2</span>');
    expect(html).toMatch(/<input [^>]*type="file" accept="image\/\*" multiple=""[^>]*name="image"/);
    expect(html).toContain('<span class="sr-only">Add images</span>');
    expect(html).toContain('2 of 9 images');
    expect(html).toContain('JPG or PNG');
  });

  it('hides the add tile once the limit is reached, and sizes thumbnails by width', () => {
    const html = render(<ImageUploads value={PHOTOS} onChange={() => {}} label="Photos" limit={2} width={64} />);
    expect(statesOf(html)).toEqual(['success', 'success']);
    expect(html).toContain('style="--upload-size:64px"');
    expect(html).toContain('alt="Image 2" width="64" height="64"');
    expect(html).not.toContain('type="file"');
    expect(html).toContain('2 of 2 images');
  });

  it('is read-only when disabled: preview stays, add and delete go', () => {
    const html = render(<ImageUploads value={PHOTOS} onChange={() => {}} label="Photos" disabled />);
    expect(html).toContain('Preview image 1');
    expect(html).not.toContain('Delete image');
    expect(html).not.toContain('type="file"');
  });

  it('speaks Chinese on a Chinese page', () => {
    const html = render(<ImageUploads value={PHOTOS.slice(0, 1)} onChange={() => {}} label="凭证图片" />, 'zh-cn');
    expect(html).toContain('alt="第 1 张图片"');
    expect(html).toContain('<span class="sr-only">删除第 1 张图片</span>');
    expect(html).toContain('<span class="sr-only">添加图片</span>');
    expect(html).toContain('已添加 1 张，最多 9 张');
    expect(html).toContain('确定删除这张图片吗?');
    expect(html).toContain('>提示</h2>');
  });
});

describe('makeRoom: files chosen beyond the limit push out the oldest', () => {
  it('takes nothing away while there is room', () => {
    expect(makeRoom({ uploaded: 2, waiting: 1, chosen: 3 }, 9)).toEqual({ chosen: 3, uploaded: 0, waiting: 0 });
    expect(makeRoom({ uploaded: 6, waiting: 0, chosen: 3 }, 9)).toEqual({ chosen: 3, uploaded: 0, waiting: 0 });
  });

  it('replaces the one image when the limit is 1', () => {
    expect(makeRoom({ uploaded: 1, waiting: 0, chosen: 1 }, 1)).toEqual({ chosen: 1, uploaded: 1, waiting: 0 });
  });

  it('pushes out uploaded images before files still waiting', () => {
    expect(makeRoom({ uploaded: 8, waiting: 0, chosen: 3 }, 9)).toEqual({ chosen: 3, uploaded: 2, waiting: 0 });
    expect(makeRoom({ uploaded: 2, waiting: 5, chosen: 4 }, 9)).toEqual({ chosen: 4, uploaded: 2, waiting: 0 });
    expect(makeRoom({ uploaded: 1, waiting: 6, chosen: 4 }, 9)).toEqual({ chosen: 4, uploaded: 1, waiting: 1 });
  });

  it('keeps only as many of the chosen files as the limit allows', () => {
    expect(makeRoom({ uploaded: 3, waiting: 1, chosen: 12 }, 9)).toEqual({ chosen: 9, uploaded: 3, waiting: 1 });
  });
});
