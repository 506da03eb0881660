import { KEYWORD_MATCHES, TRIGGER_TYPES } from '@servicedesk/core/flows/flow';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { Field, refusalOf } from '../../ui/form.js';
import { strings } from './strings.js';

type Flow = Schema<'Flow'>;
type Trigger = Flow['triggers'][number];
type Connection = Schema<'Connection'>;

const FIELD_OF = { ERR_FLOW_NOT_PUBLISHED: 'active', ERR_FLOW_INVALID_TRIGGERS: 'triggers', ERR_NO_CONNECTION_FOUND: 'triggers' } as const;

/**
 * When the flow starts by itself (`PUT /flows/:flowId` with `active` and `triggers`): a contact's
 * first conversation, a keyword, a message no keyword matched, or only by hand; on every connection
 * or on those chosen. Switching it on needs a published version (the refusal is shown at the switch).
 */
export function TriggersDialog({ flow, onClose }: { flow: Flow; onClose: (notice: string | null) => void }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [active, setActive] = useState(flow.active);
  const [triggers, setTriggers] = useState<Trigger[]>(flow.triggers.map((tr) => ({ ...tr, keywords: [...tr.keywords], chatappIds: [...tr.chatappIds] })));
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const save = useMutation({
    mutationFn: () => must(api.PUT('/flows/{flowId}', { params: { path: { flowId: flow.id } }, body: { active, triggers } })),
    onSuccess: (saved) => {
      client.setQueryData(keys.flow(flow.id), saved);
      void client.invalidateQueries({ queryKey: keys.flows });
      onClose(saved.active ? t('triggers.savedOn') : t('triggers.savedOff'));
    },
  });
  const refusal = refusalOf<'active' | 'triggers'>(t, save.error, FIELD_OF);
  const set = (i: number, change: Partial<Trigger>) => setTriggers((all) => all.map((tr, j) => (j === i ? { ...tr, ...change } : tr)));

  return (
    <FormDialog
      title={t('triggers.title', { name: flow.name })}
      description={t('triggers.intro')}
      hideDescription={false}
      submitLabel={t('list.save')}
      onSubmit={() => save.mutate()}
      onClose={() => onClose(null)}
      pending={save.isPending}
      error={refusal.form}
      className="flow-triggers-dialog"
    >
      <label className="check">
        <input
          type="checkbox"
          checked={active}
          onChange={(e) => setActive(e.target.checked)}
          aria-invalid={refusal.byField.active ? true : undefined}
          aria-describedby={refusal.byField.active ? 'flow-active-error' : undefined}
        />
        {t('triggers.active')}
      </label>
      {refusal.byField.active && (
        <span id="flow-active-error" className="form-error" role="alert">
          {refusal.byField.active}
        </span>
      )}
      {triggers.map((tr, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: triggers have no id; their place is their identity while edited
        <fieldset className="flow-rows" key={i}>
          <legend>{t('triggers.trigger', { n: i + 1 })}</legend>
          <Field label={t('triggers.type', { n: i + 1 })}>
            {(p) => (
              <select {...p} value={tr.type} onChange={(e) => set(i, { type: e.target.value as Trigger['type'] })}>
                {TRIGGER_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`triggers.types.${type}`)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {tr.type === 'keyword' && (
            <>
              {tr.keywords.map((k, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: keywords have no id either
                <div className="flow-row" key={j}>
                  <Field label={t('triggers.keyword', { n: j + 1 })}>
                    {(p) => (
                      <input
                        {...p}
                        value={k.text}
                        onChange={(e) => set(i, { keywords: tr.keywords.map((x, m) => (m === j ? { ...x, text: e.target.value } : x)) })}
                      />
                    )}
                  </Field>
                  <Field label={t('triggers.match', { n: j + 1 })}>
                    {(p) => (
                      <select
                        {...p}
                        value={k.match}
                        onChange={(e) => set(i, { keywords: tr.keywords.map((x, m) => (m === j ? { ...x, match: e.target.value as typeof k.match } : x)) })}
                      >
                        {KEYWORD_MATCHES.map((m) => (
                          <option key={m} value={m}>
                            {t(`triggers.matches.${m}`)}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                  <button type="button" className="small" onClick={() => set(i, { keywords: tr.keywords.filter((_, m) => m !== j) })}>
                    {t('triggers.removeKeyword', { n: j + 1 })}
                  </button>
                </div>
              ))}
              <button type="button" className="small" onClick={() => set(i, { keywords: [...tr.keywords, { text: '', match: 'contains' }] })}>
                {t('triggers.addKeyword')}
              </button>
            </>
          )}
          <fieldset className="flow-rows">
            <legend>{t('triggers.connections')}</legend>
            {(connections.data ?? []).map((c) => (
              <label className="check" key={c.id}>
                <input
                  type="checkbox"
                  checked={tr.chatappIds.includes(c.id)}
                  onChange={(e) => set(i, { chatappIds: e.target.checked ? [...tr.chatappIds, c.id] : tr.chatappIds.filter((x) => x !== c.id) })}
                />
                {c.name}
              </label>
            ))}
            <span className="hint">{t('triggers.connectionsHint')}</span>
          </fieldset>
          <button type="button" className="small" onClick={() => setTriggers((all) => all.filter((_, j) => j !== i))}>
            {t('triggers.remove', { n: i + 1 })}
          </button>
        </fieldset>
      ))}
      {refusal.byField.triggers && (
        <span className="form-error" role="alert">
          {refusal.byField.triggers}
        </span>
      )}
      {triggers.length < 20 && (
        <button type="button" className="small" onClick={() => setTriggers((all) => [...all, { type: 'welcome', chatappIds: [], keywords: [] }])}>
          {t('triggers.add')}
        </button>
      )}
    </FormDialog>
  );
}
