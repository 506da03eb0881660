import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { type ChangeEvent, type FormEvent, useEffect, useId, useState } from 'react';
import { ApiError, must, type Schema } from '../api/client.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices } from '../services.js';
import { errorText } from '../ui/errors.js';
import { ConfirmButton, Field, FormError } from '../ui/form.js';
import { editRefusal, said } from './connection-edit-refusal.js';
import { strings } from './connection-edit-strings.js';
import '../ui/admin.css';

type Connection = Schema<'ConnectionWithQueues'>;
type ConnectionView = Schema<'Connection'>;
type Health = Schema<'JobQueueHealth'>;

/** The provider's credentials each kind takes, write-only (typed ones are merged into the stored ones). */
const SECRET_NAMES = { chatapp: [], socialnet: ['pageAccessToken'], bizchat: ['accessToken', 'wabaId'] } as const;

/** A connection's answer merged into the cached list (the answer, not a new read: see the session actions' note). */
function useMergeIntoList() {
  const client = useQueryClient();
  return (answer: ConnectionView | Connection) => {
    client.setQueryData<Connection[]>(keys.connections, (list) => list?.map((c) => (c.id === answer.id ? { ...c, ...answer } : c)));
    client.setQueryData<ConnectionView[]>(ALL_KEY, (list) => list?.map((c) => (c.id === answer.id ? { ...c, ...answer } : c)));
  };
}

function useRemoveFromList() {
  const client = useQueryClient();
  return (id: number) => {
    client.setQueryData<Connection[]>(keys.connections, (list) => list?.filter((c) => c.id !== id));
    client.setQueryData<ConnectionView[]>(ALL_KEY, (list) => list?.filter((c) => c.id !== id));
  };
}

/**
 * Admins: every chat-app session of the company closed and opened again (`POST /chatapp-restart/`),
 * after asking. The answer's connections (now `OPENING`) are merged into the list; the runtime's
 * `chatappSession` frames then bring each one's real status.
 */
export function RestartAllSessions(props: { announce: (text: string) => void }) {
  const { t } = useScreenStrings('connectionEdit', strings);
  const { api } = useServices();
  const merge = useMergeIntoList();
  const [error, setError] = useState<string | null>(null);
  const restart = useMutation({
    mutationFn: () => must(api.POST('/chatapp-restart/')),
    onSuccess: (answer) => {
      setError(null);
      for (const c of answer.connections) merge(c);
      props.announce(t('restartAll.done', { count: answer.restarted }));
    },
    onError: (err) => setError(said(t, err)),
  });
  return (
    <>
      <ConfirmButton
        label={t('restartAll.button')}
        title={t('restartAll.title')}
        description={t('restartAll.body')}
        confirmLabel={t('restartAll.confirm')}
        disabled={restart.isPending}
        onConfirm={() => restart.mutate()}
      />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * An admin's buttons on a connection: edit, close the imported tickets, delete (after asking).
 * `anyCompany`: a super user acting on another company's connection through `/chatapp-admin`.
 */
export function ConnectionAdminActions(props: {
  connection: Connection | ConnectionView;
  anyCompany?: boolean;
  announce: (text: string) => void;
  onDeleted?: () => void;
}) {
  const { connection: c, anyCompany = false, announce } = props;
  const { t } = useScreenStrings('connectionEdit', strings);
  const { api } = useServices();
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = useRemoveFromList();
  const path = { params: { path: { chatappId: c.id } } };
  const destroy = useMutation({
    mutationFn: () => (anyCompany ? must(api.DELETE('/chatapp-admin/{chatappId}', path)) : must(api.DELETE('/chatapp/{chatappId}', path))),
    onSuccess: () => {
      setError(null);
      remove(c.id);
      announce(t('deleted', { name: c.name }));
      props.onDeleted?.();
    },
    onError: (err) => setError(said(t, err)),
  });
  const closeImported = useMutation({
    mutationFn: () => must(api.POST('/closedimported/{chatappId}', path)),
    onSuccess: (answer) => {
      setError(null);
      announce(t('closedImported', { count: answer.closed }));
    },
    onError: (err) => setError(said(t, err)),
  });
  return (
    <>
      <div className="actions connection-admin">
        <button type="button" aria-label={t('editLabel', { name: c.name })} onClick={() => setEditing(true)}>
          {t('edit')}
        </button>
        {!anyCompany && (
          <ConfirmButton
            label={t('closeImported')}
            title={t('closeImportedTitle', { name: c.name })}
            description={t('closeImportedBody')}
            confirmLabel={t('closeImportedConfirm')}
            disabled={closeImported.isPending}
            onConfirm={() => closeImported.mutate()}
          />
        )}
        <ConfirmButton
          className="danger"
          label={t('delete')}
          title={t('deleteTitle', { name: c.name })}
          description={t('deleteBody')}
          confirmLabel={t('delete')}
          disabled={destroy.isPending}
          onConfirm={() => destroy.mutate()}
        />
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {editing &&
        (anyCompany ? (
          <StoredConnectionEditor
            connection={c}
            announce={announce}
            close={(saved) => {
              setEditing(false);
              if (saved) announce(t('saved', { name: saved.name }));
            }}
          />
        ) : (
          <ConnectionEditor
            connection={c}
            anyCompany={false}
            close={(saved) => {
              setEditing(false);
              if (saved) announce(t('saved', { name: saved.name }));
            }}
          />
        ))}
    </>
  );
}

/**
 * A super user's edit of another company's connection starts from the stored one
 * (`GET /chatapp-admin/:id`): that company's changes publish no frame to the super user's own
 * namespace, so the every-company list read earlier may be out of date. The answer also refreshes
 * the list's row; a connection deleted meanwhile is said so and leaves the list.
 */
function StoredConnectionEditor(props: {
  connection: Connection | ConnectionView;
  announce: (text: string) => void;
  close: (saved: Connection | null) => void;
}) {
  const { connection: c, announce, close } = props;
  const { t } = useScreenStrings('connectionEdit', strings);
  const { api } = useServices();
  const merge = useMergeIntoList();
  const remove = useRemoveFromList();
  const stored = useQuery({
    queryKey: ['chatapp-admin', c.id],
    queryFn: async () => {
      try {
        const answer = await must(api.GET('/chatapp-admin/{chatappId}', { params: { path: { chatappId: c.id } } }));
        merge(answer);
        return answer;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          remove(c.id);
          announce(t('goneMeanwhile', { name: c.name }));
          close(null);
        }
        throw err;
      }
    },
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const data = stored.data;
  if (data) return <ConnectionEditor connection={data} anyCompany close={close} />;
  return (
    <p className="small-text" role="status">
      {stored.error ? said(t, stored.error) : t('reading', { name: c.name })}
    </p>
  );
}

/**
 * Every field `PUT /chatapp/:id` takes, the greeting file (uploaded at once, as the route takes it
 * apart from the fields) and the token, write-only: its mask is shown, a new one replaces it. A
 * refusal is shown at its field and keeps everything typed.
 */
function ConnectionEditor(props: { connection: Connection | ConnectionView; anyCompany: boolean; close: (saved: Connection | null) => void }) {
  const { connection: c, anyCompany, close } = props;
  const { t } = useScreenStrings('connectionEdit', strings);
  const { api } = useServices();
  const merge = useMergeIntoList();
  const ownQueues = 'queues' in c ? c.queues : [];
  const [name, setName] = useState(c.name);
  const [isDefault, setIsDefault] = useState(c.isDefault);
  const [greeting, setGreeting] = useState(c.greetingMessage ?? '');
  const [farewell, setFarewell] = useState(c.complationMessage ?? '');
  const [outOfHours, setOutOfHours] = useState(c.outOfHoursMessage ?? '');
  const [reopen, setReopen] = useState(String(c.reopenWindowMinutes));
  const [queueIds, setQueueIds] = useState<number[]>(ownQueues.map((q) => q.id));
  const [promptId, setPromptId] = useState(c.promptId ? String(c.promptId) : '');
  const [token, setToken] = useState('');
  const [removeToken, setRemoveToken] = useState(false);
  const [externalId, setExternalId] = useState(c.externalId ?? '');
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const secretNames: readonly string[] = SECRET_NAMES[c.kind];
  // Queues and assistants are the caller's company's: offered only on its own connections.
  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')), enabled: !anyCompany });
  const prompts = useQuery({
    queryKey: [...keys.queues, 'prompts'],
    queryFn: () => must(api.GET('/prompt', { params: { query: { pageNumber: 1 } } })),
    enabled: !anyCompany,
  });
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name,
        isDefault,
        greetingMessage: greeting.trim() ? greeting : null,
        complationMessage: farewell.trim() ? farewell : null,
        outOfHoursMessage: outOfHours.trim() ? outOfHours : null,
        reopenWindowMinutes: reopen.trim() === '' ? Number.NaN : Number(reopen),
        ...(removeToken ? { token: null } : token ? { token } : {}),
        ...(anyCompany ? {} : { queueIds, promptId: promptId ? Number(promptId) : null }),
        // The page or number, and its credentials, only when changed: a change is verified with the provider.
        ...(c.kind !== 'chatapp' && externalId.trim() !== (c.externalId ?? '') ? { externalId: externalId.trim() || null } : {}),
        ...(Object.values(secrets).some((v) => v) ? { secrets: Object.fromEntries(Object.entries(secrets).filter(([, v]) => v)) } : {}),
      };
      const options = { params: { path: { chatappId: c.id } }, body };
      return anyCompany ? must(api.PUT('/chatapp-admin/{chatappId}', options)) : must(api.PUT('/chatapp/{chatappId}', options));
    },
    onSuccess: (saved) => {
      merge(saved);
      close(saved);
    },
  });
  const refusal = editRefusal(t, save.error);
  const { byField } = refusal;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const toggleQueue = (id: number, on: boolean) => setQueueIds((ids) => (on ? [...ids, id] : ids.filter((q) => q !== id)));
  const queuesId = useId();

  return (
    <Dialog.Root open onOpenChange={(open) => !open && close(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog connection-dialog">
          <Dialog.Title>{t('editTitle', { name: c.name })}</Dialog.Title>
          <Dialog.Description className="muted">{t('editIntro')}</Dialog.Description>
          <GreetingMedia connection={c} anyCompany={anyCompany} />
          {c.kind === 'chatapp' && !anyCompany && <ProxyChoice connectionId={c.id} />}
          <form className="form" onSubmit={submit} noValidate>
            <Field label={t('name')} error={byField.name}>
              {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} maxLength={120} autoComplete="off" required />}
            </Field>
            <label className="check">
              <input type="checkbox" checked={isDefault} onChange={(e) => setIsDefault(e.target.checked)} />
              {t('isDefault')}
            </label>
            <Field label={t('greeting')} error={byField.greetingMessage} hint={t('greetingHint')}>
              {(p) => <textarea {...p} rows={3} value={greeting} onChange={(e) => setGreeting(e.target.value)} />}
            </Field>
            <Field label={t('farewell')} error={byField.complationMessage} hint={t('farewellHint')}>
              {(p) => <textarea {...p} rows={2} value={farewell} onChange={(e) => setFarewell(e.target.value)} />}
            </Field>
            <Field label={t('outOfHours')} error={byField.outOfHoursMessage} hint={t('outOfHoursHint')}>
              {(p) => <textarea {...p} rows={2} value={outOfHours} onChange={(e) => setOutOfHours(e.target.value)} />}
            </Field>
            <Field label={t('reopen')} error={byField.reopenWindowMinutes} hint={t('reopenHint')}>
              {(p) => (
                <input {...p} type="number" inputMode="numeric" min={0} max={10080} step={1} value={reopen} onChange={(e) => setReopen(e.target.value)} />
              )}
            </Field>
            {!anyCompany && (
              <>
                <fieldset className="checks" aria-describedby={`${queuesId}-hint${byField.queueIds ? ` ${queuesId}-error` : ''}`}>
                  <legend>{t('queues')}</legend>
                  <span id={`${queuesId}-hint`} className="hint">
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
                    <span id={`${queuesId}-error`} className="form-error" role="alert">
                      {byField.queueIds}
                    </span>
                  )}
                </fieldset>
                <Field label={t('prompt')} error={byField.promptId} hint={t('promptHint')}>
                  {(p) => (
                    <select {...p} value={promptId} onChange={(e) => setPromptId(e.target.value)}>
                      <option value="">{t('noPrompt')}</option>
                      {(prompts.data?.prompts ?? []).map((pr) => (
                        <option key={pr.id} value={String(pr.id)}>
                          {pr.name}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              </>
            )}
            {c.kind !== 'chatapp' && (
              <>
                <Field label={t(`externalId.${c.kind}`)} error={byField.externalId} hint={t('externalIdHint')}>
                  {(p) => (
                    <input {...p} value={externalId} onChange={(e) => setExternalId(e.target.value)} maxLength={128} autoComplete="off" spellCheck={false} />
                  )}
                </Field>
                {secretNames.map((secret, i) => (
                  <Field key={secret} label={t(`secrets.${secret}`)} error={i === 0 ? byField.secrets : undefined} hint={t('secretsHint')}>
                    {(p) => (
                      <input
                        {...p}
                        type="password"
                        value={secrets[secret] ?? ''}
                        onChange={(e) => setSecrets((all) => ({ ...all, [secret]: e.target.value }))}
                        maxLength={4096}
                        autoComplete="off"
                      />
                    )}
                  </Field>
                ))}
              </>
            )}
            <Field label={t('token')} error={byField.token} hint={c.token ? t('tokenSet', { hint: c.token }) : t('tokenUnset')}>
              {(p) => (
                <input
                  {...p}
                  value={token}
                  onChange={(e) => setToken(e.target.value)}
                  maxLength={256}
                  autoComplete="off"
                  spellCheck={false}
                  disabled={removeToken}
                />
              )}
            </Field>
            {c.token && (
              <label className="check">
                <input type="checkbox" checked={removeToken} onChange={(e) => setRemoveToken(e.target.checked)} />
                {t('removeToken')}
              </label>
            )}
            <FormError text={refusal.form} />
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('actions.cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={save.isPending}>
                {t('save')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The file sent with the greeting: chosen, it is uploaded at once (`POST /chatapp/:id/media-upload`); it can be removed. */
function GreetingMedia({ connection, anyCompany }: { connection: Connection | ConnectionView; anyCompany: boolean }) {
  const { t } = useScreenStrings('connectionEdit', strings);
  const { api } = useServices();
  const merge = useMergeIntoList();
  const [current, setCurrent] = useState(connection.greetingMediaAttachment);
  const [done, setDone] = useState<'saved' | 'removed' | null>(null);
  // The live connection (another admin's change) wins over what this dialog last saw.
  useEffect(() => setCurrent(connection.greetingMediaAttachment), [connection.greetingMediaAttachment]);
  const path = { params: { path: { chatappId: connection.id } } };
  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('file', file, file.name);
      return must(api.POST('/chatapp/{chatappId}/media-upload', { ...path, body: form as never, bodySerializer: (b: unknown) => b as FormData }));
    },
    onSuccess: (answer) => {
      merge(answer);
      setCurrent(answer.greetingMediaAttachment);
      setDone('saved');
    },
  });
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/chatapp/{chatappId}/media-upload', path)),
    onSuccess: (answer) => {
      merge(answer);
      setCurrent(answer.greetingMediaAttachment);
      setDone('removed');
    },
  });
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setDone(null);
    remove.reset();
    upload.mutate(file);
  };
  // The media routes are the company's own: a super user changes another company's file as its admin would.
  if (anyCompany) return null;
  const failed = upload.error ?? remove.error;
  return (
    <div className="greeting-media">
      <p data-testid="greeting-media">{current ? t('mediaCurrent', { name: current }) : t('mediaNone')}</p>
      <Field label={t('media')} error={failed ? said(t, failed) : undefined} hint={t('mediaHint')}>
        {(p) => <input {...p} type="file" onChange={choose} disabled={upload.isPending || remove.isPending} />}
      </Field>
      {current && (
        <button type="button" disabled={upload.isPending || remove.isPending} onClick={() => remove.mutate()}>
          {t('mediaRemove')}
        </button>
      )}
      <p className="small-text muted" role="status">
        {upload.isPending ? t('mediaUploading') : done === 'saved' ? t('mediaSaved') : done === 'removed' ? t('mediaRemoved') : ''}
      </p>
    </div>
  );
}

/**
 * The proxy a session connects through (`POST /proxy/assign/:id`, `DELETE /proxy/remove/:id`),
 * applied at once like the greeting file: a route of its own, and a restart of the session.
 */
function ProxyChoice({ connectionId }: { connectionId: number }) {
  const { t } = useScreenStrings('connectionEdit', strings);
  const { api } = useServices();
  const client = useQueryClient();
  // No frame follows the proxies: read again each time the dialog opens.
  const proxies = useQuery({ queryKey: ['proxies'], queryFn: () => must(api.GET('/proxy', {})), refetchOnMount: 'always' });
  const usable = (proxies.data ?? []).filter((p) => p.active && p.status !== 'failing');
  const [choice, setChoice] = useState('');
  const path = { params: { path: { chatappId: connectionId } } };
  const apply = useMutation({
    mutationFn: () =>
      choice === 'none'
        ? must(api.DELETE('/proxy/remove/{chatappId}', path))
        : must(api.POST('/proxy/assign/{chatappId}', { ...path, body: choice === 'auto' ? {} : { proxyId: Number(choice) } })),
    // The proxies' figures (how many connections each carries) changed.
    onSuccess: () => void client.invalidateQueries({ queryKey: ['proxies'] }),
  });
  const answer = apply.data;
  const on = answer?.proxyId != null ? (proxies.data ?? []).find((p) => p.id === answer.proxyId) : undefined;
  const outcome = answer
    ? `${answer.proxyId == null ? t('proxy.direct') : t('proxy.applied', { name: on?.name ?? `#${answer.proxyId}` })}${answer.restarted ? ` ${t('proxy.restarted')}` : ''}`
    : '';
  return (
    <div className="proxy-choice">
      <Field label={t('proxy.label')} error={apply.error ? said(t, apply.error) : undefined} hint={t('proxy.hint')}>
        {(p) => (
          <select
            {...p}
            value={choice}
            onChange={(e) => {
              setChoice(e.target.value);
              apply.reset();
            }}
          >
            <option value="">{t('proxy.keep')}</option>
            <option value="auto">{t('proxy.auto')}</option>
            {usable.map((proxy) => (
              <option key={proxy.id} value={String(proxy.id)}>
                {t('proxy.option', { name: proxy.name, used: proxy.assignedConnections, max: proxy.maxConnections })}
              </option>
            ))}
            <option value="none">{t('proxy.none')}</option>
          </select>
        )}
      </Field>
      {proxies.data && usable.length === 0 && <p className="muted small-text">{t('proxy.noProxies')}</p>}
      <button type="button" disabled={!choice || apply.isPending} onClick={() => apply.mutate()}>
        {t('proxy.apply')}
      </button>
      <p className="small-text muted" role="status" data-testid="proxy-outcome">
        {outcome}
      </p>
    </div>
  );
}

/** The health check (`GET /debug-queues`): it answers 503 with the same report when a service is down. */
async function readHealth(api: ReturnType<typeof useServices>['api']): Promise<Health> {
  const { data, error, response } = await api.GET('/debug-queues');
  if (response.ok && data) return data;
  const body = error as Partial<Health> & { error?: string };
  if (response.status === 503 && body && typeof body.status === 'string' && body.database) return body as Health;
  throw new ApiError(response.status, body?.error ?? `HTTP_${response.status}`);
}

/** How often the panel reads the health check again on its own. */
const HEALTH_EVERY_MS = 30_000;

/** For admins: what the channel runtime depends on, as `GET /debug-queues` reports it. */
export function HealthPanel() {
  const { t, i18n } = useScreenStrings('connectionEdit', strings);
  const { api } = useServices();
  const health = useQuery({ queryKey: ['debug-queues'], queryFn: () => readHealth(api), refetchInterval: HEALTH_EVERY_MS });
  const report = health.data;
  const up = (connected: boolean) => (connected ? t('health.connected') : t('health.notConnected'));
  return (
    <section className="card health-panel" aria-labelledby="health-title" data-testid="health-panel">
      <h2 id="health-title">{t('health.title')}</h2>
      <p className="muted">{t('health.intro')}</p>
      {health.error && (
        <p className="form-error" role="alert">
          {t('health.unreadable', { reason: errorText(t, health.error) })}
        </p>
      )}
      {report && (
        <>
          <p className={`status health-${report.status}`} data-testid="health-status">
            {t(`health.status.${report.status}`)}
          </p>
          {report.error && <p className="form-error">{t('health.error', { code: report.error })}</p>}
          <dl className="health-figures">
            <dt>{t('health.database')}</dt>
            <dd data-testid="health-database">{up(report.database.connected)}</dd>
            <dt>{t('health.cache')}</dt>
            <dd data-testid="health-cache">{up(report.cache.connected)}</dd>
            <dt>{t('health.broker')}</dt>
            <dd data-testid="health-broker">{up(report.broker.connected)}</dd>
            <dt>{t('health.outbox')}</dt>
            <dd data-testid="health-outbox">
              {report.outbox
                ? `${report.outbox.pending}${
                    Object.keys(report.outbox.bySubject).length
                      ? ` (${Object.entries(report.outbox.bySubject)
                          .map(([s, n]) => `${s}: ${n}`)
                          .join(', ')})`
                      : ''
                  }`
                : t('health.noOutbox')}
            </dd>
            <dt>{t('health.oldest')}</dt>
            <dd data-testid="health-oldest">
              {report.outbox?.oldestAgeSeconds != null ? t('health.seconds', { count: report.outbox.oldestAgeSeconds }) : t('health.none')}
            </dd>
            <dt>{t('health.jobs')}</dt>
            <dd data-testid="health-jobs">{report.backgroundJobs.running}</dd>
          </dl>
          <p className="small-text muted" data-testid="health-checked">
            {t('health.checkedAt', { time: new Date(report.checkedAt).toLocaleTimeString(i18n.language) })}
          </p>
        </>
      )}
      <button type="button" onClick={() => void health.refetch()} disabled={health.isFetching}>
        {t('health.refresh')}
      </button>
    </section>
  );
}

export const ALL_KEY = ['chatapps-all'] as const;

/** For super users: every company's connection, changed or deleted through `/chatapp-admin`. */
export function AllConnections({ ownCompanyId, announce }: { ownCompanyId: number; announce: (text: string) => void }) {
  const { t } = useScreenStrings('connectionEdit', strings);
  const { api } = useServices();
  const [shown, setShown] = useState(false);
  const all = useQuery({ queryKey: ALL_KEY, queryFn: () => must(api.GET('/chatapp/all')), enabled: shown });
  const others = (all.data ?? []).filter((c) => c.companyId !== ownCompanyId);
  return (
    <section className="card all-connections" aria-labelledby="all-connections-title">
      <h2 id="all-connections-title">{t('all.title')}</h2>
      <p className="muted">{t('all.intro')}</p>
      {!shown ? (
        <button type="button" onClick={() => setShown(true)}>
          {t('all.show')}
        </button>
      ) : (
        <>
          {all.data && others.length === 0 && <p className="placeholder">{t('all.empty')}</p>}
          <ul className="plain-list" aria-busy={all.isLoading}>
            {others.map((c) => (
              <li key={c.id} data-testid={`any-connection-${c.id}`}>
                <strong>{c.name}</strong> <span className="muted">{t('all.company', { id: c.companyId })}</span>
                <ConnectionAdminActions connection={c} anyCompany announce={announce} />
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
