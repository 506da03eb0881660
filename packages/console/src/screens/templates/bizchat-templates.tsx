import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { relativeTime } from '../../ui/format.js';
import { SendTemplateDialog } from './bizchat-send.js';
import { strings } from './strings.js';

type Connection = Schema<'Connection'>;
type BizTemplate = Schema<'BizchatTemplate'>;

/** How many values a template takes when sent: its header's, its body's variables and its buttons'. */
export const valuesToFill = (tpl: BizTemplate) => tpl.variables.header + tpl.variables.body.length + tpl.variables.buttons.length;

/**
 * The business API's templates of one bizchat connection (`GET /bizchat-templates`): name,
 * language, status, category and what each says, read again from WhatsApp on demand
 * (`refresh=true`). They are sent from a conversation (the reply box, outside the 24-hour window).
 */
export function BizchatTemplates() {
  const { t, i18n } = useScreenStrings('templates', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const id = useId();
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const bizchat = (connections.data ?? []).filter((c) => c.channel === 'bizchat');
  const [chosen, setChosen] = useState<number | null>(null);
  const chatappId = chosen && bizchat.some((c) => c.id === chosen) ? chosen : (bizchat[0]?.id ?? null);
  const [notice, setNotice] = useState('');
  const [sending, setSending] = useState<BizTemplate | null>(null);
  const [sent, setSent] = useState<{ name: string; ticketId: number } | null>(null);

  const list = useQuery({
    queryKey: keys.bizchatTemplates(chatappId ?? 0),
    queryFn: () => must(api.GET('/bizchat-templates', { params: { query: { chatappId: chatappId! } } })),
    enabled: chatappId !== null,
  });
  const refresh = useMutation({
    mutationFn: (connection: number) => must(api.GET('/bizchat-templates', { params: { query: { chatappId: connection, refresh: true } } })),
    onSuccess: (data, connection) => {
      client.setQueryData(keys.bizchatTemplates(connection), data);
      setNotice(t('biz.refreshed'));
    },
  });
  const templates = list.data?.templates ?? [];
  const statusText = (status: string) => t(`biz.status.${status}`, { defaultValue: status });
  const categoryText = (category: string) => t(`biz.categories.${category}`, { defaultValue: category });

  return (
    <section className="admin-screen bizchat-templates" aria-labelledby={`${id}-title`}>
      <header className="admin-header">
        <h2 id={`${id}-title`}>{t('biz.title')}</h2>
        <p className="muted">{t('biz.intro')}</p>
        {bizchat.length > 0 && (
          <div className="admin-tools">
            {bizchat.length > 1 && (
              <label>
                {t('biz.connection')}{' '}
                <select value={chatappId ?? ''} onChange={(e) => setChosen(Number(e.target.value))}>
                  {bizchat.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <button type="button" onClick={() => chatappId && refresh.mutate(chatappId)} disabled={refresh.isPending || chatappId === null}>
              {t('biz.refresh')}
            </button>
          </div>
        )}
      </header>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {sent && (
        <p className="form-ok" role="status" data-testid="bizchat-sent">
          {t('send.sent', { name: sent.name })}{' '}
          <Link to="/tickets/$ticketId" params={{ ticketId: String(sent.ticketId) }}>
            {t('send.openConversation')}
          </Link>
        </p>
      )}
      {connections.isSuccess && bizchat.length === 0 && <p className="placeholder">{t('biz.noConnections')}</p>}
      {list.error && <FormError text={errorText(t, list.error)} />}
      {refresh.error && <FormError text={errorText(t, refresh.error)} />}
      {list.isSuccess && (
        <>
          <p className="list-count muted small-text" data-testid="bizchat-synced">
            {bizchat.length === 1 && `${bizchat[0]!.name}. `}
            {t('biz.count', { count: templates.length })}.{' '}
            {list.data.syncedAt ? t('biz.synced', { time: relativeTime(list.data.syncedAt, i18n.language) }) : t('biz.neverSynced')}
          </p>
          {templates.length === 0 ? (
            <p className="placeholder">{t('biz.empty')}</p>
          ) : (
            <table className="admin-table" aria-labelledby={`${id}-title`}>
              <thead>
                <tr>
                  <th scope="col">{t('biz.columns.name')}</th>
                  <th scope="col">{t('biz.columns.language')}</th>
                  <th scope="col">{t('biz.columns.status')}</th>
                  <th scope="col">{t('biz.columns.category')}</th>
                  <th scope="col">{t('biz.columns.content')}</th>
                  <th scope="col">{t('list.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {templates.map((tpl) => {
                  const body = tpl.components.find((c) => c.type === 'BODY')?.text ?? '';
                  const count = valuesToFill(tpl);
                  return (
                    <tr key={`${tpl.name}|${tpl.language}`} data-testid={`bizchat-template-${tpl.name}-${tpl.language}`}>
                      <th scope="row">{tpl.name}</th>
                      <td data-label={t('biz.columns.language')}>{tpl.language}</td>
                      <td data-label={t('biz.columns.status')}>
                        <span className={`status-pill status-${tpl.status.toLowerCase()}`}>{statusText(tpl.status)}</span>
                      </td>
                      <td data-label={t('biz.columns.category')}>{categoryText(tpl.category)}</td>
                      <td data-label={t('biz.columns.content')} className="template-message">
                        {body}
                        <span className="muted small-text"> ({count > 0 ? t('biz.variables', { count }) : t('biz.noVariables')})</span>
                      </td>
                      <td className="row-actions">
                        {tpl.status === 'APPROVED' && (
                          <button
                            type="button"
                            className="small"
                            aria-label={t('send.openLabel', { name: tpl.name, language: tpl.language })}
                            onClick={() => {
                              setSent(null);
                              setSending(tpl);
                            }}
                          >
                            {t('send.open')}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
        </>
      )}
      {sending && chatappId !== null && (
        <SendTemplateDialog
          template={sending}
          chatappId={chatappId}
          close={(answer) => {
            setSending(null);
            if (answer) setSent({ name: answer.template.name, ticketId: answer.ticketId });
          }}
        />
      )}
    </section>
  );
}
