import { useEffect, useState, type ReactNode } from 'react';
import { type ClientLoaderFunctionArgs } from 'react-router';
import {
  MAX_CATEGORY_DEPTH,
  type EditableGroup,
  type GroupList,
} from '../../../server/domains/catalog/groups-editor.schemas';
import { pickText } from '../../../i18n/locales';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText } from '../lib/format';
import { ErrorNotice, Notice, PageHeader, Pill, SkeletonRows, useAction } from '../components/ui';
import { SortableList } from '../components/sortable-list';
import { GroupEditor, type EditorTarget } from '../components/group-editor';
import '../styles/groups-inventory.css';

/**
 * Groups and home sections (catalog:write; docs/console.md): the category tree and the home
 * page's sections in their order, each level reordered by dragging or from the keyboard; the
 * editor beside them renames in both languages, hides, moves, deletes and fills a group.
 */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { groups: await adminApi<GroupList>('/groups', { signal: request.signal }) };
}

export function HydrateFallback() {
  return <SkeletonRows />;
}

/** Moves an item to `index` among `items` (the order the list shows until the server answers). */
function reordered<T extends { id: number }>(items: readonly T[], item: T, index: number): T[] {
  const rest = items.filter((candidate) => candidate.id !== item.id);
  return [...rest.slice(0, index), item, ...rest.slice(index)];
}

export default function GroupsPage() {
  const loaded = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const [groups, setGroups] = useState(loaded.groups);
  const [target, setTarget] = useState<EditorTarget | null>(null);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => setGroups(loaded.groups), [loaded.groups]);

  const reload = async () => setGroups(await adminApi<GroupList>('/groups'));
  const moveAction = useAction(async (group: EditableGroup, index: number, parentId: number | null) => {
    try {
      setGroups(await adminApi<GroupList>(`/groups/${group.id}/move`, { body: { parent_id: parentId, index } }));
    } catch (error) {
      await reload();
      throw error;
    }
  });

  const moveWithin = (list: 'categories' | 'collections') => (group: EditableGroup, index: number) => {
    const siblings = groups[list].filter((candidate) => candidate.parent_id === group.parent_id);
    const order = reordered(siblings, group, index);
    // Shown at once; the server's answer (or a reload after a refusal) replaces it.
    setGroups({
      ...groups,
      [list]: [...groups[list].filter((candidate) => candidate.parent_id !== group.parent_id), ...order],
    });
    void moveAction.act(group, index, group.parent_id);
  };

  const name = (group: EditableGroup) => pickText(group.name, locale);

  const row = (group: EditableGroup, depth: number) => (
    <div
      className={`group-row${target?.kind === 'edit' && target.group.id === group.id ? ' group-row--selected' : ''}`}
    >
      <button
        type="button"
        className="group-row__name text-button"
        onClick={() => {
          setDone(null);
          setTarget({ kind: 'edit', group });
        }}
      >
        <span lang="en">{group.name.en}</span>
        <span className="group-row__zh" lang="zh-CN">
          {group.name['zh-cn']}
        </span>
      </button>
      <span className="group-row__meta">
        {group.visible ? null : <Pill tone="warning">{t('console.groups.hidden')}</Pill>}
        <span className="muted">{countText(t, 'console.groups.products', group.product_count)}</span>
        {group.kind === 'category' && depth < MAX_CATEGORY_DEPTH ? (
          <button
            type="button"
            className="button button--small button--ghost"
            onClick={() => setTarget({ kind: 'create', groupKind: 'category', parentId: group.id })}
          >
            {t('console.groups.newSub')}
          </button>
        ) : null}
      </span>
    </div>
  );

  const tree = (parentId: number | null, depth: number) => {
    const level = groups.categories.filter((group) => group.parent_id === parentId);
    if (level.length === 0) return null;
    return (
      <SortableList
        items={level}
        nameOf={name}
        onMove={moveWithin('categories')}
        label={
          parentId === null ? t('console.groups.categories') : name(groups.categories.find((g) => g.id === parentId)!)
        }
        className={depth > 1 ? 'sortable--nested' : ''}
        renderItem={(group) => (
          <>
            {row(group, depth)}
            {tree(group.id, depth + 1)}
          </>
        )}
      />
    );
  };

  return (
    <>
      <PageHeader title={t('console.groups.title')}>
        <p className="muted" id="sortable-help">
          {t('console.groups.intro')}
        </p>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      <ErrorNotice error={moveAction.error} />
      <div className="groups-layout">
        <div className="groups-layout__lists">
          <ListCard
            id="sections-title"
            title={t('console.groups.sections')}
            newLabel={t('console.groups.newSection')}
            onNew={() => setTarget({ kind: 'create', groupKind: 'collection', parentId: null })}
          >
            <SortableList
              items={groups.collections}
              nameOf={name}
              onMove={moveWithin('collections')}
              label={t('console.groups.sections')}
              renderItem={(group) => row(group, 1)}
            />
          </ListCard>
          <ListCard
            id="categories-title"
            title={t('console.groups.categories')}
            newLabel={t('console.groups.newCategory')}
            onNew={() => setTarget({ kind: 'create', groupKind: 'category', parentId: null })}
          >
            {tree(null, 1)}
          </ListCard>
        </div>
        <div className="groups-layout__editor">
          {target ? (
            <GroupEditor
              key={target.kind === 'edit' ? target.group.id : `new-${target.groupKind}-${target.parentId}`}
              target={target}
              groups={groups}
              onClose={() => setTarget(null)}
              onSaved={async (message, group) => {
                setDone(message);
                await reload();
                setTarget(group ? { kind: 'edit', group } : null);
              }}
            />
          ) : null}
        </div>
      </div>
    </>
  );
}

/** One of the two lists (home sections, category tree) with its "New" button. */
function ListCard({
  id,
  title,
  newLabel,
  onNew,
  children,
}: {
  id: string;
  title: string;
  newLabel: string;
  onNew: () => void;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <div className="panel__head">
        <h2 className="card__title" id={id}>
          {title}
        </h2>
        <button type="button" className="button button--small" onClick={onNew}>
          {newLabel}
        </button>
      </div>
      {children}
    </section>
  );
}
