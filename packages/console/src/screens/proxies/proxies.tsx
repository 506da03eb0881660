import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import { must, type paths, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminHeader, FormDialog } from '../../ui/admin-screen.js';
import { codeOf, errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { relativeTime } from '../../ui/format.js';
import { admins } from '../nav.js';
import { strings } from './strings.js';
import './proxies.css';

type Proxy = Schema<'Proxy'>;
type Protocol = Proxy['protocol'];
type Status = Proxy['status'];
type Connection = Schema<'Connection'>;
type Balance = Schema<'ProxyBalanceResult'>;
type Body = NonNullable<paths['/proxy/{id}']['put']['requestBody']>['content']['application/json'];
type NewBody = NonNullable<paths['/proxy']['post']['requestBody']>['content']['application/json'];

const PROTOCOLS: readonly Protocol[] = ['http', 'https', 'socks4', 'socks5'];
const STATUSES: readonly Status[] = ['healthy', 'unchecked', 'degraded', 'failing', 'disabled'];

/**
 * No frame follows the proxies (their routes publish none, see docs/realtime.md): the list and the
 * figures are read when the screen opens, after each change made here, and every 30 s, since the
 * server's health checks move their status. Under the key the connection dialog's proxy picker uses.
 */
const proxyKeys = { list: ['proxies'] as const, stats: ['proxies', 'stats'] as const };
const HEALTH_REFRESH_MS = 30_000;

/** The refusals of the proxy routes that name a field of the form. */
const FIELD_OF = {
  ERR_PROXY_INVALID_NAME: 'name',
  ERR_PROXY_INVALID_HOST: 'host',
  ERR_URL_NOT_ALLOWED: 'host',
  ERR_PROXY_INVALID_PORT: 'port',
  ERR_PROXY_INVALID_COUNTRY: 'country',
  ERR_PROXY_INVALID_CAPACITY: 'maxConnections',
  ERR_PROXY_INVALID_CREDENTIALS: 'username',
  ERR_PROXY_CREDENTIALS_UNREADABLE: 'password',
} as const;
type FormField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** What a balancing, a disable or a delete came to, for the result panel. */
type Outcome =
  | { readonly title: string; readonly result: Balance }
  | { readonly title: string; readonly error: unknown }
  | { readonly title: string; readonly said: string };

/**
 * `/proxies` (admins; the super user manages the platform's pool): the proxies with their health,
 * created and edited with the password write-only (a tunnel opened through it first unless told
 * otherwise), disabled as problematic, enabled again, deleted; the pool's figures; balancing; and
 * the company's session connections put on a proxy or taken off.
 */
export function Proxies() {
  const { t } = useScreenStrings('proxies', strings);
  const session = useSession();
  if (!session || !admins(session.user)) {
    return (
      <section className="admin-screen" aria-labelledby="proxies-title">
        <h1 id="proxies-title">{t('title')}</h1>
        <p className="placeholder">{t('adminsOnly')}</p>
      </section>
    );
  }
  return <ProxyScreen isSuper={session.user.super === true} />;
}

function ProxyScreen({ isSuper }: { isSuper: boolean }) {
  const { t, i18n } = useScreenStrings('proxies', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Proxy | 'new' | null>(null);
  const [disabling, setDisabling] = useState<Proxy | null>(null);
  const [notice, setNotice] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const list = useQuery({ queryKey: proxyKeys.list, queryFn: () => must(api.GET('/proxy', {})), refetchInterval: HEALTH_REFRESH_MS });
  const stats = useQuery({ queryKey: proxyKeys.stats, queryFn: () => must(api.GET('/proxy/stats')), refetchInterval: HEALTH_REFRESH_MS });
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const proxies = list.data ?? [];
  const sessions = (connections.data ?? []).filter((c) => c.kind === 'chatapp');
  const refresh = () => void client.invalidateQueries({ queryKey: proxyKeys.list });
  const names = {
    proxy: (id: number | null) => (id === null ? t('result.none') : (proxies.find((p) => p.id === id)?.name ?? `#${id}`)),
    connection: (id: number) => (connections.data ?? []).find((c) => c.id === id)?.name ?? `#${id}`,
  };
  const managed = (p: Proxy) => isSuper || !p.isGlobal;

  const balance = useMutation({
    mutationFn: (kind: 'auto' | 'reassign' | 'rebalance') =>
      kind === 'auto'
        ? must(api.POST('/proxy/auto-balance'))
        : kind === 'reassign'
          ? must(api.POST('/proxy/force-reassign'))
          : must(api.POST('/proxy/force-rebalance-all')),
    onMutate: () => setOutcome(null),
    onSuccess: (result, kind) => {
      refresh();
      setOutcome({ title: t(`balance.${kind}`), result });
    },
    onError: (error, kind) => setOutcome({ title: t(`balance.${kind}`), error }),
  });
  const enable = useMutation({
    mutationFn: (p: Proxy) => must(api.PUT('/proxy/{id}', { params: { path: { id: p.id } }, body: { active: true } })),
    onMutate: () => setOutcome(null),
    onSuccess: (saved) => {
      refresh();
      setOutcome({ title: t('enable'), said: t('enabled', { name: saved.name, status: t(`status.${saved.status}`) }) });
    },
    onError: (error, p) => setOutcome({ title: `${t('enable')}: ${p.name}`, error }),
  });
  const remove = useMutation({
    mutationFn: ({ p, force }: { p: Proxy; force: boolean }) =>
      must(api.DELETE('/proxy/{id}', { params: { path: { id: p.id }, query: force ? { force: true } : {} } })),
    onMutate: () => setOutcome(null),
    onSuccess: (_, { p }) => {
      refresh();
      setOutcome({ title: t('delete'), said: t('deleted', { name: p.name }) });
    },
    onError: (error, { p }) => setOutcome({ title: `${t('delete')}: ${p.name}`, error }),
  });
  const busy = balance.isPending || enable.isPending || remove.isPending;
  const inUse = remove.error && codeOf(remove.error) === 'ERR_PROXY_IN_USE' ? remove.variables?.p : undefined;

  return (
    <section className="admin-screen proxies-screen" aria-labelledby="proxies-title">
      <AdminHeader titleId="proxies-title" title={t('title')} intro={t('intro')} add={{ label: t('add'), onClick: () => setEditing('new') }}>
        <button type="button" onClick={refresh} disabled={list.isFetching}>
          {t('refresh')}
        </button>
      </AdminHeader>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {list.error && <FormError text={errorText(t, list.error)} />}
      {stats.data && <PoolFigures t={t} stats={stats.data} />}

      <div className="proxy-outcome" role="status" data-testid="proxy-outcome">
        {outcome && (
          <>
            <h2>{outcome.title}</h2>
            {'result' in outcome && <BalanceOutcome t={t} result={outcome.result} names={names} />}
            {'said' in outcome && <p>{outcome.said}</p>}
            {'error' in outcome && <p className="form-error">{errorText(t, outcome.error)}</p>}
            {inUse && 'error' in outcome && (
              <ConfirmButton
                className="small"
                label={t('deleteForce', { count: inUse.assignedConnections })}
                title={t('deleteForceTitle', { name: inUse.name })}
                description={t('deleteForceBody')}
                confirmLabel={t('delete')}
                disabled={busy}
                onConfirm={() => remove.mutate({ p: inUse, force: true })}
              />
            )}
          </>
        )}
      </div>

      {list.isSuccess && proxies.length === 0 ? (
        <p className="placeholder">{t('empty')}</p>
      ) : (
        <ul className="cards proxy-cards" aria-labelledby="proxies-title" aria-busy={list.isLoading}>
          {proxies.map((p) => (
            <li key={p.id} className={`card proxy-card proxy-${p.status}`} data-testid={`proxy-${p.id}`}>
              <h2>{p.name}</h2>
              <p className={`proxy-status status-${p.status}`}>{t(`status.${p.status}`)}</p>
              <p className="small-text muted">{p.isGlobal ? t(isSuper ? 'card.platformSuper' : 'card.platform') : t('card.own')}</p>
              <p className="proxy-address">
                {t('card.address', { protocol: t(`protocols.${p.protocol}`), host: p.host, port: p.port })} ·{' '}
                {p.country ? t('card.country', { country: p.country }) : t('card.noCountry')}
              </p>
              <p className="small-text">{p.username ? t(p.hasPassword ? 'card.user' : 'card.userNoPassword', { username: p.username }) : t('card.noAuth')}</p>
              <p>
                <meter min={0} max={p.maxConnections} value={p.assignedConnections} aria-hidden="true" />{' '}
                {t('card.use', { used: p.assignedConnections, max: p.maxConnections })}
              </p>
              <p className="small-text muted">
                {p.lastLatencyMs !== null ? `${t('card.latency', { ms: p.lastLatencyMs })}, ` : ''}
                {p.lastCheckAt ? t('card.checkedAt', { when: relativeTime(p.lastCheckAt, i18n.language) }) : t('card.neverChecked')}
                {p.failCount > 0 ? ` · ${t('card.failures', { count: p.failCount })}` : ''}
              </p>
              {p.lastError && p.status !== 'healthy' && <p className="small-text proxy-error">{t('card.lastError', { error: p.lastError })}</p>}
              {p.disabledReason && <p className="small-text proxy-error">{t('card.disabledReason', { reason: p.disabledReason })}</p>}
              {managed(p) && (
                <div className="row-actions">
                  <button type="button" className="small" aria-label={t('editLabel', { name: p.name })} onClick={() => setEditing(p)}>
                    {t('edit')}
                  </button>
                  {p.active ? (
                    <button type="button" className="small" disabled={busy} onClick={() => setDisabling(p)}>
                      {t('disable')}
                    </button>
                  ) : (
                    <ConfirmButton
                      className="small"
                      label={t('enable')}
                      title={t('enableTitle', { name: p.name })}
                      description={t('enableBody')}
                      confirmLabel={t('enable')}
                      disabled={busy}
                      onConfirm={() => enable.mutate(p)}
                    />
                  )}
                  <ConfirmButton
                    className="small"
                    label={t('delete')}
                    title={t('deleteTitle', { name: p.name })}
                    description={t('deleteBody')}
                    confirmLabel={t('delete')}
                    disabled={busy}
                    onConfirm={() => remove.mutate({ p, force: false })}
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}

      <section className="panel-section proxy-balance" aria-labelledby="proxy-balance-title">
        <h2 id="proxy-balance-title">{t('balance.title')}</h2>
        <p className="muted">{t('balance.intro')}</p>
        <ul className="proxy-actions">
          {(['auto', 'reassign', 'rebalance'] as const).map((kind) => (
            <li key={kind}>
              <Explained
                label={t(`balance.${kind}`)}
                description={t(`balance.${kind}Body`)}
                confirmLabel={t('balance.confirm')}
                disabled={busy}
                onConfirm={() => balance.mutate(kind)}
              />
              <p className="small-text muted">{t(`balance.${kind}Body`)}</p>
            </li>
          ))}
        </ul>
      </section>

      <ConnectionsPanel t={t} sessions={sessions} proxies={proxies} loaded={connections.isSuccess} onChange={refresh} />

      {editing && (
        <ProxyDialog
          proxy={editing === 'new' ? null : editing}
          close={(saved) => {
            const before = editing === 'new' ? null : editing;
            setEditing(null);
            if (!saved) return;
            // Checked by this save: a new proxy with a check, or an edit after which the check's time moved.
            const checked = saved.lastCheckAt !== null && saved.lastCheckAt !== before?.lastCheckAt;
            const said =
              saved.status === 'unchecked'
                ? t('savedUnchecked', { name: saved.name })
                : checked && saved.status === 'healthy' && saved.lastLatencyMs !== null
                  ? t('savedChecked', { name: saved.name, ms: saved.lastLatencyMs })
                  : t('savedStatus', { name: saved.name, status: t(`status.${saved.status}`) });
            setNotice(said);
            setOutcome({ title: t('save'), said });
          }}
        />
      )}
      {disabling && (
        <DisableDialog
          proxy={disabling}
          close={(result) => {
            setDisabling(null);
            if (result) setOutcome({ title: t('result.disabled', { name: disabling.name }), result });
          }}
        />
      )}
    </section>
  );
}

/** The pool's figures (`GET /proxy/stats`). */
function PoolFigures({ t, stats }: { t: TFunction; stats: Schema<'ProxyStats'> }) {
  return (
    <section className="proxy-pool" aria-labelledby="proxy-pool-title" data-testid="proxy-pool">
      <h2 id="proxy-pool-title">{t('pool.title')}</h2>
      <p>{t('pool.proxies', { count: stats.total, active: stats.active, disabled: stats.disabled })}</p>
      <p>{t('pool.capacity', { used: stats.used, capacity: stats.capacity, free: stats.free })}</p>
      <p>{t('pool.unassigned', { count: stats.unassignedConnections })}</p>
      <ul className="chips" aria-label={t('pool.byStatus')}>
        {STATUSES.filter((s) => stats.byStatus[s] > 0).map((s) => (
          <li key={s} className={`chip status-${s}`}>
            {t(`status.${s}`)}: {stats.byStatus[s]}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The connections a balancing moved (by name, from which proxy to which) and those it left. */
function BalanceOutcome({
  t,
  result,
  names,
}: {
  t: TFunction;
  result: Balance;
  names: { proxy: (id: number | null) => string; connection: (id: number) => string };
}) {
  if (result.moved.length === 0 && result.skipped.length === 0) return <p>{t('result.nothing')}</p>;
  return (
    <>
      {result.moved.length > 0 && (
        <>
          <p>{t('result.moved', { count: result.moved.length })}</p>
          <ul>
            {result.moved.map((m) => (
              <li key={m.chatappId}>{t('result.move', { connection: names.connection(m.chatappId), from: names.proxy(m.from), to: names.proxy(m.to) })}</li>
            ))}
          </ul>
        </>
      )}
      {result.skipped.length > 0 && (
        <p>{t('result.skipped', { count: result.skipped.length, names: result.skipped.map((s) => names.connection(s.chatappId)).join(', ') })}</p>
      )}
    </>
  );
}

/** A button whose action is explained in a dialog before it runs (a balancing moves sessions, which reconnect). */
function Explained(props: { label: string; description: string; confirmLabel: string; disabled: boolean; onConfirm: () => void }) {
  const { t } = useScreenStrings('proxies', strings);
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <button type="button" disabled={props.disabled}>
          {props.label}
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title>{props.label}</AlertDialog.Title>
          <AlertDialog.Description>{props.description}</AlertDialog.Description>
          <div className="dialog-buttons">
            <AlertDialog.Cancel asChild>
              <button type="button">{t('actions.cancel')}</button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <button type="button" className="primary" onClick={props.onConfirm}>
                {props.confirmLabel}
              </button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** The company's session connections, each put on a proxy (chosen, or the least-loaded) or taken off it. */
function ConnectionsPanel({
  t,
  sessions,
  proxies,
  loaded,
  onChange,
}: {
  t: TFunction;
  sessions: Connection[];
  proxies: Proxy[];
  loaded: boolean;
  onChange: () => void;
}) {
  const usable = proxies.filter((p) => p.active && p.status !== 'failing');
  return (
    <section className="panel-section proxy-connections" aria-labelledby="proxy-connections-title">
      <h2 id="proxy-connections-title">{t('connections.title')}</h2>
      <p className="muted">{t('connections.intro')}</p>
      {loaded && sessions.length === 0 ? (
        <p className="placeholder">{t('connections.empty')}</p>
      ) : (
        <ul className="proxy-connection-list">
          {sessions.map((c) => (
            <ConnectionRow key={c.id} t={t} connection={c} usable={usable} proxies={proxies} onChange={onChange} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ConnectionRow({
  t,
  connection,
  usable,
  proxies,
  onChange,
}: {
  t: TFunction;
  connection: Connection;
  usable: Proxy[];
  proxies: Proxy[];
  onChange: () => void;
}) {
  const { api } = useServices();
  const [choice, setChoice] = useState('');
  const path = { params: { path: { chatappId: connection.id } } };
  const apply = useMutation({
    mutationFn: (to: string) =>
      to === 'none'
        ? must(api.DELETE('/proxy/remove/{chatappId}', path))
        : must(api.POST('/proxy/assign/{chatappId}', { ...path, body: to === 'auto' ? {} : { proxyId: Number(to) } })),
    onSuccess: onChange,
  });
  const answer = apply.data;
  const onName = answer?.proxyId != null ? (proxies.find((p) => p.id === answer.proxyId)?.name ?? `#${answer.proxyId}`) : '';
  const said = answer
    ? `${answer.proxyId == null ? t('connections.direct', { connection: connection.name }) : t('connections.onProxy', { connection: connection.name, proxy: onName })}${answer.restarted ? ` ${t('connections.restarted')}` : ''}`
    : '';
  return (
    <li className="proxy-connection" data-testid={`proxy-connection-${connection.id}`}>
      <Field label={t('connections.choose', { name: connection.name })}>
        {(p) => (
          <select
            {...p}
            value={choice}
            onChange={(e) => {
              setChoice(e.target.value);
              apply.reset();
            }}
          >
            <option value="">{t('connections.pick')}</option>
            <option value="auto">{t('connections.auto')}</option>
            {usable.map((proxy) => (
              <option key={proxy.id} value={String(proxy.id)}>
                {t('connections.option', { name: proxy.name, used: proxy.assignedConnections, max: proxy.maxConnections })}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="row-actions">
        <button
          type="button"
          className="small"
          aria-label={t('connections.assignLabel', { name: connection.name })}
          disabled={!choice || apply.isPending}
          onClick={() => apply.mutate(choice)}
        >
          {t('connections.assign')}
        </button>
        <button
          type="button"
          className="small"
          aria-label={t('connections.removeLabel', { name: connection.name })}
          disabled={apply.isPending}
          onClick={() => apply.mutate('none')}
        >
          {t('connections.remove')}
        </button>
      </div>
      <p className="small-text" role="status">
        {said}
        {apply.error ? <span className="form-error">{errorText(t, apply.error)}</span> : null}
      </p>
    </li>
  );
}

/** Creating or editing a proxy: the password write-only; saved after a tunnel through it unless "without checking". */
function ProxyDialog({ proxy, close }: { proxy: Proxy | null; close: (saved: Proxy | null) => void }) {
  const { t } = useScreenStrings('proxies', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(proxy?.name ?? '');
  const [protocol, setProtocol] = useState<Protocol>(proxy?.protocol ?? 'http');
  const [host, setHost] = useState(proxy?.host ?? '');
  const [port, setPort] = useState(proxy ? String(proxy.port) : '');
  const [username, setUsername] = useState(proxy?.username ?? '');
  const [password, setPassword] = useState('');
  const [dropPassword, setDropPassword] = useState(false);
  const [country, setCountry] = useState(proxy?.country ?? '');
  const [maxConnections, setMaxConnections] = useState(proxy ? String(proxy.maxConnections) : '5');
  const [skipCheck, setSkipCheck] = useState(false);

  const save = useMutation({
    mutationFn: () => {
      const all: Body = {
        name,
        protocol,
        host,
        port: Number(port),
        username: username.trim() || null,
        country: country.trim() || null,
        maxConnections: Number(maxConnections),
      };
      if (!proxy) {
        const body: NewBody = { ...all, name, host, port: Number(port), ...(password ? { password } : {}), ...(skipCheck ? { skipCheck: true } : {}) };
        return must(api.POST('/proxy', { body }));
      }
      const before: Record<string, unknown> = {
        name: proxy.name,
        protocol: proxy.protocol,
        host: proxy.host,
        port: proxy.port,
        username: proxy.username,
        country: proxy.country,
        maxConnections: proxy.maxConnections,
      };
      const changed = Object.fromEntries(Object.entries(all).filter(([k, v]) => before[k] !== v)) as Body;
      const body: Body = {
        ...changed,
        ...(password ? { password } : dropPassword ? { password: null } : {}),
        ...(skipCheck ? { skipCheck: true } : {}),
      };
      return must(api.PUT('/proxy/{id}', { params: { path: { id: proxy.id } }, body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: proxyKeys.list });
      close(saved);
    },
  });
  const refusal = refusalOf<FormField>(t, save.error, FIELD_OF);

  return (
    <FormDialog
      title={proxy ? t('editTitle', { name: proxy.name }) : t('addTitle')}
      description={t('intro')}
      submitLabel={t('save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('protocol')}>
        {(p) => (
          <select {...p} value={protocol} onChange={(e) => setProtocol(e.target.value as Protocol)}>
            {PROTOCOLS.map((v) => (
              <option key={v} value={v}>
                {t(`protocols.${v}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('host')} error={refusal.byField.host} hint={t('hostHint')}>
        {(p) => <input {...p} value={host} onChange={(e) => setHost(e.target.value)} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field label={t('port')} error={refusal.byField.port}>
        {(p) => <input {...p} type="number" inputMode="numeric" min={1} max={65535} value={port} onChange={(e) => setPort(e.target.value)} />}
      </Field>
      <Field label={t('username')} error={refusal.byField.username}>
        {(p) => <input {...p} value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" spellCheck={false} />}
      </Field>
      <Field label={t('password')} error={refusal.byField.password} hint={proxy?.hasPassword ? t('passwordKeepHint') : t('passwordNewHint')}>
        {(p) => (
          <input {...p} type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" disabled={dropPassword} />
        )}
      </Field>
      {proxy?.hasPassword && (
        <label className="check">
          <input type="checkbox" checked={dropPassword} onChange={(e) => setDropPassword(e.target.checked)} />
          {t('removePassword')}
        </label>
      )}
      <Field label={t('country')} error={refusal.byField.country} hint={t('countryHint')}>
        {(p) => <input {...p} value={country} onChange={(e) => setCountry(e.target.value)} autoComplete="off" maxLength={2} />}
      </Field>
      <Field label={t('maxConnections')} error={refusal.byField.maxConnections} hint={t('maxConnectionsHint')}>
        {(p) => (
          <input {...p} type="number" inputMode="numeric" min={1} max={1000} value={maxConnections} onChange={(e) => setMaxConnections(e.target.value)} />
        )}
      </Field>
      <label className="check">
        <input type="checkbox" checked={skipCheck} onChange={(e) => setSkipCheck(e.target.checked)} aria-describedby="proxy-skip-hint" />
        {t('skipCheck')}
      </label>
      <p id="proxy-skip-hint" className="small-text muted">
        {t('skipCheckHint')}
      </p>
    </FormDialog>
  );
}

/** Disabling a proxy as problematic, with its reason; its connections move (the answer says where). */
function DisableDialog({ proxy, close }: { proxy: Proxy; close: (result: Balance | null) => void }) {
  const { t } = useScreenStrings('proxies', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const disable = useMutation({
    mutationFn: () =>
      must(api.POST('/proxy/disable-problematic/{proxyId}', { params: { path: { proxyId: proxy.id } }, body: reason.trim() ? { reason: reason.trim() } : {} })),
    onSuccess: (result) => {
      void client.invalidateQueries({ queryKey: proxyKeys.list });
      close(result);
    },
  });
  const refusal = refusalOf<'reason'>(t, disable.error, { ERR_PROXY_INVALID_REASON: 'reason' });
  return (
    <FormDialog
      title={t('disableTitle', { name: proxy.name })}
      description={t('disableBody')}
      hideDescription={false}
      submitLabel={t('disable')}
      onSubmit={() => disable.mutate()}
      onClose={() => close(null)}
      pending={disable.isPending}
      error={refusal.form}
    >
      <Field label={t('reason')} error={refusal.byField.reason} hint={t('reasonHint')}>
        {(p) => <textarea {...p} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />}
      </Field>
    </FormDialog>
  );
}
