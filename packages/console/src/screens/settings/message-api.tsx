import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, FormError } from '../../ui/form.js';
import { curlExample, newConnectionToken } from './api-token.js';
import { strings } from './strings.js';

type Connection = Schema<'Connection'>;

/**
 * The official message API: each connection's token (`PUT /chatapp/:id` with `token`, or null to
 * remove it), generated in the browser and shown once with a copy button, and how to send with it.
 * The list follows the connections' frames, so another admin's new token shows as its mask.
 */
export function MessageApi() {
  const { t } = useScreenStrings('settings', strings);
  const { api, config } = useServices();
  const list = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const [fresh, setFresh] = useState<{ id: number; name: string; token: string } | null>(null);
  const connections = list.data ?? [];
  const url = `${config.backendUrl}/api/messages/send`;

  return (
    <section className="settings-group" aria-labelledby="settings-messageApi">
      <h2 id="settings-messageApi">{t('subjects.messageApi')}</h2>
      <p className="muted">{t('api.intro')}</p>
      {list.error && <FormError text={errorText(t, list.error)} />}
      {list.isSuccess && connections.length === 0 ? (
        <p className="placeholder">{t('api.none')}</p>
      ) : (
        <table className="admin-table" aria-labelledby="settings-messageApi" aria-busy={list.isLoading}>
          <thead>
            <tr>
              <th scope="col">{t('api.connection')}</th>
              <th scope="col">{t('api.token')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('api.generate')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {connections.map((c) => (
              <TokenRow key={c.id} connection={c} onNew={(token) => setFresh({ id: c.id, name: c.name, token })} />
            ))}
          </tbody>
        </table>
      )}
      {fresh && <NewToken key={fresh.token} name={fresh.name} token={fresh.token} />}
      <h3>{t('api.howTitle')}</h3>
      <p>{t('api.how', { url })}</p>
      <figure className="settings-example">
        <figcaption>{t('api.example')}</figcaption>
        <pre data-testid="curl-example">
          <code>{curlExample(config.backendUrl, fresh?.token ?? '<token>')}</code>
        </pre>
      </figure>
    </section>
  );
}

function TokenRow({ connection, onNew }: { connection: Connection; onNew: (token: string) => void }) {
  const { t } = useScreenStrings('settings', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const put = useMutation({
    mutationFn: (token: string | null) => must(api.PUT('/chatapp/{chatappId}', { params: { path: { chatappId: connection.id } }, body: { token } })),
    onSuccess: (saved, token) => {
      client.setQueryData<Connection[]>(keys.connections, (list) => list?.map((c) => (c.id === saved.id ? { ...c, token: saved.token } : c)));
      if (token) onNew(token);
    },
  });
  const name = connection.name;
  return (
    <tr data-testid={`api-${connection.id}`}>
      <th scope="row">{name}</th>
      <td data-label={t('api.token')}>
        <code>{connection.token ?? t('api.noToken')}</code>
        {put.error && <FormError text={errorText(t, put.error)} />}
      </td>
      <td className="row-actions">
        {connection.token ? (
          <>
            <ConfirmButton
              className="small"
              label={t('api.replace')}
              title={t('api.replaceTitle', { name })}
              description={t('api.replaceBody')}
              confirmLabel={t('api.replace')}
              disabled={put.isPending}
              onConfirm={() => put.mutate(newConnectionToken())}
            />
            <ConfirmButton
              className="small"
              label={t('api.remove')}
              title={t('api.removeTitle', { name })}
              description={t('api.removeBody')}
              confirmLabel={t('api.remove')}
              disabled={put.isPending}
              onConfirm={() => put.mutate(null)}
            />
          </>
        ) : (
          <button
            type="button"
            className="small"
            aria-label={t('api.generateLabel', { name })}
            disabled={put.isPending}
            onClick={() => put.mutate(newConnectionToken())}
          >
            {t('api.generate')}
          </button>
        )}
      </td>
    </tr>
  );
}

/** The token just generated, the only time it is shown, with a copy button. */
function NewToken({ name, token }: { name: string; token: string }) {
  const { t } = useScreenStrings('settings', strings);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(token).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <section className="settings-token" aria-label={t('api.newToken', { name })}>
      <p>{t('api.shownOnce', { name })}</p>
      <code data-testid="new-token" className="settings-token-value">
        {token}
      </code>
      <div className="settings-actions">
        <button type="button" onClick={() => void copy()}>
          {t('api.copy')}
        </button>
        <span className="small-text" role="status">
          {copied === 'yes' ? t('api.copied') : copied === 'failed' ? t('api.copyFailed') : ''}
        </span>
      </div>
    </section>
  );
}
