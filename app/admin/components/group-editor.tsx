import { useEffect, useRef, useState } from 'react';
import {
  MAX_CATEGORY_DEPTH,
  updateGroupBody,
  type EditableGroup,
  type GroupList,
  type GroupProduct,
  type GroupProducts,
} from '../../../server/domains/catalog/groups-editor.schemas';
import { pickText } from '../../../i18n/locales';
import { adminApi } from '../lib/admin-api';
import { useConsole, useConsoleT } from '../lib/console-context';
import { ConfirmDialog, ErrorNotice, Pill, useAction } from './ui';
import { SortableList } from './sortable-list';
import { PanelHead, submitWith } from './page-parts';

/** What the editor beside the lists works on: a group, or a new one of a kind under a parent. */
export type EditorTarget =
  | { kind: 'edit'; group: EditableGroup }
  | { kind: 'create'; groupKind: EditableGroup['kind']; parentId: number | null };

interface Texts {
  en: string;
  'zh-cn': string;
}

/** The ids of a category and everything below it: where it may not be moved. */
function subtreeIds(categories: readonly EditableGroup[], id: number): Set<number> {
  const ids = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const group of categories)
      if (group.parent_id !== null && ids.has(group.parent_id) && !ids.has(group.id)) {
        ids.add(group.id);
        grew = true;
      }
  }
  return ids;
}

function depthOf(categories: readonly EditableGroup[], id: number | null): number {
  let depth = 0;
  for (let current = id; current !== null && depth <= categories.length; depth++)
    current = categories.find((group) => group.id === current)?.parent_id ?? null;
  return depth;
}

/** A field in both languages side by side, marked when one language is filled and the other is not. */
function BothLanguages({
  id,
  labels,
  value,
  onChange,
  multiline = false,
}: {
  id: string;
  labels: [string, string];
  value: Texts;
  onChange: (value: Texts) => void;
  multiline?: boolean;
}) {
  const t = useConsoleT();
  const missing = (locale: keyof Texts) =>
    value[locale].trim() === '' && value[locale === 'en' ? 'zh-cn' : 'en'].trim() !== '';
  return (
    <div className="form-row form-row--pair">
      {(['en', 'zh-cn'] as const).map((locale, index) => (
        <div key={locale} className={`field${missing(locale) ? ' field--missing' : ''}`}>
          <label htmlFor={`${id}-${locale}`}>
            {labels[index]} {missing(locale) ? <Pill tone="warning">{t('console.groups.missing')}</Pill> : null}
          </label>
          {multiline ? (
            <textarea
              id={`${id}-${locale}`}
              lang={locale === 'en' ? 'en' : 'zh-CN'}
              rows={3}
              value={value[locale]}
              onChange={(event) => onChange({ ...value, [locale]: event.target.value })}
            />
          ) : (
            <input
              id={`${id}-${locale}`}
              lang={locale === 'en' ? 'en' : 'zh-CN'}
              value={value[locale]}
              onChange={(event) => onChange({ ...value, [locale]: event.target.value })}
            />
          )}
        </div>
      ))}
    </div>
  );
}

export function GroupEditor({
  target,
  groups,
  onClose,
  onSaved,
}: {
  target: EditorTarget;
  groups: GroupList;
  onClose: () => void;
  onSaved: (message: string, group: EditableGroup | null) => Promise<void>;
}) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const group = target.kind === 'edit' ? target.group : null;
  const kind = group?.kind ?? (target.kind === 'create' ? target.groupKind : 'category');
  const [name, setName] = useState<Texts>(group?.name ?? { en: '', 'zh-cn': '' });
  const [description, setDescription] = useState<Texts>(group?.description ?? { en: '', 'zh-cn': '' });
  const [visible, setVisible] = useState(group?.visible ?? true);
  const [parentId, setParentId] = useState<number | null>(
    group?.parent_id ?? (target.kind === 'create' ? target.parentId : null),
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const panel = useRef<HTMLElement>(null);
  // Below the lists (tablet width) the editor would open out of sight.
  useEffect(() => panel.current?.scrollIntoView({ block: 'nearest' }), []);

  const save = useAction(async () => {
    const body = updateGroupBody.parse({ name, description, visible });
    if (!group) {
      const created = await adminApi<EditableGroup>('/groups', { body: { ...body, kind, parent_id: parentId } });
      await onSaved(t('console.groups.saved'), created);
      return;
    }
    let saved = await adminApi<EditableGroup>(`/groups/${group.id}`, { method: 'PUT', body });
    if (parentId !== group.parent_id) {
      const list = await adminApi<GroupList>(`/groups/${group.id}/move`, {
        body: { parent_id: parentId, index: 10_000 },
      });
      saved = list.categories.find((candidate) => candidate.id === group.id) ?? saved;
    }
    await onSaved(t('console.groups.saved'), saved);
  });
  const remove = useAction(async () => {
    if (!group) return;
    const answer = await adminApi<{ products_unassigned: number }>(`/groups/${group.id}`, { method: 'DELETE' });
    setConfirmDelete(false);
    await onSaved(t('console.groups.deleted', { count: answer.products_unassigned }), null);
  });

  const blocked = group ? subtreeIds(groups.categories, group.id) : new Set<number>();
  const parents = groups.categories.filter(
    (candidate) => !blocked.has(candidate.id) && depthOf(groups.categories, candidate.id) < MAX_CATEGORY_DEPTH,
  );
  const title = group
    ? pickText(group.name, locale)
    : t(kind === 'collection' ? 'console.groups.newSection' : 'console.groups.newCategory');

  return (
    <section ref={panel} className="panel group-editor" aria-labelledby="group-editor-title">
      <PanelHead id="group-editor-title" title={title} onClose={onClose} />
      <form className="stack" noValidate onSubmit={submitWith(save.act)}>
        <BothLanguages
          id="group-name"
          labels={[t('console.groups.nameEn'), t('console.groups.nameZh')]}
          value={name}
          onChange={setName}
        />
        <BothLanguages
          id="group-description"
          labels={[t('console.groups.descriptionEn'), t('console.groups.descriptionZh')]}
          value={description}
          onChange={setDescription}
          multiline
        />
        {kind === 'category' ? (
          <div className="field field--short">
            <label htmlFor="group-parent">{t('console.groups.parent')}</label>
            <select
              id="group-parent"
              value={parentId ?? ''}
              onChange={(event) => setParentId(event.target.value === '' ? null : Number(event.target.value))}
            >
              <option value="">{t('console.groups.topLevel')}</option>
              {parents.map((candidate) => (
                <option key={candidate.id} value={candidate.id}>
                  {'— '.repeat(depthOf(groups.categories, candidate.id) - 1)}
                  {pickText(candidate.name, locale)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <label className="check">
          <input type="checkbox" checked={visible} onChange={(event) => setVisible(event.target.checked)} />
          <span>{t('console.groups.visible')}</span>
        </label>
        <ErrorNotice error={save.error} />
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={save.busy}>
            {t('console.action.save')}
          </button>
          {group ? (
            <button type="button" className="button button--danger-ghost" onClick={() => setConfirmDelete(true)}>
              {t('console.groups.delete')}
            </button>
          ) : null}
        </div>
      </form>
      {group ? <GroupProductsEditor group={group} onSaved={(message) => onSaved(message, group)} /> : null}
      <ConfirmDialog
        open={confirmDelete}
        title={t('console.groups.deleteConfirm')}
        confirmLabel={t('console.groups.delete')}
        onConfirm={() => void remove.act()}
        onClose={() => setConfirmDelete(false)}
        busy={remove.busy}
        error={remove.error}
      >
        <p className="muted">{t('console.groups.deleteHint')}</p>
      </ConfirmDialog>
    </section>
  );
}

/** The group's products in order: reorder, remove, add from a search, then save. */
function GroupProductsEditor({
  group,
  onSaved,
}: {
  group: EditableGroup;
  onSaved: (message: string) => Promise<void>;
}) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const [list, setList] = useState<GroupProduct[] | null>(null);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<GroupProduct[]>([]);
  const load = useAction(async () => {
    setList((await adminApi<GroupProducts>(`/groups/${group.id}/products`)).products);
  });
  useEffect(() => {
    void load.act();
    // Loads once per group (the editor is keyed by it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (!query.trim()) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      adminApi<GroupProduct[]>('/groups/product-picker', { query: { q: query }, signal: controller.signal })
        .then(setFound)
        .catch(() => undefined);
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);
  const save = useAction(async () => {
    if (!list) return;
    const answer = await adminApi<GroupProducts>(`/groups/${group.id}/products`, {
      method: 'PUT',
      body: { product_ids: list.map((product) => product.id) },
    });
    setList(answer.products);
    await onSaved(t('console.groups.saved'));
  });
  const name = (product: GroupProduct) => pickText(product.name, locale);
  const inList = new Set((list ?? []).map((product) => product.id));

  return (
    <div className="group-products stack">
      <h3 className="card__subtitle">{t('console.groups.assigned')}</h3>
      <p className="field__hint">{t('console.groups.assignedHint')}</p>
      <ErrorNotice error={load.error} />
      {list === null ? null : list.length === 0 ? (
        <p className="muted">{t('console.groups.noProducts')}</p>
      ) : (
        <SortableList
          items={list}
          nameOf={name}
          label={t('console.groups.assigned')}
          onMove={(product, index) => {
            const rest = list.filter((candidate) => candidate.id !== product.id);
            setList([...rest.slice(0, index), product, ...rest.slice(index)]);
          }}
          renderItem={(product) => (
            <div className="group-row">
              <span className="group-row__product">
                {product.image ? <img src={`${product.image}?w=80`} alt="" width={32} height={32} /> : null}
                <span>{name(product)}</span>
                {product.listed ? null : <Pill tone="warning">{t('console.groups.unlisted')}</Pill>}
              </span>
              <button
                type="button"
                className="button button--small button--ghost"
                onClick={() => setList(list.filter((candidate) => candidate.id !== product.id))}
              >
                {t('console.groups.remove')}
              </button>
            </div>
          )}
        />
      )}
      <div className="field">
        <label htmlFor="group-product-search">{t('console.groups.addProduct')}</label>
        <input
          id="group-product-search"
          type="search"
          placeholder={t('console.groups.search')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      <ul className="plain-list group-picker">
        {(query.trim() ? found : [])
          .filter((product) => !inList.has(product.id))
          .slice(0, 8)
          .map((product) => (
            <li key={product.id}>
              <span>{name(product)}</span>
              <button
                type="button"
                className="button button--small"
                onClick={() => setList([...(list ?? []), product])}
              >
                {t('console.groups.add')}
              </button>
            </li>
          ))}
      </ul>
      <ErrorNotice error={save.error} />
      <div className="button-row">
        <button
          type="button"
          className="button button--primary"
          disabled={save.busy || !list}
          onClick={() => void save.act()}
        >
          {t('console.groups.saveProducts')}
        </button>
      </div>
    </div>
  );
}
