import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminList, usePagedList } from '../../ui/admin-list.js';
import { AdminHeader } from '../../ui/admin-screen.js';
import { codeOf, errorText } from '../../ui/errors.js';
import { ConfirmButton } from '../../ui/form.js';
import type { Prompt } from './prompt.js';
import { PromptDialog } from './prompt-dialog.js';
import { strings } from './strings.js';
import { TestChat } from './test-chat.js';
import './prompts.css';

/** What the list says of the key: whether one is saved, never the key. */
export function keyState(t: TFunction, p: Pick<Prompt, 'hasApiKey' | 'apiKeyLast4'>): string {
  if (!p.hasApiKey) return t('keyNotSet');
  return p.apiKeyLast4 ? t('keySetHint', { last4: p.apiKeyLast4 }) : t('keySet');
}

/**
 * `/prompts`: the company's AI assistants (admins, on a plan with AI), searched and paged, live from
 * `prompt` frames; created and edited with the key write-only, tried in a test conversation, and
 * the tokens each has used.
 */
export function Prompts() {
  const { t, i18n } = useScreenStrings('prompts', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const [trying, setTrying] = useState<Prompt | null>(null);
  const [notice, setNotice] = useState('');
  const numbers = new Intl.NumberFormat(i18n.language);

  const list = usePagedList({
    key: keys.prompts,
    fetch: (pageNumber, searchParam) => must(api.GET('/prompt', { params: { query: { pageNumber, ...(searchParam ? { searchParam } : {}) } } })),
    items: (page) => page.prompts,
    enabled: isAdmin,
    retry: (count, err) => count < 2 && !['ERR_PLAN_FEATURE_DISABLED', 'ERR_NO_PERMISSION'].includes(codeOf(err)),
  });
  const prompts = list.items;

  const remove = useMutation({
    mutationFn: (p: Prompt) => must(api.DELETE('/prompt/{promptId}', { params: { path: { promptId: p.id } } })),
    onSuccess: (_, p) => {
      setNotice(t('deleted', { name: p.name }));
      void client.invalidateQueries({ queryKey: keys.prompts });
    },
  });

  const header = <AdminHeader titleId="prompts-title" title={t('title')} intro={t('intro')} />;
  const gate = !isAdmin ? 'adminsOnly' : codeOf(list.error) === 'ERR_PLAN_FEATURE_DISABLED' ? 'notForPlan' : null;
  if (gate) {
    return (
      <section className="admin-screen" aria-labelledby="prompts-title">
        {header}
        <p className="placeholder" role="status">
          {t(gate)}
        </p>
      </section>
    );
  }

  return (
    <section className="admin-screen prompts-screen" aria-labelledby="prompts-title">
      <AdminHeader
        titleId="prompts-title"
        title={t('title')}
        intro={t('intro')}
        search={{ label: t('search'), value: list.search, onChange: list.setSearch }}
        add={{ label: t('add'), onClick: () => setEditing('new') }}
      />
      <AdminList
        labelledBy="prompts-title"
        list={list}
        notice={notice}
        errors={[list.error ? errorText(t, list.error) : null, remove.error && errorText(t, remove.error)]}
        count={(count) => t('count', { count })}
        empty={t('empty')}
        noMatch={t('noMatch')}
        head={
          <>
            <th scope="col">{t('columns.name')}</th>
            <th scope="col">{t('columns.model')}</th>
            <th scope="col">{t('columns.queue')}</th>
            <th scope="col">{t('columns.key')}</th>
            <th scope="col" className="number">
              {t('columns.tokens')}
            </th>
            <th scope="col">{t('list.actions')}</th>
          </>
        }
        row={(p) => (
          <tr key={p.id} data-testid={`prompt-${p.id}`}>
            <th scope="row">{p.name}</th>
            <td data-label={t('columns.model')}>{p.model}</td>
            <td data-label={t('columns.queue')}>{p.queue ? p.queue.name : t('noQueue')}</td>
            <td data-label={t('columns.key')}>{keyState(t, p)}</td>
            <td className="number" data-label={t('columns.tokens')}>
              <span data-testid="tokens">{numbers.format(p.totalTokens)}</span>
              <span className="muted small-text prompt-token-detail">
                {t('tokensDetail', { prompt: numbers.format(p.promptTokens), completion: numbers.format(p.completionTokens) })}
              </span>
            </td>
            <td className="row-actions">
              <button type="button" className="small" aria-label={t('tryLabel', { name: p.name })} onClick={() => setTrying(p)}>
                {t('tryIt')}
              </button>
              <button type="button" className="small" aria-label={t('editLabel', { name: p.name })} onClick={() => setEditing(p)}>
                {t('list.edit')}
              </button>
              <ConfirmButton
                className="small"
                label={t('list.delete')}
                title={t('deleteTitle', { name: p.name })}
                description={t('deleteBody')}
                confirmLabel={t('list.delete')}
                disabled={remove.isPending}
                onConfirm={() => remove.mutate(p)}
              />
            </td>
          </tr>
        )}
      />
      {editing && (
        <PromptDialog
          prompt={editing === 'new' ? null : editing}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved.name }));
          }}
        />
      )}
      {trying && <TestChat prompt={trying} close={() => setTrying(null)} />}
    </section>
  );
}
