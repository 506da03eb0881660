import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { Field, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { strings } from './strings.js';

type Connection = Schema<'Connection'>;
type Run = Schema<'FlowRun'>;

/** The execute route's refusals that name a field of the dialog. */
const FIELD_OF = {
  ERR_NO_TICKET_FOUND: 'ticketId',
  ERR_FLOW_TICKET_TAKEN: 'ticketId',
  ERR_FLOW_RUN_ACTIVE: 'ticketId',
  ERR_NO_CONTACT_FOUND: 'contactId',
  ERR_NO_CONNECTION_FOUND: 'chatappId',
} as const;
type ExecuteField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/**
 * Runs the published version now (`POST /flows/:flowId/execute`): on a conversation by its number,
 * or on a contact's conversation on a connection (opened when it has none), as the route takes.
 */
export function ExecuteDialog({ flowId, onClose }: { flowId: number; onClose: () => void }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const [target, setTarget] = useState<'contact' | 'ticket'>('contact');
  const [ticketId, setTicketId] = useState('');
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [contactId, setContactId] = useState<number | null>(null);
  const [chatappId, setChatappId] = useState<number | null>(null);
  const [run, setRun] = useState<Run | null>(null);

  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const contacts = useQuery({
    queryKey: [...keys.contacts, 'flow-execute', searchParam],
    queryFn: () => must(api.GET('/contacts', { params: { query: { pageNumber: 1, ...(searchParam ? { searchParam } : {}) } } })),
    enabled: target === 'contact',
  });
  const chosenConnection = chatappId ?? connections.data?.[0]?.id ?? null;

  const execute = useMutation({
    mutationFn: () =>
      must(
        api.POST('/flows/{flowId}/execute', {
          params: { path: { flowId } },
          body:
            target === 'ticket'
              ? { ticketId: Number(ticketId) }
              : { ...(contactId !== null ? { contactId } : {}), ...(chosenConnection !== null ? { chatappId: chosenConnection } : {}) },
        }),
      ),
    onSuccess: setRun,
  });
  const refusal = refusalOf<ExecuteField>(t, execute.error, FIELD_OF);

  if (run) {
    return (
      <FormDialog title={t('run.doneTitle')} description={t('run.intro')} submitLabel={t('run.close')} onSubmit={onClose} onClose={onClose}>
        <p role="status">{t('run.started', { ticket: run.ticketId, status: t(`run.statuses.${run.status}`) })}</p>
        <Link to="/tickets/$ticketId" params={{ ticketId: String(run.ticketId) }}>
          {t('run.openConversation', { ticket: run.ticketId })}
        </Link>
      </FormDialog>
    );
  }
  return (
    <FormDialog
      title={t('run.title')}
      description={t('run.intro')}
      hideDescription={false}
      submitLabel={t('run.submit')}
      onSubmit={() => execute.mutate()}
      onClose={onClose}
      pending={execute.isPending}
      error={refusal.form}
    >
      <fieldset className="flow-rows">
        <legend>{t('run.target')}</legend>
        <label className="check">
          <input type="radio" name="flow-run-target" checked={target === 'contact'} onChange={() => setTarget('contact')} />
          {t('run.onContact')}
        </label>
        <label className="check">
          <input type="radio" name="flow-run-target" checked={target === 'ticket'} onChange={() => setTarget('ticket')} />
          {t('run.onTicket')}
        </label>
      </fieldset>
      {target === 'ticket' ? (
        <Field label={t('run.ticket')} error={refusal.byField.ticketId}>
          {(p) => <input {...p} type="number" min={1} value={ticketId} onChange={(e) => setTicketId(e.target.value)} />}
        </Field>
      ) : (
        <>
          <Field label={t('run.searchContact')}>{(p) => <input {...p} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />}</Field>
          <Field label={t('run.contact')} error={refusal.byField.contactId ?? refusal.byField.ticketId}>
            {(p) => (
              <select {...p} value={contactId ?? ''} onChange={(e) => setContactId(e.target.value ? Number(e.target.value) : null)}>
                <option value="">{t('form.choose')}</option>
                {(contacts.data?.contacts ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.number})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('run.connection')} error={refusal.byField.chatappId}>
            {(p) => (
              <select {...p} value={chosenConnection ?? ''} onChange={(e) => setChatappId(e.target.value ? Number(e.target.value) : null)}>
                {(connections.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </>
      )}
    </FormDialog>
  );
}
