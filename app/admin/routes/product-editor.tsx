import { useMemo, useRef, useState, type DragEvent } from 'react';
import { Link, useNavigate, useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import type { MessageKey } from '../../../i18n';
import type { Locale } from '../../../i18n/locales';
import {
  productBody,
  SERVICE_NOTES,
  type productGroupChoices,
  type ProductStatus,
  type ProductView,
} from '../../../server/domains/catalog/product-editor.schemas';
import { describeIssue } from '../../../server/shared/issue-messages';
import { adminApi, AdminApiError, requireStaff } from '../lib/admin-api';
import { useCan, useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { majorToMinor, minorToMajorText } from '../lib/format';
import { PRODUCT_STATUS_LABELS as STATUS_LABELS, PRODUCT_STATUS_TONES as STATUS_TONES } from '../lib/product-labels';
import { ErrorNotice, Notice, PageHeader, Pill, SkeletonRows, useAction } from '../components/ui';
import '../styles/products.css';

type Groups = z.infer<typeof productGroupChoices>;
type Text = { en: string; 'zh-cn': string };

export async function clientLoader({ request, params }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const id = params.id === 'new' ? null : params.id;
  const [product, groups, list] = await Promise.all([
    id ? adminApi<ProductView>(`/products/${id}`, { signal: request.signal }) : Promise.resolve(null),
    adminApi<Groups>('/products/groups', { signal: request.signal }),
    adminApi<{ currency: string }>('/products', { query: { page_size: 1 }, signal: request.signal }),
  ]);
  return { product, groups, currency: product?.currency ?? list.currency };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

const EMPTY: Text = { en: '', 'zh-cn': '' };
const LANGUAGES = ['en', 'zh-cn'] as const;
let nextKey = 0;
const newKey = () => `k${++nextKey}`;

interface ValueDraft {
  key: string;
  value: Text;
  swatch: string;
}
interface OptionDraft {
  key: string;
  name: Text;
  values: ValueDraft[];
}
interface SkuDraft {
  id?: number;
  code: string;
  price: string;
  stock: string;
  hs_code: string;
  origin_country: string;
  customs_description: string;
  image: string;
}
interface ImageDraft {
  key: string;
  url: string;
  width: number;
  height: number;
  alt: Text;
}

/** Every combination of one value per option, as value keys; one empty combination without options. */
function matrixOf(options: OptionDraft[]): string[][] {
  return options.reduce<string[][]>(
    (rows, option) => rows.flatMap((row) => option.values.map((value) => [...row, value.key])),
    [[]],
  );
}

function draftOf(product: ProductView | null, currency: string) {
  const options: OptionDraft[] = (product?.options ?? []).map((option) => ({
    key: newKey(),
    name: option.name,
    values: option.values.map((value) => ({ key: newKey(), value: value.value, swatch: value.swatch ?? '' })),
  }));
  const skus: Record<string, SkuDraft> = {};
  for (const sku of product?.skus ?? []) {
    const combination = sku.values.map((position, axis) => options[axis]?.values[position]?.key ?? '');
    skus[combination.join('|')] = {
      id: sku.id,
      code: sku.code,
      price: minorToMajorText(sku.price_minor, currency),
      stock: String(sku.stock),
      hs_code: sku.hs_code ?? '',
      origin_country: sku.origin_country ?? '',
      customs_description: sku.customs_description ?? '',
      image: sku.image ?? '',
    };
  }
  return {
    name: product?.name ?? EMPTY,
    description: product?.description ?? EMPTY,
    seoTitle: product?.seo_title ?? EMPTY,
    seoDescription: product?.seo_description ?? EMPTY,
    weight: String(product?.weight_grams ?? 500),
    serviceNotes: product?.service_notes ?? [],
    finalSale: product?.final_sale ?? false,
    groupIds: product?.group_ids ?? [],
    options,
    skus,
    images: (product?.images ?? []).map((image) => ({ ...image, key: newKey() })),
  };
}

type Draft = ReturnType<typeof draftOf>;

/** The status buttons a product shows: publish or unpublish, and archive unless archived. */
function statusMoves(status: ProductStatus): Array<[ProductStatus, MessageKey, string]> {
  const moves: Array<[ProductStatus, MessageKey, string]> = [
    status === 'published'
      ? ['draft', 'console.products.unpublish', '']
      : ['published', 'console.products.publish', 'button--primary'],
  ];
  if (status !== 'archived') moves.push(['archived', 'console.products.archive', 'button--ghost']);
  return moves;
}

/** Moves `list[from]` to `to`. */
function moved<T>(list: T[], from: number, to: number): T[] {
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

export default function ProductEditorPage() {
  const { product, groups, currency } = usePageData<typeof clientLoader>();
  return <ProductEditor key={product?.id ?? 'new'} product={product} groups={groups} currency={currency} />;
}

function ProductEditor({
  product,
  groups,
  currency,
}: {
  product: ProductView | null;
  groups: Groups;
  currency: string;
}) {
  const { locale } = useConsole();
  const t = useConsoleT();
  const can = useCan();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<Draft>(() => draftOf(product, currency));
  const [issues, setIssues] = useState<Array<{ path: string; text: string }>>([]);
  const [done, setDone] = useState<string | null>(null);
  const readOnly = !can('catalog:write');
  const update = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const setOption = (axis: number, change: (option: OptionDraft) => OptionDraft) =>
    update({ options: draft.options.map((option, index) => (index === axis ? change(option) : option)) });
  const setValue = (axis: number, key: string, change: (value: ValueDraft) => ValueDraft) =>
    setOption(axis, (option) => ({
      ...option,
      values: option.values.map((value) => (value.key === key ? change(value) : value)),
    }));
  const matrix = useMemo(() => matrixOf(draft.options), [draft.options]);
  const skuOf = (combination: string[]): SkuDraft =>
    draft.skus[combination.join('|')] ?? {
      code: '',
      price: '',
      stock: '0',
      hs_code: '',
      origin_country: '',
      customs_description: '',
      image: '',
    };
  const setSku = (combination: string[], change: Partial<SkuDraft>) =>
    setDraft((current) => {
      const key = combination.join('|');
      return { ...current, skus: { ...current.skus, [key]: { ...skuOf(combination), ...change } } };
    });

  const save = useAction(async (body: z.output<typeof productBody>) => {
    if (product) {
      await adminApi(`/products/${product.id}`, { method: 'PUT', body });
      setDone(t('console.products.saved'));
      await revalidator.revalidate();
    } else {
      const created = await adminApi<ProductView>('/products', { body });
      await navigate(`/admin/products/${created.id}`, { replace: true });
    }
  });
  const setStatus = useAction(async (status: ProductStatus) => {
    if (!product) return;
    await adminApi(`/products/${product.id}/status`, { method: 'PUT', body: { status } });
    setDone(t(`console.products.became.${status}` as MessageKey));
    await revalidator.revalidate();
  });

  const submit = () => {
    const bad: Array<{ path: string; text: string }> = [];
    const skus = matrix.map((combination, row) => {
      const sku = skuOf(combination);
      const price = majorToMinor(sku.price, currency);
      if (price === null) bad.push({ path: `skus.${row}.price_minor`, text: t('console.products.badPrice') });
      return {
        ...(sku.id === undefined ? {} : { id: sku.id }),
        values: combination.map((key, axis) => draft.options[axis]!.values.findIndex((value) => value.key === key)),
        code: sku.code,
        price_minor: price ?? 0,
        initial_stock: Number(sku.stock || 0),
        hs_code: sku.hs_code.trim() || null,
        origin_country: sku.origin_country.trim() || null,
        customs_description: sku.customs_description.trim() || null,
        image: sku.image || null,
      };
    });
    const parsed = productBody.safeParse({
      name: draft.name,
      description: draft.description,
      seo_title: draft.seoTitle,
      seo_description: draft.seoDescription,
      weight_grams: Number(draft.weight),
      service_notes: draft.serviceNotes,
      final_sale: draft.finalSale,
      group_ids: draft.groupIds,
      options: draft.options.map((option) => ({
        name: option.name,
        values: option.values.map((value) => ({ value: value.value, swatch: value.swatch.trim() || null })),
      })),
      skus,
      images: draft.images.map(({ key: _key, ...image }) => image),
    });
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        bad.push({ path: issue.path.join('.'), text: describeIssue(locale, issue, 'body') });
    setIssues(bad);
    if (bad.length || !parsed.success) return;
    setDone(null);
    void save.act(parsed.data);
  };
  const errorAt = (path: string) => issues.find((issue) => issue.path === path || issue.path.startsWith(`${path}.`));

  const title = product ? draft.name[locale] || draft.name.en || draft.name['zh-cn'] : t('console.products.new');
  return (
    <>
      <p className="breadcrumbs">
        <Link to="/admin/products">{t('console.products.title')}</Link>
      </p>
      <PageHeader
        title={title}
        actions={
          product && !readOnly ? (
            <span className="product-status-actions">
              {statusMoves(product.status).map(([status, label, look]) => (
                <button
                  key={status}
                  type="button"
                  className={`button ${look}`}
                  disabled={setStatus.busy}
                  onClick={() => void setStatus.act(status)}
                >
                  {t(label)}
                </button>
              ))}
            </span>
          ) : null
        }
      >
        {product ? (
          <p>
            <Pill tone={STATUS_TONES[product.status]}>{t(STATUS_LABELS[product.status])}</Pill>{' '}
            <span className="muted">{t(`console.products.statusHint.${product.status}` as MessageKey)}</span>
          </p>
        ) : (
          <p className="muted">{t('console.products.newHint')}</p>
        )}
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorNotice error={setStatus.error} />
      <form
        className="product-editor stack"
        noValidate
        aria-label={title}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset className="product-editor__body stack" disabled={readOnly}>
          <section className="panel stack" aria-labelledby="texts-title">
            <h2 id="texts-title">{t('console.products.texts')}</h2>
            <BothLanguages
              id="name"
              label={t('console.products.name')}
              value={draft.name}
              error={errorAt('name')?.text}
              onChange={(name) => update({ name })}
            />
            <BothLanguages
              id="description"
              label={t('console.products.description')}
              hint={t('console.products.descriptionHint')}
              value={draft.description}
              multiline
              onChange={(description) => update({ description })}
            />
            <BothLanguages
              id="seo-title"
              label={t('console.products.seoTitle')}
              value={draft.seoTitle}
              onChange={(seoTitle) => update({ seoTitle })}
            />
            <BothLanguages
              id="seo-description"
              label={t('console.products.seoDescription')}
              value={draft.seoDescription}
              multiline
              onChange={(seoDescription) => update({ seoDescription })}
            />
          </section>

          <ImageStrip
            images={draft.images}
            onChange={(images) => update({ images })}
            error={errorAt('images')?.text}
            readOnly={readOnly}
          />

          <section className="panel stack" aria-labelledby="options-title">
            <h2 id="options-title">{t('console.products.options')}</h2>
            <p className="muted">{t('console.products.optionsHint')}</p>
            {draft.options.map((option, axis) => (
              <fieldset key={option.key} className="product-option">
                <legend>{t('console.products.optionNumber', { number: axis + 1 })}</legend>
                <div className="product-pair">
                  {LANGUAGES.map((language) => (
                    <div className="field" key={language}>
                      <label htmlFor={`option-${axis}-${language}`}>
                        {t('console.products.optionName')} · {languageName(t, language)}
                      </label>
                      <input
                        id={`option-${axis}-${language}`}
                        lang={language === 'en' ? 'en' : 'zh-CN'}
                        value={option.name[language]}
                        onChange={(event) =>
                          setOption(axis, (current) => ({
                            ...current,
                            name: { ...current.name, [language]: event.target.value },
                          }))
                        }
                      />
                    </div>
                  ))}
                </div>
                <ul className="product-values">
                  {option.values.map((value, position) => (
                    <li key={value.key} className="product-values__row">
                      {LANGUAGES.map((language) => (
                        <input
                          key={language}
                          aria-label={`${t('console.products.value', { number: position + 1 })} · ${languageName(t, language)}`}
                          lang={language === 'en' ? 'en' : 'zh-CN'}
                          value={value.value[language]}
                          onChange={(event) =>
                            setValue(axis, value.key, (entry) => ({
                              ...entry,
                              value: { ...entry.value, [language]: event.target.value },
                            }))
                          }
                        />
                      ))}
                      <input
                        className="mono product-values__swatch"
                        aria-label={t('console.products.swatch')}
                        placeholder="#rrggbb"
                        value={value.swatch}
                        onChange={(event) =>
                          setValue(axis, value.key, (entry) => ({ ...entry, swatch: event.target.value }))
                        }
                      />
                      <button
                        type="button"
                        className="button button--small button--ghost"
                        disabled={option.values.length <= 1}
                        onClick={() =>
                          setOption(axis, (current) => ({
                            ...current,
                            values: current.values.filter((entry) => entry.key !== value.key),
                          }))
                        }
                      >
                        {t('console.products.removeValue')}
                      </button>
                    </li>
                  ))}
                </ul>
                <div className="button-row">
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() =>
                      setOption(axis, (current) => ({
                        ...current,
                        values: [...current.values, { key: newKey(), value: EMPTY, swatch: '' }],
                      }))
                    }
                  >
                    {t('console.products.addValue')}
                  </button>
                  <button
                    type="button"
                    className="button button--small button--ghost"
                    onClick={() => update({ options: draft.options.filter((_, index) => index !== axis) })}
                  >
                    {t('console.products.removeOption')}
                  </button>
                </div>
              </fieldset>
            ))}
            {draft.options.length < 3 ? (
              <div>
                <button
                  type="button"
                  className="button"
                  onClick={() =>
                    update({
                      options: [
                        ...draft.options,
                        { key: newKey(), name: EMPTY, values: [{ key: newKey(), value: EMPTY, swatch: '' }] },
                      ],
                    })
                  }
                >
                  {t('console.products.addOption')}
                </button>
              </div>
            ) : null}
          </section>

          <section className="panel stack" aria-labelledby="skus-title">
            <h2 id="skus-title">
              {t('console.products.skus')} <span className="muted">({matrix.length})</span>
            </h2>
            <p className="muted">{t('console.products.skusHint', { currency })}</p>
            <div className="table-wrap">
              <table className="data-table data-table--compact sku-matrix">
                <thead>
                  <tr>
                    <th scope="col">{t('console.products.combination')}</th>
                    <th scope="col">{t('console.products.code')}</th>
                    <th scope="col">{t('console.products.price', { currency })}</th>
                    <th scope="col">{t('console.products.stock')}</th>
                    <th scope="col">{t('console.products.hsCode')}</th>
                    <th scope="col">{t('console.products.origin')}</th>
                    <th scope="col">{t('console.products.customs')}</th>
                    <th scope="col">{t('console.products.skuImage')}</th>
                  </tr>
                </thead>
                <tbody>
                  {matrix.map((combination, row) => {
                    const sku = skuOf(combination);
                    const label =
                      combination
                        .map((key, axis) => {
                          const value = draft.options[axis]?.values.find((entry) => entry.key === key)?.value;
                          return value ? value[locale] || value.en || value['zh-cn'] || '?' : '?';
                        })
                        .join(' / ') || t('console.products.single');
                    const codeError = errorAt(`skus.${row}.code`)?.text;
                    const priceError = errorAt(`skus.${row}.price_minor`)?.text;
                    return (
                      <tr key={combination.join('|') || 'single'}>
                        <th scope="row">{label}</th>
                        <td>
                          <input
                            className="mono"
                            aria-label={`${t('console.products.code')} · ${label}`}
                            aria-invalid={codeError ? true : undefined}
                            title={codeError}
                            value={sku.code}
                            onChange={(event) => setSku(combination, { code: event.target.value })}
                          />
                        </td>
                        <td>
                          <input
                            inputMode="decimal"
                            aria-label={`${t('console.products.price', { currency })} · ${label}`}
                            aria-invalid={priceError ? true : undefined}
                            title={priceError}
                            value={sku.price}
                            onChange={(event) => setSku(combination, { price: event.target.value })}
                          />
                        </td>
                        <td>
                          {sku.id === undefined ? (
                            <input
                              inputMode="numeric"
                              aria-label={`${t('console.products.initialStock')} · ${label}`}
                              value={sku.stock}
                              onChange={(event) => setSku(combination, { stock: event.target.value })}
                            />
                          ) : (
                            <span title={t('console.products.stockHint')}>{sku.stock}</span>
                          )}
                        </td>
                        <td>
                          <input
                            className="mono"
                            aria-label={`${t('console.products.hsCode')} · ${label}`}
                            value={sku.hs_code}
                            onChange={(event) => setSku(combination, { hs_code: event.target.value })}
                          />
                        </td>
                        <td>
                          <input
                            className="mono sku-matrix__short"
                            aria-label={`${t('console.products.origin')} · ${label}`}
                            maxLength={2}
                            value={sku.origin_country}
                            onChange={(event) => setSku(combination, { origin_country: event.target.value })}
                          />
                        </td>
                        <td>
                          <input
                            aria-label={`${t('console.products.customs')} · ${label}`}
                            value={sku.customs_description}
                            onChange={(event) => setSku(combination, { customs_description: event.target.value })}
                          />
                        </td>
                        <td>
                          <select
                            aria-label={`${t('console.products.skuImage')} · ${label}`}
                            value={sku.image}
                            onChange={(event) => setSku(combination, { image: event.target.value })}
                          >
                            <option value="">{t('console.products.noImage')}</option>
                            {draft.images.map((image, index) => (
                              <option key={image.key} value={image.url}>
                                {t('console.products.imageNumber', { number: index + 1 })}
                              </option>
                            ))}
                          </select>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          </section>

          <section className="panel stack" aria-labelledby="details-title">
            <h2 id="details-title">{t('console.products.details')}</h2>
            <div className="form-row">
              <div className="field">
                <label htmlFor="product-weight">{t('console.products.weight')}</label>
                <input
                  id="product-weight"
                  inputMode="numeric"
                  value={draft.weight}
                  onChange={(event) => update({ weight: event.target.value })}
                />
              </div>
            </div>
            <fieldset className="product-checks">
              <legend>{t('console.products.serviceNotes')}</legend>
              {SERVICE_NOTES.map((note) => (
                <label key={note} className="check">
                  <input
                    type="checkbox"
                    checked={draft.serviceNotes.includes(note)}
                    onChange={(event) =>
                      update({
                        serviceNotes: event.target.checked
                          ? [...draft.serviceNotes, note].sort()
                          : draft.serviceNotes.filter((entry) => entry !== note),
                      })
                    }
                  />
                  <span>{t(`console.products.note.${note}` as MessageKey)}</span>
                </label>
              ))}
            </fieldset>
            <label className="check">
              <input
                type="checkbox"
                checked={draft.finalSale}
                onChange={(event) => update({ finalSale: event.target.checked })}
              />
              <span>{t('console.products.finalSale')}</span>
            </label>
            <fieldset className="product-checks product-checks--groups">
              <legend>{t('console.products.groups')}</legend>
              {groups.map((group) => (
                <label key={group.id} className="check">
                  <input
                    type="checkbox"
                    checked={draft.groupIds.includes(group.id)}
                    onChange={(event) =>
                      update({
                        groupIds: event.target.checked
                          ? [...draft.groupIds, group.id]
                          : draft.groupIds.filter((id) => id !== group.id),
                      })
                    }
                  />
                  <span>
                    {group.name[locale] || group.name.en}{' '}
                    <span className="muted">({t(`console.products.kind.${group.kind}` as MessageKey)})</span>
                  </span>
                </label>
              ))}
            </fieldset>
          </section>
        </fieldset>
        {issues.length ? (
          <div className="notice notice--error" role="alert">
            <p>{t('console.products.fix')}</p>
            <ul>
              {issues.map((issue) => (
                <li key={`${issue.path}:${issue.text}`}>{issue.text}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <ErrorNotice error={save.error} />
        {readOnly ? null : (
          <div className="button-row product-editor__save">
            <button type="submit" className="button button--primary" disabled={save.busy}>
              {product ? t('console.products.save') : t('console.products.create')}
            </button>
          </div>
        )}
      </form>
    </>
  );
}

function languageName(t: ReturnType<typeof useConsoleT>, language: Locale) {
  return t(language === 'en' ? 'console.products.lang.en' : 'console.products.lang.zh');
}

/** One text in both languages side by side; an empty language is marked as a missing translation. */
function BothLanguages({
  id,
  label,
  hint,
  value,
  error,
  multiline = false,
  onChange,
}: {
  id: string;
  label: string;
  hint?: string;
  value: Text;
  error?: string;
  multiline?: boolean;
  onChange: (value: Text) => void;
}) {
  const t = useConsoleT();
  return (
    <fieldset className="product-text">
      <legend>{label}</legend>
      {hint ? <p className="muted product-text__hint">{hint}</p> : null}
      <div className="product-pair">
        {LANGUAGES.map((language) => {
          const fieldId = `${id}-${language}`;
          const missing = !value[language].trim();
          const props = {
            id: fieldId,
            lang: language === 'en' ? 'en' : 'zh-CN',
            value: value[language],
            'aria-invalid': error ? true : undefined,
            'aria-describedby': missing ? `${fieldId}-missing` : undefined,
            onChange: (event: { target: { value: string } }) => onChange({ ...value, [language]: event.target.value }),
          };
          return (
            <div key={language} className="field">
              <label htmlFor={fieldId}>{languageName(t, language)}</label>
              {multiline ? <textarea rows={4} {...props} /> : <input {...props} />}
              {missing ? (
                <p className="translation-missing" id={`${fieldId}-missing`}>
                  {t('console.products.translationMissing')}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

interface StoredImage {
  url: string;
  width: number;
  height: number;
}

/** Uploads files to the console's image store; the answer names each stored image. */
async function uploadImages(files: File[]): Promise<StoredImage[]> {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  const csrf = /(?:^|;\s*)csrf_token=([^;]+)/.exec(document.cookie)?.[1] ?? '';
  const response = await fetch('/v1/admin/media/images', {
    method: 'POST',
    body: form,
    headers: { 'x-csrf-token': csrf, lang: document.documentElement.lang || 'en', accept: 'application/json' },
    credentials: 'same-origin',
  });
  const envelope = (await response.json().catch(() => ({}))) as {
    code?: number;
    msg?: string;
    data?: { images: StoredImage[] };
  };
  if (envelope.code !== 200 || !envelope.data)
    throw new AdminApiError(response.status, envelope.code ?? response.status, envelope.msg ?? response.statusText);
  return envelope.data.images;
}

/** The product's images: upload several at once, drag (or move) to reorder, alt text per language; the first is the cover. */
function ImageStrip({
  images,
  onChange,
  error,
  readOnly,
}: {
  images: ImageDraft[];
  onChange: (images: ImageDraft[]) => void;
  error?: string;
  readOnly: boolean;
}) {
  const t = useConsoleT();
  const input = useRef<HTMLInputElement>(null);
  const dragging = useRef<number | null>(null);
  const upload = useAction(async (files: File[]) => {
    const stored = await uploadImages(files);
    onChange([...images, ...stored.map((image) => ({ ...image, key: newKey(), alt: EMPTY }))]);
  });
  const drop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (dragging.current !== null && dragging.current !== to) onChange(moved(images, dragging.current, to));
    dragging.current = null;
  };
  return (
    <section className="panel stack" aria-labelledby="images-title">
      <div className="panel__head">
        <h2 id="images-title">{t('console.products.images')}</h2>
        {readOnly ? null : (
          <span>
            <input
              ref={input}
              id="product-image-files"
              className="sr-only"
              type="file"
              accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
              multiple
              onChange={(event) => {
                const files = [...(event.target.files ?? [])];
                event.target.value = '';
                if (files.length) void upload.act(files);
              }}
            />
            <label htmlFor="product-image-files" className="button" aria-disabled={upload.busy}>
              {upload.busy ? t('console.products.uploading') : t('console.products.upload')}
            </label>
          </span>
        )}
      </div>
      <p className="muted">{t('console.products.imagesHint')}</p>
      <ErrorNotice error={upload.error} />
      {error ? <p className="field__error">{error}</p> : null}
      {images.length === 0 ? <p className="muted">{t('console.products.noImages')}</p> : null}
      <ol className="image-strip">
        {images.map((image, index) => (
          <li
            key={image.key}
            className="image-strip__item"
            draggable={!readOnly}
            onDragStart={() => {
              dragging.current = index;
            }}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => drop(event, index)}
          >
            <div className="image-strip__picture">
              <img src={image.url} alt="" width={image.width} height={image.height} loading="lazy" />
              {index === 0 ? <span className="image-strip__cover">{t('console.products.cover')}</span> : null}
            </div>
            {LANGUAGES.map((language) => (
              <input
                key={language}
                lang={language === 'en' ? 'en' : 'zh-CN'}
                aria-label={`${t('console.products.alt', { number: index + 1 })} · ${languageName(t, language)}`}
                placeholder={`${t('console.products.altShort')} · ${languageName(t, language)}`}
                value={image.alt[language]}
                onChange={(event) =>
                  onChange(
                    images.map((entry) =>
                      entry.key === image.key
                        ? { ...entry, alt: { ...entry.alt, [language]: event.target.value } }
                        : entry,
                    ),
                  )
                }
              />
            ))}
            {readOnly ? null : (
              <div className="image-strip__actions">
                <button
                  type="button"
                  className="button button--small button--ghost"
                  disabled={index === 0}
                  aria-label={t('console.products.moveLeft', { number: index + 1 })}
                  onClick={() => onChange(moved(images, index, index - 1))}
                >
                  ←
                </button>
                <button
                  type="button"
                  className="button button--small button--ghost"
                  disabled={index === images.length - 1}
                  aria-label={t('console.products.moveRight', { number: index + 1 })}
                  onClick={() => onChange(moved(images, index, index + 1))}
                >
                  →
                </button>
                {index > 0 ? (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => onChange(moved(images, index, 0))}
                  >
                    {t('console.products.makeCover')}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button button--small button--ghost"
                  onClick={() => onChange(images.filter((entry) => entry.key !== image.key))}
                >
                  {t('console.products.removeImage')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
