import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents, contentPages } from '../../server/db/schema';
import { rawGet } from '../support/raw-http';
import { createSignedInStaff } from '../support/staff';
import { useTestServer } from '../support/test-server';

/** Content pages in the admin API (docs/console.md): blocks in both languages, validated, audited. */
const server = useTestServer();

const page = {
  title: { en: 'Questions', 'zh-cn': '常见问题' },
  summary: { en: 'What buyers ask us most.', 'zh-cn': '买家最常问的问题。' },
  blocks: {
    en: [
      { type: 'heading', text: 'Shipping' },
      { type: 'qa', question: 'How long does delivery take?', answer: 'Seven to twelve days.\nTracked all the way.' },
      { type: 'list', items: ['Tracked parcels', 'Duties shown at checkout'] },
    ],
    'zh-cn': [
      { type: 'heading', text: '配送' },
      { type: 'qa', question: '多久能送到？', answer: '七到十二天，全程可追踪。' },
    ],
  },
};

async function storedPage(slug: string) {
  const [row] = await server.ctx.db.select().from(contentPages).where(eq(contentPages.slug, slug));
  return row!;
}

describe('/v1/admin/content-pages', () => {
  it('lists the four pages in the navigation’s order with their block counts', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const list = await editor.request('/v1/admin/content-pages');
    expect(list.status).toBe(200);
    expect(list.body.data.map((row: { slug: string }) => row.slug)).toEqual([
      'videos',
      'our-story',
      'faq',
      'contact-us',
    ]);
    expect(list.body.data[2].title).toEqual({ en: 'Frequently Asked Questions', 'zh-cn': '常见问题' });
  });

  it('replaces a page in both languages, audits before and after, and the storefront shows it', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const was = await storedPage('faq');
    expect((await server.request('/en/faq')).text).not.toContain('Seven to twelve days.');

    const saved = await editor.request('/v1/admin/content-pages/faq', { method: 'PUT', body: page });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ slug: 'faq', ...page });

    const [event] = await server.ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'content_page'), eq(auditEvents.entityId, 'faq')));
    expect(event!.action).toBe('content.updated');
    expect(event!.actorId).toBe(editor.id);
    expect(event!.changes).toEqual({
      title: { before: was.title, after: page.title },
      summary: { before: was.summary, after: page.summary },
      blocks: { before: was.blocks, after: page.blocks },
    });

    const english = await server.request('/en/faq');
    expect(english.text).toContain('How long does delivery take?');
    expect(english.text).toContain('Duties shown at checkout');
    const chinese = await server.request('/zh-cn/faq');
    expect(chinese.text).toContain('多久能送到？');
    expect(chinese.text).not.toContain('How long does delivery take?');
  });

  it('retires that page in both languages and leaves every other cached page a hit', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const kept = ['/en/our-story', '/zh-cn/faq', '/en/product/1', '/en/'];
    const retired = ['/en/videos', '/zh-cn/videos'];
    for (const path of [...kept, ...retired]) {
      await rawGet(server.url + path, {});
      expect((await rawGet(server.url + path, {})).headers['x-cache'], path).toBe('hit');
    }
    const videos = {
      ...page,
      blocks: {
        en: [{ type: 'heading', text: 'Unboxing the teapot' }],
        'zh-cn': [{ type: 'heading', text: '茶壶开箱' }],
      },
    };
    expect((await editor.request('/v1/admin/content-pages/videos', { method: 'PUT', body: videos })).status).toBe(200);

    for (const path of kept) expect((await rawGet(server.url + path, {})).headers['x-cache'], path).toBe('hit');
    const english = await rawGet(server.url + '/en/videos', {});
    expect(english.headers['x-cache']).toBe('miss');
    expect(english.body.toString()).toContain('Unboxing the teapot');
    const chinese = await rawGet(server.url + '/zh-cn/videos', {});
    expect(chinese.headers['x-cache']).toBe('miss');
    expect(chinese.body.toString()).toContain('茶壶开箱');
  });

  it('refuses members without settings:write, and changes nothing', async () => {
    const support = await createSignedInStaff(server, { role: 'support' });
    const catalogue = await createSignedInStaff(server, { role: 'catalogue' });
    const was = await storedPage('our-story');
    for (const member of [support, catalogue]) {
      expect((await member.request('/v1/admin/content-pages')).status).toBe(403);
      expect((await member.request('/v1/admin/content-pages/our-story', { method: 'PUT', body: page })).status).toBe(
        403,
      );
    }
    expect(await storedPage('our-story')).toEqual(was);
  });

  const withBlock = (block: unknown) => ({ ...page, blocks: { ...page.blocks, en: [block] } });

  it.each([
    [
      withBlock({ type: 'paragraph', text: 'Hello <script>alert(1)</script>' }),
      'Text must be plain text: HTML tags are not allowed',
    ],
    [
      withBlock({ type: 'heading', text: '<img src=x onerror=alert(1)>' }),
      'Text must be plain text: HTML tags are not allowed',
    ],
    [withBlock({ type: 'qa', question: 'Why?', answer: '' }), 'Answer cannot be empty'],
    [withBlock({ type: 'heading', text: 'x'.repeat(201) }), 'Text cannot be longer than 200 characters'],
    [withBlock({ type: 'paragraph', text: 'bell\u0007' }), 'Text contains characters that are not allowed'],
    [
      withBlock({ type: 'video', title: 'Film', poster: 'javascript:alert(1)' }),
      'Poster image must be an address on this shop (/images/…) or an https address',
    ],
    [withBlock({ type: 'marquee', text: 'Hi' }), 'type'],
    [withBlock({ type: 'heading', text: 'Hi', html: '<b>' }), 'Unknown field: html'],
    [{ ...page, title: { en: '', 'zh-cn': '问题' } }, 'English text cannot be empty'],
    [
      { ...page, blocks: { en: Array(101).fill({ type: 'heading', text: 'Hi' }), 'zh-cn': [] } },
      'English text must be at most 100',
    ],
  ])('refuses %j with a message naming the field, and writes nothing', async (body, message) => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const was = await storedPage('contact-us');
    const answer = await editor.request('/v1/admin/content-pages/contact-us', { method: 'PUT', body });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toContain(message);
    expect(await storedPage('contact-us')).toEqual(was);
  });

  it('answers 400 for a page that is not one of the four', async () => {
    const editor = await createSignedInStaff(server, { permissions: ['settings:write'] });
    const answer = await editor.request('/v1/admin/content-pages/admin', { method: 'PUT', body: page });
    expect(answer.status).toBe(400);
  });
});
