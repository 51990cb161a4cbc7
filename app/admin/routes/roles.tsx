import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { pickText } from '../../../i18n/locales';
import { permissionList, roleBody, type RoleView } from '../../../server/domains/staff/staff.schemas';
import type { Permission } from '../../../server/domains/staff/permissions';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText, formatMoney, majorToMinor, minorToMajorText } from '../lib/format';
import { useSettlementCurrency } from '../lib/settlement';
import { AREA_LABELS, PERMISSION_LABELS } from '../lib/permission-labels';
import { ConfirmDialog, ErrorNotice, Notice, PageHeader, Pill, useAction } from '../components/ui';

/** Every permission there is, grouped by its area (`orders:read` -> orders). */
const PERMISSION_GROUPS: [string, Permission[]][] = [];
for (const permission of permissionList.element.options) {
  const area = permission.split(':')[0] ?? permission;
  const group = PERMISSION_GROUPS.find(([name]) => name === area);
  if (group) group[1].push(permission);
  else PERMISSION_GROUPS.push([area, [permission]]);
}

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  return { roles: await adminApi<RoleView[]>('/roles', { signal: request.signal }) };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

export default function RolesPage() {
  const { roles } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const currency = useSettlementCurrency();
  const revalidator = useRevalidator();
  const [editing, setEditing] = useState<RoleView | 'new' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <>
      <PageHeader
        title={t('console.roles.title')}
        actions={
          <button type="button" className="button button--primary" onClick={() => setEditing('new')}>
            {t('console.roles.new')}
          </button>
        }
      >
        <p className="muted">{t('console.roles.intro')}</p>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      {editing ? (
        <RoleEditor
          key={editing === 'new' ? 'new' : editing.id}
          role={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={async (message) => {
            setEditing(null);
            setDone(message);
            await revalidator.revalidate();
          }}
        />
      ) : null}
      <div className="role-grid">
        {roles.map((role) => (
          <article key={role.id} className="card role-card" aria-labelledby={`role-${role.id}`}>
            <header className="role-card__head">
              <h2 id={`role-${role.id}`} className="card__title">
                {pickText(role.name, locale)}
              </h2>
              {role.built_in ? (
                <Pill tone="info">{t('console.roles.builtIn')}</Pill>
              ) : (
                <Pill>{t('console.roles.custom')}</Pill>
              )}
            </header>
            <p className="muted">
              {countText(t, 'console.roles.members', role.member_count)} ·{' '}
              {role.refund_limit_minor === null
                ? t('console.roles.noLimit')
                : t('console.roles.limit', { amount: formatMoney(role.refund_limit_minor, currency, locale) })}
              {role.requires_second_factor ? ` · ${t('console.roles.twoStepRequired')}` : ''}
            </p>
            <ul className="permission-tags">
              {role.permissions.map((permission) => (
                <li key={permission} title={permission}>
                  {t(PERMISSION_LABELS[permission])}
                </li>
              ))}
            </ul>
            {role.key === 'owner' ? null : (
              <button type="button" className="button button--small" onClick={() => setEditing(role)}>
                {t('console.roles.edit')}
              </button>
            )}
          </article>
        ))}
      </div>
    </>
  );
}

type RoleValues = z.input<typeof roleBody>;

function RoleEditor({
  role,
  onClose,
  onSaved,
}: {
  role: RoleView | null;
  onClose: () => void;
  onSaved: (message: string) => Promise<void>;
}) {
  const t = useConsoleT();
  const currency = useSettlementCurrency();
  const [limitText, setLimitText] = useState(
    role?.refund_limit_minor === null || role === null
      ? role
        ? ''
        : '0'
      : minorToMajorText(role.refund_limit_minor, currency),
  );
  const [confirmDelete, setConfirmDelete] = useState(false);
  const form = useForm<RoleValues, unknown, z.output<typeof roleBody>>({
    resolver: zodResolver(roleBody),
    defaultValues: {
      name: role?.name ?? { en: '', 'zh-cn': '' },
      permissions: role?.permissions ?? [],
      refund_limit_minor: role?.refund_limit_minor ?? 0,
    },
  });
  const save = useAction(async (body: z.output<typeof roleBody>) => {
    if (role) await adminApi(`/roles/${role.id}`, { method: 'PUT', body });
    else await adminApi('/roles', { body });
    await onSaved(t('console.roles.saved'));
  });
  const remove = useAction(async () => {
    if (!role) return;
    await adminApi(`/roles/${role.id}`, { method: 'DELETE' });
    await onSaved(t('console.roles.deleted'));
  });
  const builtIn = role?.built_in ?? false;
  const errors = form.formState.errors;
  const limitMinor = limitText.trim() === '' ? null : majorToMinor(limitText, currency);
  return (
    <section className="panel" aria-labelledby="role-editor-title">
      <div className="panel__head">
        <h2 id="role-editor-title">{role ? t('console.roles.editTitle') : t('console.roles.new')}</h2>
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('console.action.close')}
        </button>
      </div>
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          form.setValue('refund_limit_minor', limitMinor ?? null);
          void form.handleSubmit((body) => save.act(body))(event);
        }}
      >
        <div className="form-row">
          <div className={`field${errors.name?.en ? ' field--invalid' : ''}`}>
            <label htmlFor="role-name-en">{t('console.roles.nameEn')}</label>
            <input id="role-name-en" disabled={builtIn} {...form.register('name.en')} />
          </div>
          <div className={`field${errors.name?.['zh-cn'] ? ' field--invalid' : ''}`}>
            <label htmlFor="role-name-zh">{t('console.roles.nameZh')}</label>
            <input id="role-name-zh" disabled={builtIn} {...form.register('name.zh-cn')} />
          </div>
        </div>
        {errors.name ? (
          <p className="field__error" role="alert">
            {t('console.form.required')}
          </p>
        ) : null}
        <div className="permission-groups">
          {PERMISSION_GROUPS.map(([area, permissions]) => (
            <fieldset key={area} className="check-group" disabled={builtIn}>
              <legend>{AREA_LABELS[area] ? t(AREA_LABELS[area]) : area}</legend>
              {permissions.map((permission) => (
                <label key={permission} className="check">
                  <input type="checkbox" value={permission} {...form.register('permissions')} />
                  <span>
                    {t(PERMISSION_LABELS[permission])}
                    <span className="muted mono"> {permission}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
        <div className={`field field--short${limitText.trim() !== '' && limitMinor === null ? ' field--invalid' : ''}`}>
          <label htmlFor="role-limit">{t('console.roles.refundLimit', { currency })}</label>
          <input
            id="role-limit"
            inputMode="decimal"
            value={limitText}
            onChange={(event) => setLimitText(event.target.value)}
          />
          <p className="field__hint">{t('console.roles.refundLimitHint')}</p>
        </div>
        <ErrorNotice error={save.error ?? remove.error} />
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={save.busy}>
            {t('console.action.save')}
          </button>
          {role && !builtIn ? (
            <button type="button" className="button button--danger-ghost" onClick={() => setConfirmDelete(true)}>
              {t('console.roles.delete')}
            </button>
          ) : null}
        </div>
      </form>
      <ConfirmDialog
        open={confirmDelete}
        title={t('console.roles.deleteConfirm')}
        confirmLabel={t('console.roles.delete')}
        onConfirm={() => void remove.act()}
        onClose={() => setConfirmDelete(false)}
        busy={remove.busy}
        error={remove.error}
      />
    </section>
  );
}
