import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices } from '../services.js';
import { errorText } from '../ui/errors.js';
import { refusalOf } from '../ui/form.js';
import { initials, relativeTime } from '../ui/format.js';
import { CONTACT_FIELD_OF, type ContactField, ExtraFields, type ExtraInfo, filledExtraInfo } from './contact-fields.js';
import { TagChips } from './ticket-actions.js';

type Ticket = Schema<'TicketDetails'>;
type ContactDetails = Schema<'ContactDetails'>;

const REMEMBER = 'servicedesk.contactPanel';
const TOGGLE_ID = 'contact-panel-toggle';
const PANEL_ID = 'contact-panel';
const isPhone = () => window.matchMedia?.('(max-width: 720px)').matches ?? false;

/**
 * Whether the contact panel is shown. On a wide screen the choice is remembered; at a phone's width
 * the panel is a full-screen sheet, so it always starts closed.
 */
export function useContactPanel(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => !isPhone() && localStorage.getItem(REMEMBER) === '1');
  return [
    open,
    (next: boolean) => {
      if (!isPhone()) {
        if (next) localStorage.setItem(REMEMBER, '1');
        else localStorage.removeItem(REMEMBER);
      }
      setOpen(next);
    },
  ];
}

export function ContactPanelToggle({ open, setOpen }: { open: boolean; setOpen: (open: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <button type="button" id={TOGGLE_ID} aria-expanded={open} aria-controls={open ? PANEL_ID : undefined} onClick={() => setOpen(!open)}>
      {t('contact.toggle')}
    </button>
  );
}

/** The ticket's contact beside the conversation: who it is, its fields and tags, block, its other tickets, and editing. */
export function ContactPanel({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const contact = useQuery({
    queryKey: keys.contact(ticket.contactId),
    queryFn: () => must(api.GET('/contacts/{contactId}', { params: { path: { contactId: ticket.contactId } } })),
  });

  // Opened from the header: the focus moves to the panel (at a phone's width it covers the screen).
  useEffect(() => heading.current?.focus(), []);
  const close = () => {
    onClose();
    document.getElementById(TOGGLE_ID)?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented) {
      e.stopPropagation();
      close();
    }
  };

  return (
    <aside id={PANEL_ID} className="contact-panel" aria-labelledby={headingId} onKeyDown={onKeyDown} data-testid="contact-panel">
      <div className="panel-head">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          {t('contact.title')}
        </h2>
        <button type="button" aria-label={t('contact.closePanel')} onClick={close}>
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className="panel-body">
        {contact.isLoading && <p className="loading">{t('app.loading')}</p>}
        {contact.error && (
          <p className="form-error" role="alert">
            {errorText(t, contact.error)}
          </p>
        )}
        {contact.data && <ContactDetailsView ticket={ticket} contact={contact.data} />}
      </div>
    </aside>
  );
}

function Avatar({ contact }: { contact: ContactDetails }) {
  const [broken, setBroken] = useState(false);
  // Decorative: the name is written beside it.
  if (contact.urlPicture && !broken) return <img className="avatar big" src={contact.urlPicture} alt="" onError={() => setBroken(true)} />;
  return (
    <span className="avatar big" aria-hidden="true">
      {initials(contact.name)}
    </span>
  );
}

function ContactDetailsView({ ticket, contact }: { ticket: Ticket; contact: ContactDetails }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const [editing, setEditing] = useState(false);
  const users = useQuery({ queryKey: keys.users, queryFn: () => must(api.GET('/users/list')), enabled: contact.walletUserId !== null });
  const wallet = contact.walletUserId === null ? null : (users.data?.find((u) => u.id === contact.walletUserId)?.name ?? `#${contact.walletUserId}`);
  const channel = ticket.chatapp ? `${ticket.chatapp.name} (${t(`contact.channels.${ticket.chatapp.channel}`)})` : '—';

  return (
    <>
      <div className="contact-card">
        <Avatar contact={contact} />
        <div>
          <p className="contact-name" data-testid="contact-name">
            {contact.name}
          </p>
          <p className="muted">{contact.number}</p>
        </div>
      </div>
      {editing ? (
        <ContactForm contact={contact} ticketId={ticket.id} done={() => setEditing(false)} />
      ) : (
        <>
          <dl className="facts">
            <Fact term={t('ticket.number')} value={contact.number} />
            <Fact term={t('contact.channel')} value={channel} />
            <Fact term={t('contact.email')} value={contact.email || '—'} />
            {wallet && <Fact term={t('contact.wallet')} value={wallet} />}
            {contact.extraInfo.map((info, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: labels may repeat; the order is the contact's
              <Fact key={i} term={info.name} value={info.value} />
            ))}
          </dl>
          <button type="button" onClick={() => setEditing(true)}>
            {t('contact.edit')}
          </button>
        </>
      )}
      <section className="panel-section" aria-label={t('contact.tags')}>
        <h3>{t('contact.tags')}</h3>
        {contact.tags.length ? <TagChips tags={contact.tags} label={t('contact.tags')} /> : <p className="muted">{t('contact.noTags')}</p>}
      </section>
      <BlockContact contact={contact} ticketId={ticket.id} />
      <PreviousTickets ticket={ticket} number={contact.number} />
      <ConversationFiles ticketId={ticket.id} />
    </>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div className="fact">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** The server's answer is the contact now: the panel and the open ticket's header show it at once. */
function useShowContact(ticketId: number) {
  const { queryClient } = useServices();
  return (next: ContactDetails) => {
    queryClient.setQueryData(keys.contact(next.id), next);
    queryClient.setQueryData<Ticket>(keys.ticket(ticketId), (current) =>
      current?.contact ? { ...current, contact: { ...current.contact, ...next, tags: current.contact.tags } } : current,
    );
    void queryClient.invalidateQueries({ queryKey: keys.tickets });
  };
}

function BlockContact({ contact, ticketId }: { contact: ContactDetails; ticketId: number }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const show = useShowContact(ticketId);
  const block = useMutation({
    mutationFn: (blocked: boolean) => must(api.PUT('/contacts/block/{contactId}', { params: { path: { contactId: contact.id } }, body: { blocked } })),
    onSuccess: show,
  });
  return (
    <section className="panel-section" aria-label={t('contact.blocking')}>
      <h3>{t('contact.blocking')}</h3>
      <p role="status" data-testid="contact-blocked">
        {contact.blocked ? t('contact.blocked') : t('contact.notBlocked')}
      </p>
      <button type="button" disabled={block.isPending} onClick={() => block.mutate(!contact.blocked)}>
        {contact.blocked ? t('contact.unblock') : t('contact.block')}
      </button>
      {block.error && (
        <p className="form-error" role="alert">
          {errorText(t, block.error)}
        </p>
      )}
    </section>
  );
}

/** The contact's other tickets: the ticket list searched by its number, kept to this contact. */
function PreviousTickets({ ticket, number }: { ticket: Ticket; number: string }) {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const list = useQuery({
    queryKey: keys.contactTickets(ticket.contactId),
    queryFn: () => must(api.GET('/tickets', { params: { query: { status: 'search', searchParam: number, showAll: 'true' } } })),
  });
  const others = (list.data?.tickets ?? []).filter((x) => x.contactId === ticket.contactId && x.id !== ticket.id);
  return (
    <section className="panel-section" aria-label={t('contact.previous')}>
      <h3>{t('contact.previous')}</h3>
      {list.isLoading && <p className="muted">{t('app.loading')}</p>}
      {list.error && (
        <p className="form-error" role="alert">
          {errorText(t, list.error)}
        </p>
      )}
      {list.data && others.length === 0 && <p className="muted">{t('contact.noPrevious')}</p>}
      {others.length > 0 && (
        <ul className="previous-tickets" data-testid="previous-tickets">
          {others.map((x) => (
            <li key={x.id}>
              <Link to="/tickets/$ticketId" params={{ ticketId: String(x.id) }} className="previous-link">
                <span>
                  #{x.id} · {t(`ticket.status.${x.status}`)} · <time dateTime={x.updatedAt}>{relativeTime(x.updatedAt, i18n.language)}</time>
                </span>
                <span className="muted ticket-last">{x.lastMessage || t('inbox.noMessage')}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The files of this conversation, newest first (`GET /messages/media`, 20 a page), each opening in a
 * new tab: under the conversation's messages key, so a message's frame refreshes it.
 */
function ConversationFiles({ ticketId }: { ticketId: number }) {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const list = useInfiniteQuery({
    queryKey: [...keys.messages(ticketId), 'media'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/messages/media', { params: { query: { ticketId, pageNumber: pageParam } } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const files = (list.data?.pages ?? []).flatMap((p) => p.messages).filter((m) => m.media && !m.media.status);
  return (
    <section className="panel-section" aria-label={t('contact.files')}>
      <h3>{t('contact.files')}</h3>
      {list.isLoading && <p className="muted">{t('app.loading')}</p>}
      {list.error && (
        <p className="form-error" role="alert">
          {errorText(t, list.error)}
        </p>
      )}
      {list.data && files.length === 0 && <p className="muted">{t('contact.noFiles')}</p>}
      {files.length > 0 && (
        <ul className="conversation-files" data-testid="conversation-files">
          {files.map((m) => (
            <li key={m.id}>
              <a href={m.media!.url} target="_blank" rel="noreferrer">
                {m.media!.filename}
              </a>{' '}
              <span className="muted small-text">
                {t(m.fromMe ? 'contact.fileSent' : 'contact.fileReceived')} · <time dateTime={m.createdAt}>{relativeTime(m.createdAt, i18n.language)}</time>
              </span>
            </li>
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <button type="button" className="small" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t('contact.moreFiles')}
        </button>
      )}
    </section>
  );
}

function ContactForm({ contact, ticketId, done }: { contact: ContactDetails; ticketId: number; done: () => void }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const show = useShowContact(ticketId);
  const [name, setName] = useState(contact.name);
  const [email, setEmail] = useState(contact.email ?? '');
  const [extra, setExtra] = useState<ExtraInfo[]>(() => contact.extraInfo.map((i) => ({ ...i })));
  const ids = { name: useId(), email: useId() };
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/contacts/{contactId}', {
          params: { path: { contactId: contact.id } },
          body: { name, email: email.trim() || null, extraInfo: filledExtraInfo(extra) },
        }),
      ),
    onSuccess: (next) => {
      show(next);
      done();
    },
  });
  const refusal = refusalOf<ContactField>(t, save.error, CONTACT_FIELD_OF);
  const byField = refusal.byField;
  // The panel has no number field: a refusal about the number is shown with the form's.
  const formError = refusal.form ?? byField.number ?? null;

  const invalid = (f: 'name' | 'email') => (byField[f] ? { 'aria-invalid': true, 'aria-describedby': ids[f] } : {});
  const fieldError = (f: 'name' | 'email') =>
    byField[f] ? (
      <span id={ids[f]} className="form-error" role="alert">
        {byField[f]}
      </span>
    ) : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  return (
    <form className="form contact-form" onSubmit={submit} aria-label={t('contact.editTitle')} noValidate>
      <label>
        {t('contact.name')}
        <input value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" {...invalid('name')} />
        {fieldError('name')}
      </label>
      <label>
        {t('contact.email')}
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" {...invalid('email')} />
        {fieldError('email')}
      </label>
      <ExtraFields rows={extra} onChange={setExtra} error={byField.extraInfo} />
      {formError && (
        <p className="form-error" role="alert">
          {formError}
        </p>
      )}
      <div className="dialog-buttons">
        <button type="button" onClick={done}>
          {t('actions.cancel')}
        </button>
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('contact.save')}
        </button>
      </div>
    </form>
  );
}
