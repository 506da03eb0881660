import { type InfiniteData, useMutation, useQuery, type useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { DropdownMenu } from 'radix-ui';
import { type ReactNode, useId, useState } from 'react';
import { must, type Schema } from '../api/client.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices, useSession } from '../services.js';
import { FormDialog } from '../ui/admin-screen.js';
import { errorText } from '../ui/errors.js';
import { ConfirmDialog, Field, FormError, refusalOf } from '../ui/form.js';
import { MESSAGE_ACTIONS_NS, messageActionStrings } from './message-actions-strings.js';
import { messageAbilities } from './message-abilities.js';
import './message-actions.css';

type Message = Schema<'Message'>;
type MessagePage = Schema<'TicketMessagePage'>;
type Ticket = Schema<'TicketDetails'>;

export function useMessageActionStrings() {
  return useScreenStrings(MESSAGE_ACTIONS_NS, messageActionStrings);
}

/** The message the server answered replaces the one in the loaded pages. */
function showMessage(client: ReturnType<typeof useQueryClient>, next: Message) {
  client.setQueryData<InfiniteData<MessagePage>>(keys.messages(next.ticketId), (data) =>
    data ? { ...data, pages: data.pages.map((p) => ({ ...p, messages: p.messages.map((m) => (m.id === next.id ? next : m)) })) } : data,
  );
}

type Open = 'edit' | 'delete' | 'forward' | null;

/** A message's menu (a button always shown, so reachable by keyboard and touch): edit, delete, forward, as the routes allow. */
export function MessageActions({ message, ticketId }: { message: Message; ticketId: number }) {
  const { t } = useMessageActionStrings();
  const { queryClient } = useServices();
  const session = useSession();
  const channel = queryClient.getQueryData<Ticket>(keys.ticket(ticketId))?.channel;
  const can = messageAbilities(message, session?.user, channel);
  const [open, setOpen] = useState<Open>(null);
  if (!can.edit && !can.remove && !can.forward) return null;
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <button type="button" className="message-menu" aria-label={t('menu')} data-testid="message-menu">
            <span aria-hidden="true">⋯</span>
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="message-menu-list" align="end" sideOffset={4}>
            {can.edit && (
              <DropdownMenu.Item className="message-menu-item" onSelect={() => setOpen('edit')}>
                {t('edit')}
              </DropdownMenu.Item>
            )}
            {can.forward && (
              <DropdownMenu.Item className="message-menu-item" onSelect={() => setOpen('forward')}>
                {t('forward')}
              </DropdownMenu.Item>
            )}
            {can.remove && (
              <DropdownMenu.Item className="message-menu-item danger" onSelect={() => setOpen('delete')}>
                {t('delete')}
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {open === 'edit' && <EditMessageDialog message={message} onClose={() => setOpen(null)} />}
      {open === 'delete' && <DeleteMessageDialog message={message} onClose={() => setOpen(null)} />}
      {open === 'forward' && <ForwardMessageDialog message={message} onClose={() => setOpen(null)} />}
    </>
  );
}

const EDIT_FIELD_OF = { ERR_EMPTY_MESSAGE: 'body', ERR_MESSAGE_TOO_LONG: 'body' } as const;

function EditMessageDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const { t } = useMessageActionStrings();
  const { api, queryClient } = useServices();
  const [body, setBody] = useState(message.body);
  const edit = useMutation({
    mutationFn: () => must(api.POST('/messages/edit/{messageId}', { params: { path: { messageId: message.id } }, body: { body } })),
    onSuccess: (next) => {
      showMessage(queryClient, next);
      onClose();
    },
  });
  const refusal = refusalOf(t, edit.error, EDIT_FIELD_OF);
  return (
    <FormDialog
      title={t('editTitle')}
      description={message.isPrivate ? t('editIntro') : t('editSentIntro')}
      hideDescription={false}
      submitLabel={t('save')}
      onSubmit={() => edit.mutate()}
      onClose={onClose}
      pending={edit.isPending}
      error={refusal.form}
    >
      <Field label={t('text')} error={refusal.byField.body}>
        {(input) => <textarea {...input} rows={4} maxLength={4096} value={body} onChange={(e) => setBody(e.target.value)} />}
      </Field>
    </FormDialog>
  );
}

function DeleteMessageDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const { t } = useMessageActionStrings();
  const { api, queryClient } = useServices();
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/messages/{messageId}', { params: { path: { messageId: message.id } } })),
    onSuccess: (next) => {
      showMessage(queryClient, next);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      stayOpen
      title={t('deleteTitle')}
      description={message.isPrivate || message.status === 'failed' ? t('deleteNote') : t('deleteSent')}
      confirmLabel={t('confirmDelete')}
      onConfirm={() => remove.mutate()}
      onClose={onClose}
      pending={remove.isPending}
      error={remove.error ? errorText(t, remove.error) : null}
    />
  );
}

/** Forward (`POST /message/forward`): a contact found by name or number (`GET /contacts/list`) receives a copy. */
function ForwardMessageDialog({ message, onClose }: { message: Message; onClose: () => void }) {
  const { t } = useMessageActionStrings();
  const { api } = useServices();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<Schema<'ContactChoice'> | null>(null);
  const [missing, setMissing] = useState(false);
  const contacts = useQuery({
    queryKey: [...keys.contacts, 'choices', search.trim()],
    queryFn: () => must(api.GET('/contacts/list', { params: { query: { searchParam: search.trim(), limit: 20 } } })),
  });
  const forward = useMutation({
    mutationFn: (contactId: number) => must(api.POST('/message/forward', { body: { messageId: message.id, contactId } })),
  });
  const submit = () => {
    if (!chosen) {
      setMissing(true);
      return;
    }
    forward.mutate(chosen.id);
  };
  const listId = useId();
  const done = forward.data;
  const choices = (contacts.data ?? []).filter((c) => c.id !== message.contactId);
  return (
    <FormDialog
      title={t('forwardTitle')}
      description={t('forwardIntro')}
      hideDescription={false}
      submitLabel={t('confirmForward')}
      onSubmit={submit}
      onClose={onClose}
      pending={forward.isPending}
      error={forward.error ? errorText(t, forward.error) : null}
    >
      <Field label={t('searchContacts')} hint={t('searchHint')}>
        {(input) => <input {...input} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />}
      </Field>
      <fieldset className="forward-choices" aria-describedby={missing && !chosen ? listId : undefined} aria-busy={contacts.isFetching}>
        <legend>{t('contacts')}</legend>
        {contacts.data && choices.length === 0 && <p className="muted">{t('noContacts')}</p>}
        {choices.map((c) => (
          <label key={c.id} className="check">
            <input type="radio" name="forward-contact" checked={chosen?.id === c.id} onChange={() => setChosen(c)} />
            {c.name || c.number} <span className="muted">{c.number}</span>
          </label>
        ))}
        {missing && !chosen && (
          <span id={listId} className="form-error" role="alert">
            {t('chooseContact')}
          </span>
        )}
      </fieldset>
      {done && (
        <p className="form-ok" role="status">
          {t('forwarded', { name: done.ticket.contact?.name || done.ticket.contact?.number || chosen?.name })}{' '}
          <Link to="/tickets/$ticketId" params={{ ticketId: String(done.ticket.id) }} onClick={onClose}>
            {t('openForwarded')}
          </Link>
        </p>
      )}
    </FormDialog>
  );
}
