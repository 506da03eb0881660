import { useMutation, useQuery } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { renderSVG } from 'uqr';
import { ApiError, must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices } from '../services.js';

type Connection = Schema<'Connection'>;
type Provider = 'sandbox' | 'baileys' | 'messenger' | 'instagram' | 'cloudapi';
const PROVIDERS: Provider[] = ['baileys', 'messenger', 'instagram', 'cloudapi', 'sandbox'];

/** The company's connections with their live status, and the pairing QR code as the session emits it. */
export function Connections() {
  const { t } = useTranslation();
  const { api } = useServices();
  const list = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const [creating, setCreating] = useState(false);

  return (
    <section className="page" aria-labelledby="connections-title">
      <header className="page-header">
        <h1 id="connections-title">{t('connections.title')}</h1>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          {t('connections.add')}
        </button>
      </header>
      {list.data?.length === 0 && <p className="placeholder">{t('connections.empty')}</p>}
      <ul className="cards" aria-busy={list.isLoading}>
        {(list.data ?? []).map((c) => (
          <ConnectionCard key={c.id} connection={c} />
        ))}
      </ul>
      <CreateConnection open={creating} onOpenChange={setCreating} />
    </section>
  );
}

function ConnectionCard({ connection: c }: { connection: Connection }) {
  const { t } = useTranslation();
  const { api, queryClient } = useServices();
  const [error, setError] = useState<string | null>(null);
  const path = { params: { path: { chatappId: c.id } } };
  const act = useMutation({
    mutationFn: (what: 'start' | 'restart' | 'disconnect') =>
      what === 'start'
        ? must(api.POST('/chatappsession/{chatappId}', path))
        : what === 'restart'
          ? must(api.PUT('/chatappsession/{chatappId}', path))
          : must(api.DELETE('/chatappsession/{chatappId}', path)),
    onSuccess: () => {
      setError(null);
      void queryClient.invalidateQueries({ queryKey: keys.connections });
    },
    onError: (err) => setError(err instanceof ApiError ? err.code : String(err)),
  });
  const qr = useMemo(
    () => (c.status === 'qrcode' && c.qrcode ? `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(c.qrcode, { border: 2 }))}` : null),
    [c.status, c.qrcode],
  );
  const statusText = t(`connections.status.${c.status}`, { defaultValue: c.status });
  return (
    <li className="card" data-testid={`connection-${c.id}`}>
      <h2>
        {c.name} {c.isDefault && <span className="tag">{t('connections.default')}</span>}
      </h2>
      <p className="muted">{t(`connections.providers.${c.provider as Provider}`, { defaultValue: c.provider })}</p>
      <p className={`status status-${c.status}`} data-testid="connection-status" aria-live="polite">
        {statusText}
      </p>
      {qr && (
        <figure className="qr">
          <img src={qr} alt={t('connections.qr')} width={200} height={200} data-testid="qr" />
          <figcaption>{t('connections.qr')}</figcaption>
        </figure>
      )}
      <div className="actions">
        {c.status === 'DISCONNECTED' || c.status === 'PENDING' ? (
          <button type="button" disabled={act.isPending} onClick={() => act.mutate('start')}>
            {t('connections.start')}
          </button>
        ) : (
          <>
            <button type="button" disabled={act.isPending} onClick={() => act.mutate('restart')}>
              {t('connections.restart')}
            </button>
            <button type="button" disabled={act.isPending} onClick={() => act.mutate('disconnect')}>
              {t('connections.disconnect')}
            </button>
          </>
        )}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {t('errors.generic', { code: error })}
        </p>
      )}
    </li>
  );
}

function CreateConnection(props: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const { api, queryClient } = useServices();
  const [name, setName] = useState('');
  const [provider, setProvider] = useState<Provider>('baileys');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () =>
      must(
        api.POST('/chatapp/', {
          body: { name, provider, ...(token ? { token } : {}), ...(provider === 'cloudapi' ? { kind: 'bizchat' as const } : {}) },
        }),
      ),
    onSuccess: () => {
      setName('');
      setToken('');
      setError(null);
      props.onOpenChange(false);
      void queryClient.invalidateQueries({ queryKey: keys.connections });
    },
    onError: (err) => setError(err instanceof ApiError ? err.code : String(err)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{t('connections.add')}</Dialog.Title>
          <Dialog.Description className="visually-hidden">{t('connections.add')}</Dialog.Description>
          <form onSubmit={submit} className="form">
            <label>
              {t('connections.name')}
              <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} />
            </label>
            <label>
              {t('connections.provider')}
              <select value={provider} onChange={(e) => setProvider(e.target.value as Provider)}>
                {PROVIDERS.map((p) => (
                  <option key={p} value={p}>
                    {t(`connections.providers.${p}`)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('connections.token')}
              <input value={token} onChange={(e) => setToken(e.target.value)} maxLength={256} autoComplete="off" />
            </label>
            {error && (
              <p className="form-error" role="alert">
                {t('errors.generic', { code: error })}
              </p>
            )}
            <div className="actions">
              <Dialog.Close asChild>
                <button type="button">{t('connections.cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={!name || create.isPending}>
                {t('connections.create')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
