import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type ChangeEvent, useEffect, useId, useState } from 'react';
import { ApiError, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { codeOf, errorText } from '../../ui/errors.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { ConfirmButton, Field, refusalOf } from '../../ui/form.js';
import { admins } from '../nav.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './users.css';

type User = Schema<'UserDetails'>;
type Plan = Schema<'Plan'>;

/** The refusals of the user routes that name a field of the form. */
const FIELD_OF = {
  ERR_EMAIL_ALREADY_EXISTS: 'email',
  ERR_INVALID_EMAIL: 'email',
  ERR_INVALID_NAME: 'name',
  ERR_PASSWORD_TOO_SHORT: 'password',
  ERR_PASSWORD_TOO_LONG: 'password',
  ERR_CANNOT_CHANGE_OWN_PROFILE: 'profile',
  ERR_NO_CONNECTION_FOUND: 'chatappId',
  ERR_QUEUE_NOT_FOUND: 'queueIds',
} as const;
type UserField = (typeof FIELD_OF)[keyof typeof FIELD_OF] | 'startWork' | 'endWork' | 'farewellMessage';
/** The fields whose schema refusal (`ERR_VALIDATION`) the screen says in its own words, in the reader's language. */
const OWN_WORDS = ['name', 'email', 'password', 'startWork', 'endWork', 'farewellMessage'] as const;

/** The per-user switches of `POST`/`PUT /users`, each as the wire spells "on" and "off". */
const PERMISSIONS = {
  allTicket: ['enable', 'disable'],
  allUserChat: ['enabled', 'disabled'],
  allHistoric: ['enabled', 'disabled'],
  userClosePendingTicket: ['enabled', 'disabled'],
  showDashboard: ['enabled', 'disabled'],
  allowRealTime: ['enabled', 'disabled'],
  allowConnections: ['enabled', 'disabled'],
  allowGroup: [true, false],
} as const;
type Permission = keyof typeof PERMISSIONS;
type Permissions = Record<Permission, boolean>;
/** What a new user gets when the form leaves a switch alone (the server's defaults). */
const NEW_USER_PERMISSIONS: Permissions = {
  allTicket: false,
  allUserChat: false,
  allHistoric: false,
  userClosePendingTicket: true,
  showDashboard: false,
  allowRealTime: false,
  allowConnections: false,
  allowGroup: false,
};

function permissionsOf(user: User): Permissions {
  const out = { ...NEW_USER_PERMISSIONS };
  for (const key of Object.keys(PERMISSIONS) as Permission[]) out[key] = user[key] === PERMISSIONS[key][0];
  return out;
}

function wirePermissions(p: Permissions) {
  return {
    allTicket: p.allTicket ? 'enable' : 'disable',
    allUserChat: p.allUserChat ? 'enabled' : 'disabled',
    allHistoric: p.allHistoric ? 'enabled' : 'disabled',
    userClosePendingTicket: p.userClosePendingTicket ? 'enabled' : 'disabled',
    showDashboard: p.showDashboard ? 'enabled' : 'disabled',
    allowRealTime: p.allowRealTime ? 'enabled' : 'disabled',
    allowConnections: p.allowConnections ? 'enabled' : 'disabled',
    allowGroup: p.allowGroup,
  } as const;
}

type ProfileChoice = 'user' | 'admin' | 'super';
const profileOf = (user: Pick<User, 'profile' | 'super'>): ProfileChoice => (user.super ? 'super' : user.profile);

/** The company's plan (`GET /companies/listPlan/:id`): its user limit, refetched with the users (a `user` frame). */
function usePlan(companyId: number | undefined) {
  const { api } = useServices();
  return useQuery({
    queryKey: [...keys.users, 'plan', companyId],
    queryFn: () => must(api.GET('/companies/listPlan/{id}', { params: { path: { id: companyId! } } })),
    enabled: companyId !== undefined,
    select: (company) => company.plan,
  });
}

/** `/users`: the company's users, searched and paged, live; admins create, edit (with a picture) and delete them. */
export function Users() {
  const { t } = useScreenStrings('users', strings);
  const session = useSession();
  if (!session || !admins(session.user)) {
    return (
      <section className="admin-screen" aria-labelledby="users-title">
        <h1 id="users-title">{t('title')}</h1>
        <p className="placeholder">{t('adminsOnly')}</p>
      </section>
    );
  }
  return <UserList selfId={session.user.id} companyId={session.user.companyId} actorIsSuper={session.user.super === true} />;
}

function UserList({ selfId, companyId, actorIsSuper }: { selfId: number; companyId: number; actorIsSuper: boolean }) {
  const { t } = useScreenStrings('users', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [notice, setNotice] = useState('');

  // Under `users`: a `user` frame (another admin's change) refetches the pages, the total and the plan.
  const list = usePagedList({
    key: keys.users,
    fetch: (pageNumber, searchParam) => must(api.GET('/users', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.users,
  });
  // The company's whole count, whatever the search: what the plan's limit is about.
  const total = useQuery({
    queryKey: [...keys.users, 'total'],
    queryFn: () => must(api.GET('/users', { params: { query: { pageNumber: 1 } } })),
    select: (page) => page.count,
  });
  const plan = usePlan(companyId);

  const remove = useMutation({
    mutationFn: (user: User) => must(api.DELETE('/users/{userId}', { params: { path: { userId: user.id } } })),
    onSuccess: (_, user) => {
      setNotice(t('deleted', { name: user.name }));
      void client.invalidateQueries({ queryKey: keys.users });
    },
  });

  return (
    <section className="admin-screen" aria-labelledby="users-title">
      <AdminHeader
        titleId="users-title"
        title={t('title')}
        intro={t('intro')}
        aside={<PlanUsage plan={plan.data ?? null} total={total.data} t={t} />}
        search={{ label: t('search'), placeholder: t('searchShort'), className: 'users-search', value: list.search, onChange: list.setSearch }}
        add={{ label: t('add'), onClick: () => setEditing('new') }}
      />
      <AdminList
        labelledBy="users-title"
        className="users-table"
        list={list}
        notice={notice}
        errors={[remove.error && errorText(t, remove.error), list.error ? errorText(t, list.error) : null]}
        count={(count) => t('count', { count })}
        empty={t('empty')}
        noMatch={t('noMatch')}
        head={
          <>
            <th scope="col">{t('columns.user')}</th>
            <th scope="col">{t('columns.email')}</th>
            <th scope="col">{t('columns.profile')}</th>
            <th scope="col">{t('columns.queues')}</th>
            <th scope="col">{t('columns.status')}</th>
            <th scope="col">{t('list.actions')}</th>
          </>
        }
        row={(user) => (
          <tr key={user.id} data-testid={`user-${user.id}`}>
            <th scope="row">
              <span className="user-cell">
                <Avatar user={user} />
                <span>
                  {user.name}
                  {user.id === selfId && <span className="muted"> ({t('you')})</span>}
                </span>
              </span>
            </th>
            <td data-label={t('columns.email')} className="user-email">
              {user.email}
            </td>
            <td data-label={t('columns.profile')}>{t(`profiles.${profileOf(user)}`)}</td>
            <td data-label={t('columns.queues')}>
              {user.queues.length === 0 ? (
                <span className="muted">{t('noQueues')}</span>
              ) : (
                <span className="user-queues">
                  {user.queues.map((q) => (
                    <span key={q.id} className="user-queue">
                      <span className="swatch" style={{ background: q.color }} aria-hidden="true" />
                      {q.name}
                    </span>
                  ))}
                </span>
              )}
            </td>
            <td data-label={t('columns.status')}>{user.online ? t('online') : t('offline')}</td>
            <td>
              <div className="row-actions">
                <button type="button" className="small" aria-label={t('editLabel', { name: user.name })} onClick={() => setEditing(user)}>
                  {t('list.edit')}
                </button>
                {user.id === selfId ? (
                  <span className="muted small-text">{t('notYourself')}</span>
                ) : (
                  <ConfirmButton
                    className="small"
                    label={t('list.delete')}
                    title={t('deleteTitle', { name: user.name })}
                    description={t('deleteBody')}
                    confirmLabel={t('list.delete')}
                    disabled={remove.isPending}
                    onConfirm={() => remove.mutate(user)}
                  />
                )}
              </div>
            </td>
          </tr>
        )}
      />
      {editing && (
        <UserDialog
          user={editing === 'new' ? null : editing}
          selfId={selfId}
          actorIsSuper={actorIsSuper}
          plan={plan.data ?? null}
          planFull={!!plan.data && total.data !== undefined && total.data >= plan.data.users}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved.name }));
          }}
        />
      )}
    </section>
  );
}

/** How many users the company has against its plan's limit, and a warning once it is reached. */
function PlanUsage({ plan, total, t }: { plan: Plan | null; total: number | undefined; t: TFunction }) {
  if (!plan || total === undefined) return null;
  return (
    <div className="plan-usage" data-testid="plan-usage">
      <p>{t('plan.usage', { count: total, limit: plan.users, plan: plan.name })}</p>
      {total >= plan.users && <p className="plan-full">{t('plan.full')}</p>}
    </div>
  );
}

function avatarUrl(backendUrl: string, user: Pick<User, 'companyId' | 'profileImage'>): string | null {
  return user.profileImage ? `${backendUrl}/public/company${user.companyId}/user/${encodeURIComponent(user.profileImage)}` : null;
}

/** The user's picture, or their initial when they have none (or it cannot be loaded). */
function Avatar({ user, big = false }: { user: Pick<User, 'companyId' | 'profileImage' | 'name'>; big?: boolean }) {
  const { config } = useServices();
  const url = avatarUrl(config.backendUrl, user);
  const [broken, setBroken] = useState<string | null>(null);
  if (url && broken !== url) {
    return <img className={big ? 'user-avatar big' : 'user-avatar'} src={url} alt="" onError={() => setBroken(url)} />;
  }
  return (
    <span className={big ? 'user-avatar big' : 'user-avatar'} aria-hidden="true">
      {user.name.trim().charAt(0).toUpperCase()}
    </span>
  );
}

/** Creating or editing one user; the server's refusals shown at their fields, nothing lost on a refusal. */
function UserDialog({
  user,
  selfId,
  actorIsSuper,
  plan,
  planFull,
  close,
}: {
  user: User | null;
  selfId: number;
  actorIsSuper: boolean;
  plan: Plan | null;
  planFull: boolean;
  close: (saved: User | null) => void;
}) {
  const { t } = useScreenStrings('users', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const self = user?.id === selfId;
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [password, setPassword] = useState('');
  const [profile, setProfile] = useState<ProfileChoice>(user ? profileOf(user) : 'user');
  const [queueIds, setQueueIds] = useState<number[]>(user?.queues.map((q) => q.id) ?? []);
  const [chatappId, setChatappId] = useState(user?.chatappId ? String(user.chatappId) : '');
  const [startWork, setStartWork] = useState(user?.startWork ?? '');
  const [endWork, setEndWork] = useState(user?.endWork ?? '');
  const [farewell, setFarewell] = useState(user?.farewellMessage ?? '');
  const [perms, setPerms] = useState<Permissions>(user ? permissionsOf(user) : NEW_USER_PERMISSIONS);
  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')) });
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) });

  const save = useMutation({
    mutationFn: () => {
      const form = {
        name,
        email,
        chatappId: chatappId ? Number(chatappId) : null,
        startWork: startWork || null,
        endWork: endWork || null,
        farewellMessage: farewell.trim() ? farewell : null,
        queueIds,
        ...wirePermissions(perms),
      };
      if (!user) return must(api.POST('/users', { body: { ...form, password, profile } }));
      // The profile only when it changes: sending one's own back unchanged is fine, but a change is the server's to refuse.
      const changedProfile = profile !== profileOf(user) ? { profile } : {};
      return must(api.PUT('/users/{userId}', { params: { path: { userId: user.id } }, body: { ...form, password, ...changedProfile } }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.users });
      close(saved);
    },
    onError: (err) => {
      // Refused for the plan's limit: what is shown of the plan is read again.
      if (codeOf(err) === 'ERR_USER_CREATION_COUNT') void client.invalidateQueries({ queryKey: [...keys.users, 'plan'] });
    },
  });
  const refusal = refusalOf<UserField>(t, save.error, FIELD_OF);
  const byField = ownWords(t, save.error, refusal.byField);
  const formError = codeOf(save.error) === 'ERR_USER_CREATION_COUNT' && plan ? t('limitRefused', { limit: plan.users, plan: plan.name }) : refusal.form;
  const toggleQueue = (id: number, on: boolean) => setQueueIds((ids) => (on ? [...ids, id] : ids.filter((q) => q !== id)));
  const queuesLegend = useId();

  return (
    <FormDialog
      className="users-dialog"
      title={user ? t('editTitle', { name: user.name }) : t('addTitle')}
      description={t('intro')}
      lead={
        <>
          {!user && planFull && <p className="plan-full">{t('plan.full')}</p>}
          {user ? <PictureField user={user} /> : <p className="muted small-text">{t('pictureLater')}</p>}
        </>
      }
      submitLabel={t('list.save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={formError}
    >
      <Field label={t('name')} error={byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />}
      </Field>
      <Field label={t('email')} error={byField.email}>
        {(p) => <input {...p} type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" required />}
      </Field>
      <Field
        label={user ? t('newPassword') : t('password')}
        error={byField.password}
        hint={user ? (self ? t('ownPasswordHint') : t('newPasswordHint')) : t('passwordHint')}
      >
        {(p) => <input {...p} type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" required={!user} />}
      </Field>
      <Field label={t('profile')} error={byField.profile} hint={self ? t('ownProfileHint') : user ? t('profileHint') : undefined}>
        {(p) => (
          <select {...p} value={profile} onChange={(e) => setProfile(e.target.value as ProfileChoice)} disabled={self}>
            <option value="user">{t('profiles.user')}</option>
            <option value="admin">{t('profiles.admin')}</option>
            {(actorIsSuper || profile === 'super') && <option value="super">{t('profiles.super')}</option>}
          </select>
        )}
      </Field>
      <fieldset className="checks" aria-describedby={`${queuesLegend}-hint${byField.queueIds ? ` ${queuesLegend}-error` : ''}`}>
        <legend>{t('queues')}</legend>
        <span id={`${queuesLegend}-hint`} className="hint">
          {t('queuesHint')}
        </span>
        {queues.data?.length === 0 && <p className="muted small-text">{t('noQueuesYet')}</p>}
        {queues.data?.map((q) => (
          <label key={q.id} className="check">
            <input type="checkbox" checked={queueIds.includes(q.id)} onChange={(e) => toggleQueue(q.id, e.target.checked)} />
            <span className="swatch" style={{ background: q.color }} aria-hidden="true" />
            {q.name}
          </label>
        ))}
        {byField.queueIds && (
          <span id={`${queuesLegend}-error`} className="form-error" role="alert">
            {byField.queueIds}
          </span>
        )}
      </fieldset>
      <Field label={t('connection')} error={byField.chatappId}>
        {(p) => (
          <select {...p} value={chatappId} onChange={(e) => setChatappId(e.target.value)}>
            <option value="">{t('noConnection')}</option>
            {connections.data?.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset className="checks">
        <legend>{t('permissions')}</legend>
        <span className="hint">{t('permissionsHint')}</span>
        {(Object.keys(PERMISSIONS) as Permission[]).map((key) => (
          <label key={key} className="check">
            <input type="checkbox" checked={perms[key]} onChange={(e) => setPerms((p) => ({ ...p, [key]: e.target.checked }))} />
            {t(`perms.${key}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="work-hours">
        <legend>{t('workHours')}</legend>
        <Field label={t('startWork')} error={byField.startWork}>
          {(p) => <input {...p} type="time" value={startWork} onChange={(e) => setStartWork(e.target.value)} />}
        </Field>
        <Field label={t('endWork')} error={byField.endWork}>
          {(p) => <input {...p} type="time" value={endWork} onChange={(e) => setEndWork(e.target.value)} />}
        </Field>
      </fieldset>
      <Field label={t('farewell')} error={byField.farewellMessage} hint={t('farewellHint')}>
        {(p) => <textarea {...p} rows={2} value={farewell} onChange={(e) => setFarewell(e.target.value)} />}
      </Field>
    </FormDialog>
  );
}

/** A schema refusal's field messages (the server's, in English) said in the screen's words, in the reader's language. */
function ownWords(t: TFunction, err: unknown, byField: Partial<Record<UserField, string>>): Partial<Record<UserField, string>> {
  if (!(err instanceof ApiError) || err.code !== 'ERR_VALIDATION') return byField;
  const out = { ...byField };
  for (const field of OWN_WORDS) if (out[field]) out[field] = t(`invalid.${field}`);
  return out;
}

/** The user's picture with a file chooser: the chosen image is shown at once and saved (`POST /users/:userId/media-upload`). */
export function PictureField({ user }: { user: User }) {
  const { t } = useScreenStrings('users', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [current, setCurrent] = useState<Pick<User, 'companyId' | 'profileImage' | 'name'>>(user);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('profileImage', file, file.name);
      return must(
        api.POST('/users/{userId}/media-upload', {
          params: { path: { userId: user.id } },
          body: form as never,
          bodySerializer: (b: unknown) => b as FormData,
        }),
      );
    },
    onSuccess: (answer) => {
      setCurrent(answer.user);
      setPreview(null);
      void client.invalidateQueries({ queryKey: keys.users });
    },
    // Refused: the picture shown is the one the user still has.
    onError: () => setPreview(null),
  });
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setPreview(URL.createObjectURL(file));
    upload.mutate(file);
  };
  const error = upload.error ? errorText(t, upload.error) : undefined;
  return (
    <div className="user-picture">
      {preview ? <img className="user-avatar big" src={preview} alt={t('pictureAlt', { name: user.name })} /> : <Avatar user={current} big />}
      <Field label={t('picture')} error={error} hint={t('pictureHint')}>
        {(p) => <input {...p} type="file" accept="image/png,image/jpeg,image/webp,image/gif" onChange={choose} disabled={upload.isPending} />}
      </Field>
      <p className="small-text muted" role="status">
        {upload.isPending ? t('pictureUploading') : upload.isSuccess ? t('pictureSaved') : ''}
      </p>
    </div>
  );
}
