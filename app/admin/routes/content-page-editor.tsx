import { useState } from 'react';
import { Link, type ClientLoaderFunctionArgs } from 'react-router';
import { loadMessagePacks } from '../../../i18n';
import type { Locale } from '../../../i18n/locales';
import type { ContentBlock } from '../../../server/shared/content-blocks';
import type { ContentPageBody, ContentPageEditorView } from '../../../server/domains/content/content-editor.schemas';
import { ContentBlocks } from '~/components/content/content-blocks';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsoleT, usePageData } from '../lib/console-context';
import { PageHeader, SkeletonRows, useAction } from '../components/ui';
import { SaveBar } from '../components/save-bar';
import { LocalizedInputs } from '../components/localized-inputs';
import { BlockEditor, emptyBlock } from '../components/block-editor';
import '../styles/content-settings.css';

export async function clientLoader({ request, params }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const [page] = await Promise.all([
    adminApi<ContentPageEditorView>(`/content-pages/${encodeURIComponent(params.slug ?? '')}`, {
      signal: request.signal,
    }),
    // The preview renders the storefront's own blocks, whose texts are in the `browse` pack.
    loadMessagePacks('en', ['browse']),
    loadMessagePacks('zh-cn', ['browse']),
  ]);
  return { page };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

const LANGUAGES: readonly Locale[] = ['en', 'zh-cn'];

/**
 * One content page as blocks in both languages side by side, with a preview drawn by the
 * storefront's own block renderer. Saving replaces the whole page (docs/console.md).
 */
export default function ContentPageEditorPage() {
  const { page } = usePageData<typeof clientLoader>();
  const t = useConsoleT();
  const [draft, setDraft] = useState<ContentPageBody>({
    title: page.title,
    summary: page.summary,
    blocks: page.blocks,
  });
  const [preview, setPreview] = useState<Locale | null>(null);
  const [saved, setSaved] = useState(false);
  const change = (next: ContentPageBody) => {
    setSaved(false);
    setDraft(next);
  };
  const setBlocks = (language: Locale, blocks: ContentBlock[]) =>
    change({ ...draft, blocks: { ...draft.blocks, [language]: blocks } });
  const save = useAction(async () => {
    const answer = await adminApi<ContentPageEditorView>(`/content-pages/${page.slug}`, { method: 'PUT', body: draft });
    setDraft({ title: answer.title, summary: answer.summary, blocks: answer.blocks });
    setSaved(true);
  });
  const languageName = (language: Locale) => t(language === 'en' ? 'console.lang.en' : 'console.lang.zh');

  return (
    <>
      <PageHeader
        title={`${draft.title.en || page.slug} · ${draft.title['zh-cn']}`}
        actions={
          <>
            {LANGUAGES.map((language) => (
              <button
                key={language}
                type="button"
                className="button"
                aria-pressed={preview === language}
                onClick={() => setPreview(preview === language ? null : language)}
              >
                {t('console.content.preview')} · {languageName(language)}
              </button>
            ))}
          </>
        }
      >
        <Link to="/admin/content">{t('console.content.back')}</Link>
      </PageHeader>
      {preview ? (
        <section className="card content-preview" aria-labelledby="content-preview-title">
          <div className="content-preview__head">
            <h2 className="card__title" id="content-preview-title">
              {t('console.content.previewTitle', { language: languageName(preview) })}
            </h2>
            <button type="button" className="button" onClick={() => setPreview(null)}>
              {t('console.content.hidePreview')}
            </button>
          </div>
          <div className="content-preview__page" lang={preview === 'en' ? 'en' : 'zh-CN'}>
            <article className={`content-page content-page--${page.slug}`}>
              <header className="page-header">
                <div className="container">
                  <h1 className="page-header__title">{draft.title[preview]}</h1>
                  {draft.summary[preview] ? <p className="page-header__lead">{draft.summary[preview]}</p> : null}
                </div>
              </header>
              <div className="container content-page__body">
                <div className="prose">
                  <ContentBlocks blocks={draft.blocks[preview]} />
                </div>
              </div>
            </article>
          </div>
        </section>
      ) : null}
      <form
        className="content-editor"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save.act();
        }}
      >
        <section className="card stack">
          <LocalizedInputs
            id="content-title"
            label={t('field.title')}
            value={draft.title}
            onChange={(title) => change({ ...draft, title })}
          />
          <LocalizedInputs
            id="content-summary"
            label={t('field.summary')}
            multiline
            rows={2}
            value={draft.summary}
            onChange={(summary) => change({ ...draft, summary })}
          />
        </section>
        <div className="pair pair--blocks">
          {LANGUAGES.map((language) => (
            <section
              key={language}
              className="card"
              aria-labelledby={`blocks-${language}`}
              lang={language === 'en' ? 'en' : 'zh-CN'}
            >
              <h2 className="card__title" id={`blocks-${language}`}>
                {t('field.blocks')} · {languageName(language)}
              </h2>
              {draft.blocks[language].length === 0 ? <p className="muted">{t('console.content.noBlocks')}</p> : null}
              <ol className="block-list">
                {draft.blocks[language].map((block, index) => (
                  <BlockEditor
                    key={index}
                    id={`block-${language}-${index}`}
                    index={index}
                    count={draft.blocks[language].length}
                    block={block}
                    onChange={(next) =>
                      setBlocks(
                        language,
                        draft.blocks[language].map((old, at) => (at === index ? next : old)),
                      )
                    }
                    onMove={(by) => {
                      const list = [...draft.blocks[language]];
                      const [moved] = list.splice(index, 1);
                      list.splice(index + by, 0, moved!);
                      setBlocks(language, list);
                    }}
                    onRemove={() =>
                      setBlocks(
                        language,
                        draft.blocks[language].filter((_, at) => at !== index),
                      )
                    }
                  />
                ))}
              </ol>
              <button
                type="button"
                className="button"
                onClick={() => setBlocks(language, [...draft.blocks[language], emptyBlock('paragraph')])}
              >
                {t('console.content.addBlock')}
              </button>
            </section>
          ))}
        </div>
        <SaveBar busy={save.busy} error={save.error} saved={saved ? t('console.content.saved') : null} />
      </form>
    </>
  );
}
