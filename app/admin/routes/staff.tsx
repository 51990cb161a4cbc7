import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useRevalidator, type ClientLoaderFunctionArgs } from 'react-router';
import type { z } from 'zod';
import { LOCALES, pickText } from '../../../i18n/locales';
import {
  inviteBody,
  type invitationView,
  type RoleView,
  type staffMemberDetail,
  type StaffMemberView,
} from '../../../server/domains/staff/staff.schemas';
import { adminApi, requireStaff } from '../lib/admin-api';
import { useConsole, useConsoleT, usePageData } from '../lib/console-context';
import { countText, formatDateTime } from '../lib/format';
import { ConfirmDialog, EmptyState, ErrorNotice, Notice, PageHeader, Pill, useAction, Field } from '../components/ui';

type Invitation = z.infer<typeof invitationView>;
type MemberDetail = z.infer<typeof staffMemberDetail>;

export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  await requireStaff(request);
  const [members, invitations, roles] = await Promise.all([
    adminApi<StaffMemberView[]>('/staff', { signal: request.signal }),
    adminApi<Invitation[]>('/staff/invitations', { signal: request.signal }),
    adminApi<RoleView[]>('/roles', { signal: request.signal }),
  ]);
  return { members, invitations, roles };
}

export function HydrateFallback() {
  return <div className="skeleton skeleton--block" aria-hidden="true" />;
}

/** Staff: members with their roles, two-step state and last sign-in; invite by email; edit, disable, end sessions. */
export default function StaffPage() {
  const { members, invitations, roles } = usePageData<typeof clientLoader>();
  const { locale } = useConsole();
  const t = useConsoleT();
  const revalidator = useRevalidator();
  const [inviting, setInviting] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const changed = async (message: string) => {
    setDone(message);
    await revalidator.revalidate();
  };
  return (
    <>
      <PageHeader
        title={t('console.staff.title')}
        actions={
          <button
            type="button"
            className="button button--primary"
            aria-expanded={inviting}
            onClick={() => setInviting((open) => !open)}
          >
            {t('console.staff.invite')}
          </button>
        }
      >
        <p className="muted">{countText(t, 'console.staff.count', members.length)}</p>
      </PageHeader>
      {done ? <Notice>{done}</Notice> : null}
      {inviting ? (
        <InviteForm
          roles={roles}
          onDone={async (email) => {
            setInviting(false);
            await changed(t('console.staff.invited', { email }));
          }}
        />
      ) : null}
      <div className="table-wrap">
        <table className="data-table">
          <caption className="sr-only">{t('console.staff.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('console.staff.member')}</th>
              <th scope="col">{t('console.staff.roles')}</th>
              <th scope="col">{t('console.staff.twoStep')}</th>
              <th scope="col">{t('console.staff.lastSignIn')}</th>
              <th scope="col">{t('console.orders.col.status')}</th>
              <th scope="col">
                <span className="sr-only">{t('console.order.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.id}>
                <td>
                  <span className="cell-stack">
                    <strong>{member.name}</strong>
                    <span className="muted">{member.email}</span>
                  </span>
                </td>
                <td>{member.roles.map((role) => pickText(role.name, locale)).join(', ')}</td>
                <td>
                  <Pill tone={member.second_factor_enabled ? 'success' : 'neutral'}>
                    {t(member.second_factor_enabled ? 'console.staff.on' : 'console.staff.off')}
                  </Pill>
                </td>
                <td>{formatDateTime(member.last_sign_in_at, locale)}</td>
                <td>
                  <Pill tone={member.disabled_at ? 'warning' : 'success'}>
                    {t(member.disabled_at ? 'console.staff.disabled' : 'console.staff.active')}
                  </Pill>
                </td>
                <td className="numeric">
                  <button type="button" className="button button--small" onClick={() => setSelected(member.id)}>
                    {t('console.staff.manage')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {selected !== null ? (
        <MemberEditor
          key={selected}
          id={selected}
          roles={roles}
          onClose={() => setSelected(null)}
          onChanged={changed}
        />
      ) : null}

      <section className="card" aria-labelledby="invitations-title">
        <h2 className="card__title" id="invitations-title">
          {t('console.staff.pending')}
        </h2>
        {invitations.length === 0 ? (
          <EmptyState title={t('console.staff.noInvitations')} />
        ) : (
          <ul className="plain-list">
            {invitations.map((invitation) => (
              <li key={invitation.id}>
                <strong>{invitation.email}</strong> ·{' '}
                {invitation.roles.map((role) => pickText(role.name, locale)).join(', ')}
                <span className="muted">
                  {' '}
                  · {t('console.staff.expires', { at: formatDateTime(invitation.expires_at, locale) })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function RoleChecks({
  roles,
  chosen,
  onToggle,
  legend,
}: {
  roles: RoleView[];
  chosen: number[];
  onToggle: (id: number) => void;
  legend: string;
}) {
  const { locale } = useConsole();
  return (
    <fieldset className="check-group">
      <legend>{legend}</legend>
      {roles.map((role) => (
        <label key={role.id} className="check">
          <input type="checkbox" checked={chosen.includes(role.id)} onChange={() => onToggle(role.id)} />
          <span>{pickText(role.name, locale)}</span>
        </label>
      ))}
    </fieldset>
  );
}

function InviteForm({ roles, onDone }: { roles: RoleView[]; onDone: (email: string) => Promise<void> }) {
  const t = useConsoleT();
  const { locale } = useConsole();
  const form = useForm<z.input<typeof inviteBody>, unknown, z.output<typeof inviteBody>>({
    resolver: zodResolver(inviteBody),
    defaultValues: { email: '', role_ids: [], locale },
  });
  const invite = useAction(async (body: z.output<typeof inviteBody>) => {
    await adminApi('/staff/invitations', { body });
    await onDone(body.email);
  });
  const chosen = form.watch('role_ids');
  const errors = form.formState.errors;
  return (
    <section className="panel" aria-labelledby="invite-title">
      <h2 id="invite-title">{t('console.staff.invite')}</h2>
      <form className="stack" onSubmit={form.handleSubmit((body) => invite.act(body))} noValidate>
        <div className="form-row">
          <Field
            id="invite-email"
            label={t('console.field.email')}
            error={errors.email ? t('console.form.email') : undefined}
          >
            <input id="invite-email" type="email" autoComplete="off" {...form.register('email')} />
          </Field>
          <div className="field">
            <label htmlFor="invite-locale">{t('console.field.language')}</label>
            <select id="invite-locale" {...form.register('locale')}>
              {LOCALES.map((option) => (
                <option key={option} value={option}>
                  {t(option === 'en' ? 'console.language.en' : 'console.language.zh')}
                </option>
              ))}
            </select>
          </div>
        </div>
        <RoleChecks
          roles={roles}
          chosen={chosen}
          legend={t('console.staff.roles')}
          onToggle={(id) =>
            form.setValue('role_ids', chosen.includes(id) ? chosen.filter((other) => other !== id) : [...chosen, id], {
              shouldValidate: form.formState.isSubmitted,
            })
          }
        />
        {errors.role_ids ? (
          <p className="field__error" role="alert">
            {t('console.staff.chooseRole')}
          </p>
        ) : null}
        <ErrorNotice error={invite.error} />
        <button type="submit" className="button button--primary" disabled={invite.busy}>
          {t('console.staff.sendInvite')}
        </button>
      </form>
    </section>
  );
}

function MemberEditor({
  id,
  roles,
  onClose,
  onChanged,
}: {
  id: number;
  roles: RoleView[];
  onClose: () => void;
  onChanged: (message: string) => Promise<void>;
}) {
  const t = useConsoleT();
  const { locale, staff } = useConsole();
  const [detail, setDetail] = useState<MemberDetail | null>(null);
  const [chosen, setChosen] = useState<number[]>([]);
  const [name, setName] = useState('');
  const [confirmDisable, setConfirmDisable] = useState(false);
  const load = useAction(async () => {
    const member = await adminApi<MemberDetail>(`/staff/${id}`);
    setDetail(member);
    setChosen(member.roles.map((role) => role.id));
    setName(member.name);
  });
  const save = useAction(async () => {
    await adminApi(`/staff/${id}`, { method: 'PUT', body: { name, role_ids: chosen } });
    await onChanged(t('console.staff.saved'));
    onClose();
  });
  const toggleDisabled = useAction(async () => {
    await adminApi(`/staff/${id}/${detail?.disabled_at ? 'enable' : 'disable'}`, { body: {} });
    setConfirmDisable(false);
    await onChanged(t('console.staff.saved'));
    onClose();
  });
  const endSession = useAction(async (sessionId: number) => {
    await adminApi(`/staff/${id}/sessions/${sessionId}`, { method: 'DELETE' });
    await load.act();
  });
  useEffect(() => {
    void load.act();
    // Once per member opened (the editor is keyed by id).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <section className="panel" aria-labelledby="member-editor-title">
      <div className="panel__head">
        <h2 id="member-editor-title">{detail ? detail.email : t('console.staff.manage')}</h2>
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('console.action.close')}
        </button>
      </div>
      <ErrorNotice error={load.error} />
      {detail ? (
        <div className="stack">
          <form
            className="stack"
            onSubmit={(event) => {
              event.preventDefault();
              void save.act();
            }}
          >
            <div className="field">
              <label htmlFor="member-name">{t('console.field.name')}</label>
              <input id="member-name" value={name} onChange={(event) => setName(event.target.value)} />
            </div>
            <RoleChecks
              roles={roles}
              chosen={chosen}
              legend={t('console.staff.roles')}
              onToggle={(roleId) =>
                setChosen((current) =>
                  current.includes(roleId) ? current.filter((other) => other !== roleId) : [...current, roleId],
                )
              }
            />
            <ErrorNotice error={save.error} />
            <div className="button-row">
              <button type="submit" className="button button--primary" disabled={save.busy || chosen.length === 0}>
                {t('console.action.save')}
              </button>
              {detail.id === staff?.id ? null : (
                <button
                  type="button"
                  className={detail.disabled_at ? 'button' : 'button button--danger-ghost'}
                  onClick={() => (detail.disabled_at ? void toggleDisabled.act() : setConfirmDisable(true))}
                >
                  {t(detail.disabled_at ? 'console.staff.enable' : 'console.staff.disable')}
                </button>
              )}
            </div>
          </form>
          <h3 className="card__subtitle">{t('console.sessions.title')}</h3>
          {detail.sessions.length === 0 ? (
            <p className="muted">{t('console.sessions.none')}</p>
          ) : (
            <ul className="plain-list">
              {detail.sessions.map((session) => (
                <li key={session.id} className="session-row">
                  <span>
                    {session.user_agent ?? '—'} <span className="muted mono">{session.ip ?? ''}</span>
                    <span className="muted">
                      {' '}
                      · {t('console.sessions.lastSeen', { at: formatDateTime(session.last_seen_at, locale) })}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => void endSession.act(session.id)}
                  >
                    {t('console.sessions.end')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <ErrorNotice error={endSession.error ?? toggleDisabled.error} />
        </div>
      ) : null}
      <ConfirmDialog
        open={confirmDisable}
        title={t('console.staff.disableConfirm', { email: detail?.email ?? '' })}
        confirmLabel={t('console.staff.disable')}
        onConfirm={() => void toggleDisabled.act()}
        onClose={() => setConfirmDisable(false)}
        busy={toggleDisabled.busy}
        error={toggleDisabled.error}
      />
    </section>
  );
}
