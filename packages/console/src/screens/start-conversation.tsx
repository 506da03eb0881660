import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { must, type Schema } from '../api/client.js';
import { useScreenStrings, type ScreenStrings } from '../i18n/screen-strings.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices } from '../services.js';
import { codeOf, errorText } from '../ui/errors.js';
import { FormError } from '../ui/form.js';

type Connection = Schema<'Connection'>;
type Api = ReturnType<typeof useServices>['api'];

/**
 * The connection a new conversation goes out on without asking: the company's default, else its
 * only one; null when there are several and none is the default (the operator chooses).
 */
export function connectionToTalkOn(connections: readonly Pick<Connection, 'id' | 'isDefault'>[]): number | null {
  return connections.find((c) => c.isDefault)?.id ?? (connections.length === 1 ? connections[0]!.id : null);
}

/**
 * Opens a ticket with the contact on the connection (`POST /tickets`) or, when the contact already
 * has an active one there (409 `ERR_OTHER_OPEN_TICKET`), finds that one. Answers the ticket's id.
 */
export async function openTicket(api: Api, contact: { id: number; number: string }, chatappId: number | null): Promise<number> {
  try {
    return (await must(api.POST('/tickets', { body: { contactId: contact.id, chatappId } }))).id;
  } catch (err) {
    if (codeOf(err) !== 'ERR_OTHER_OPEN_TICKET') throw err;
    const list = await must(api.GET('/tickets', { params: { query: { status: 'search', searchParam: contact.number, showAll: 'true' } } }));
    const active = list.tickets.find((x) => x.contactId === contact.id && (chatappId === null || x.chatappId === chatappId) && x.status !== 'closed');
    if (!active) throw err;
    return active.id;
  }
}

const en = {
  title: 'Conversation with {{name}}',
  description: 'The company has several connections and none is the default: choose the one to talk on.',
  connection: 'Connection',
  start: 'Start',
  cancel: 'Cancel',
};
const strings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': {
    title: 'Conversar com {{name}}',
    description: 'A empresa tem várias conexões e nenhuma é a padrão: escolha por qual conversar.',
    connection: 'Conexão',
    start: 'Iniciar',
    cancel: 'Cancelar',
  },
  es: {
    title: 'Conversar con {{name}}',
    description: 'La empresa tiene varias conexiones y ninguna es la predeterminada: elija por cuál conversar.',
    connection: 'Conexión',
    start: 'Iniciar',
    cancel: 'Cancelar',
  },
};

/**
 * "Conversation" with a contact: opens its ticket on the default (or only) connection and goes to
 * it, or first asks which connection when that cannot be told. `start(contact)` begins; render
 * `dialog` where the screen keeps its dialogs; `error` is the refusal in words.
 */
export function useStartConversation() {
  const { t } = useScreenStrings('startConversation', strings);
  const { api } = useServices();
  const navigate = useNavigate();
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });
  const [asking, setAsking] = useState<{ id: number; number: string; name: string } | null>(null);
  const open = useMutation({
    mutationFn: ({ contact, chatappId }: { contact: { id: number; number: string }; chatappId: number | null }) => openTicket(api, contact, chatappId),
    onSuccess: (ticketId) => {
      setAsking(null);
      void navigate({ to: '/tickets/$ticketId', params: { ticketId: String(ticketId) } });
    },
  });
  const start = async (contact: { id: number; number: string; name: string }) => {
    const list = connections.data ?? (await connections.refetch()).data ?? [];
    const chatappId = connectionToTalkOn(list);
    if (chatappId === null && list.length > 1) setAsking(contact);
    // None at all: the server's refusal says so.
    else open.mutate({ contact, chatappId });
  };
  const dialog = asking && (
    <ChooseConnection
      t={t}
      name={asking.name}
      connections={connections.data ?? []}
      busy={open.isPending}
      error={open.error ? errorText(t, open.error) : null}
      close={() => setAsking(null)}
      choose={(chatappId) => open.mutate({ contact: asking, chatappId })}
    />
  );
  return { start, dialog, pending: open.isPending, error: !asking && open.error ? errorText(t, open.error) : null };
}

function ChooseConnection(props: {
  t: TFunction;
  name: string;
  connections: readonly Connection[];
  busy: boolean;
  error: string | null;
  close: () => void;
  choose: (chatappId: number) => void;
}) {
  const { t } = props;
  const [chosen, setChosen] = useState(props.connections[0]?.id ?? 0);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.choose(chosen);
  };
  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{t('title', { name: props.name })}</Dialog.Title>
          <Dialog.Description>{t('description')}</Dialog.Description>
          <form className="form" onSubmit={submit}>
            <label>
              {t('connection')}
              <select value={chosen} onChange={(e) => setChosen(Number(e.target.value))}>
                {props.connections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <FormError text={props.error} />
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={props.busy}>
                {t('start')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
