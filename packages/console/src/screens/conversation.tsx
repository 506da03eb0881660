import { type InfiniteData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { PaperclipIcon } from '../ui/icons.js';
import { useServices, useSession } from '../services.js';
import { dayLabel, timeOfDay } from '../ui/format.js';
import { errorText, failureText } from '../ui/errors.js';
import { ReplyBox } from './reply-box.js';
import { ContactPanel, ContactPanelToggle, useContactPanel } from './contact-panel.js';
import {
  BackToList,
  CloseTicketButton,
  DeleteTicketButton,
  IgnoreTicketButton,
  LgpdConsent,
  MarkUnreadButton,
  ScheduleDialog,
  TicketTags,
  TransferDialog,
} from './ticket-actions.js';
import { TicketViewers } from './ticket-viewers.js';
import { ContactTyping } from './contact-typing.js';
import { InboundMediaState } from './inbound-media.js';
import { isTranscribable, Transcript } from './transcribe.js';
import { isSharedMessage, SharedCards, sharedPreview } from './shared-cards.js';
import { ConversationCommerce } from './orders/conversation-buttons.js';
import { MessageActions } from './message-actions.js';

type Ticket = Schema<'TicketDetails'>;
type Message = Schema<'Message'>;
type MessagePage = Schema<'TicketMessagePage'>;

/** One conversation: its header and actions, its messages (older on scroll up), the reply box. */
export function Conversation({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const { api, queryClient } = useServices();
  const [panelOpen, setPanelOpen] = useContactPanel();
  const messages = useInfiniteQuery({
    queryKey: keys.messages(ticketId),
    initialPageParam: 1,
    queryFn: async ({ pageParam }) => {
      const page = await must(api.GET('/messages/{ticketId}', { params: { path: { ticketId }, query: { pageNumber: pageParam } } }));
      if (pageParam === 1) queryClient.setQueryData(keys.ticket(ticketId), page.ticket);
      return page;
    },
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const ticket = useQuery({
    queryKey: keys.ticket(ticketId),
    queryFn: () => must(api.GET('/tickets/{ticketId}', { params: { path: { ticketId } } })),
    enabled: !messages.isLoading && !queryClient.getQueryData(keys.ticket(ticketId)),
  });

  if (messages.error || ticket.error) {
    return (
      <p className="form-error" role="alert">
        {errorText(t, messages.error ?? ticket.error)}
      </p>
    );
  }
  const current = ticket.data ?? queryClient.getQueryData<Ticket>(keys.ticket(ticketId));
  if (!current) return <p className="loading">{t('app.loading')}</p>;
  return (
    <div className={`conversation-layout ${panelOpen ? 'with-panel' : ''}`}>
      <div className="conversation">
        <ConversationHeader ticket={current} panel={<ContactPanelToggle open={panelOpen} setOpen={setPanelOpen} />} />
        <MessageList ticketId={ticketId} data={messages.data} hasOlder={!!messages.hasNextPage} loadOlder={() => void messages.fetchNextPage()} />
        <ContactTyping ticketId={ticketId} name={current.contact?.name} />
        <ReplyBox ticket={current} />
      </div>
      {panelOpen && <ContactPanel ticket={current} onClose={() => setPanelOpen(false)} />}
    </div>
  );
}

function ConversationHeader({ ticket, panel }: { ticket: Ticket; panel: ReactNode }) {
  const { t } = useTranslation();
  const { api, queryClient } = useServices();
  const session = useSession();
  const [error, setError] = useState<unknown>(null);
  const update = useMutation({
    mutationFn: (body: {
      status?: 'open' | 'pending' | 'closed';
      userId?: number | null;
      queueId?: number | null;
      sendFarewellMessage?: boolean;
      rating?: number;
    }) => must(api.PUT('/tickets/{ticketId}', { params: { path: { ticketId: ticket.id } }, body })),
    onSuccess: (next) => {
      setError(null);
      queryClient.setQueryData(keys.ticket(ticket.id), next);
      void queryClient.invalidateQueries({ queryKey: keys.tickets });
    },
    onError: (err) => setError(err),
  });
  const me = session?.user.id ?? null;
  const contact = ticket.contact;
  return (
    <header className="conversation-header">
      <BackToList />
      <div className="who">
        <h2>{contact?.name ?? contact?.number}</h2>
        <p className="muted">
          {contact?.number} · {t(`ticket.status.${ticket.status as 'open'}`)} ·{' '}
          {ticket.user ? t('ticket.assigned', { name: ticket.user.name }) : t('ticket.unassigned')}
          {ticket.queue ? ` · ${ticket.queue.name}` : ''}
        </p>
        <TicketTags ticket={ticket} />
        <TicketViewers ticketId={ticket.id} />
        <LgpdConsent ticket={ticket} />
      </div>
      <div className="actions">
        {ticket.status === 'pending' && (
          <button type="button" className="primary" disabled={update.isPending} onClick={() => update.mutate({ status: 'open', userId: me })}>
            {t('ticket.accept')}
          </button>
        )}
        {ticket.status === 'open' && (
          <>
            <button type="button" disabled={update.isPending} onClick={() => update.mutate({ status: 'pending', userId: null })}>
              {t('ticket.returnPending')}
            </button>
            <CloseTicketButton
              busy={update.isPending}
              close={(rating) => update.mutate({ status: 'closed', sendFarewellMessage: true, ...(rating ? { rating } : {}) })}
            />
          </>
        )}
        {ticket.status === 'closed' && (
          <button type="button" disabled={update.isPending} onClick={() => update.mutate({ status: 'open', userId: me })}>
            {t('ticket.reopen')}
          </button>
        )}
        {ticket.status !== 'closed' && <TransferDialog ticket={ticket} />}
        {ticket.status !== 'closed' && <IgnoreTicketButton ticket={ticket} />}
        <ScheduleDialog ticket={ticket} />
        <MarkUnreadButton ticket={ticket} />
        <ConversationCommerce ticket={ticket} />
        {session?.user.profile === 'admin' && <DeleteTicketButton ticket={ticket} />}
        {panel}
      </div>
      {error !== null && (
        <p className="form-error" role="alert">
          {errorText(t, error)}
        </p>
      )}
    </header>
  );
}

const STATUS_MARK: Record<string, string> = { pending: '🕓', sent: '✓', delivered: '✓✓', read: '✓✓', played: '✓✓', failed: '⚠' };

function MessageList(props: { ticketId: number; data: InfiniteData<MessagePage> | undefined; hasOlder: boolean; loadOlder: () => void }) {
  const { t, i18n } = useTranslation();
  const { replies } = useServices();
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const before = useRef<{ height: number; top: number } | null>(null);
  // Pages come newest first; within a page, oldest first.
  const messages = useMemo(() => [...(props.data?.pages ?? [])].reverse().flatMap((p) => p.messages), [props.data]);
  const pending = useQueueOf(props.ticketId);
  const loaded = useMemo(() => new Set(messages.map((m) => m.id)), [messages]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever what is shown changes, to keep the scroll where the operator reads
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (before.current) {
      // Older messages were added above: keep what the operator was reading in place.
      el.scrollTop = el.scrollHeight - before.current.height + before.current.top;
      before.current = null;
    } else if (stick.current) el.scrollTop = el.scrollHeight;
  }, [messages, pending]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    if (el.scrollTop < 80 && props.hasOlder && !before.current) {
      before.current = { height: el.scrollHeight, top: el.scrollTop };
      props.loadOlder();
    }
  };

  let lastDay = '';
  return (
    <div
      ref={scroller}
      className="messages"
      onScroll={onScroll}
      role="log"
      aria-live="polite"
      aria-label={t('messages.log')}
      data-testid="messages"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus for keyboard scrolling
      tabIndex={0}
    >
      {props.hasOlder && <p className="muted center">{t('messages.older')}</p>}
      {messages.length === 0 && pending.length === 0 && <p className="muted center">{t('messages.empty')}</p>}
      {messages.map((m) => {
        const day = new Date(m.createdAt).toDateString();
        const heading = day !== lastDay ? dayLabel(m.createdAt, i18n.language, { today: t('messages.today'), yesterday: t('messages.yesterday') }) : null;
        lastDay = day;
        return (
          <div key={m.id}>
            {heading && (
              <h3 className="day">
                <span>{heading}</span>
              </h3>
            )}
            <MessageBubble message={m} loaded={loaded} ticketId={props.ticketId} />
          </div>
        );
      })}
      {pending.map((r) => (
        <div key={r.localId} className={`bubble mine outgoing-${r.state}`} data-testid="pending-reply">
          <p className="text">{r.body}</p>
          {r.files.map((f) => (
            <p key={f.name} className="file">
              <PaperclipIcon /> {f.name}
            </p>
          ))}
          <p className="meta">
            {r.state === 'failed' ? (
              <>
                <span role="alert">{t('reply.failed', { error: errorText(t, r.error) })}</span>{' '}
                <button type="button" onClick={() => replies.retry(r.localId)}>
                  {t('reply.retry')}
                </button>{' '}
                <button type="button" onClick={() => replies.discard(r.localId)}>
                  {t('reply.discard')}
                </button>
              </>
            ) : r.state === 'sending' ? (
              t('reply.sending')
            ) : (
              t('reply.queued')
            )}
          </p>
        </div>
      ))}
    </div>
  );
}

function useQueueOf(ticketId: number) {
  const { replies } = useServices();
  const [list, setList] = useState(() => replies.pending(ticketId));
  useLayoutEffect(() => {
    setList(replies.pending(ticketId));
    return replies.subscribe(() => setList(replies.pending(ticketId)));
  }, [replies, ticketId]);
  return list;
}

/** The element id of a message in the list, for a reply's quote to scroll to it. */
const messageDomId = (id: string) => `message-${id}`;

function MessageBubble({ message: m, loaded, ticketId }: { message: Message; loaded: ReadonlySet<string>; ticketId: number }) {
  const { t, i18n } = useTranslation();
  const { replies } = useServices();
  const classes = ['bubble', m.fromMe ? 'mine' : 'theirs', m.isPrivate ? 'note' : '', m.isDeleted ? 'deleted' : ''].filter(Boolean).join(' ');
  // A text that failed at the channel can go out again as a new message (its own idempotency key).
  const [resent, setResent] = useState(false);
  const resendable = m.status === 'failed' && m.fromMe && !m.isPrivate && !m.mediaUrl && m.body.trim() !== '';
  return (
    <article
      id={messageDomId(m.id)}
      className={classes}
      data-testid="message"
      data-status={m.status}
      aria-label={m.isPrivate ? t('messages.note') : undefined}
      tabIndex={-1}
    >
      <MessageActions message={m} ticketId={ticketId} />
      {m.quotedMsg && <Quoted quoted={m.quotedMsg} loaded={loaded.has(m.quotedMsg.id)} />}
      {m.isDeleted && (
        <p className="deleted-mark" data-testid="deleted-mark">
          <span>{t('messages.deleted')}</span> <span className="muted">{t('messages.deletedNote')}</span>
        </p>
      )}
      <Media message={m} />
      {isTranscribable(m) && <Transcript message={m} />}
      {isSharedMessage(m) ? <SharedCards message={m} /> : m.body && <p className="text">{m.body}</p>}
      <p className="meta">
        {m.isPrivate && <span className="tag">{t('messages.note')}</span>}
        {m.isEdited && (
          <span
            className="tag"
            data-testid="edited-mark"
            title={m.editedAt ? t('messages.editedAt', { time: timeOfDay(m.editedAt, i18n.language) }) : undefined}
          >
            {t('messages.edited')}
            {m.editedAt && <span className="visually-hidden"> ({t('messages.editedAt', { time: timeOfDay(m.editedAt, i18n.language) })})</span>}
          </span>
        )}
        <time dateTime={m.createdAt}>{timeOfDay(m.createdAt, i18n.language)}</time>
        {m.fromMe && !m.isPrivate && (
          <span className={`ack ack-${m.status}`} title={t(`messages.status.${m.status}`)} data-testid="ack">
            <span aria-hidden="true">{STATUS_MARK[m.status]}</span>
            <span className="visually-hidden">{t(`messages.status.${m.status}`)}</span>
          </span>
        )}
      </p>
      {m.status === 'failed' && (
        <p className="form-error failure" role="note" data-testid="failure">
          {t('messages.failed', { reason: failureText(t, m.failureReason) })}
          {resendable && (
            <>
              {' '}
              <button
                type="button"
                disabled={resent}
                onClick={() => {
                  setResent(true);
                  replies.add({ ticketId, body: m.body, quotedMsgId: m.quotedMessageId });
                }}
              >
                {t('messages.sendAgain')}
              </button>
            </>
          )}
        </p>
      )}
    </article>
  );
}

/** The message a reply quotes; a button that brings it into view when it is loaded above. */
function Quoted({ quoted, loaded }: { quoted: NonNullable<Message['quotedMsg']>; loaded: boolean }) {
  const { t } = useTranslation();
  const who = quoted.fromMe ? t('messages.you') : (quoted.contact?.name ?? '');
  const content = (
    <>
      <span className="visually-hidden">{t('messages.quoted')} </span>
      {who && <strong className="quoted-who">{who}</strong>}
      <span className="quoted-text">
        {sharedPreview(quoted) || (quoted.mediaUrl ? t('messages.download') : '')}
        {quoted.isDeleted && ` ${t('messages.quotedDeleted')}`}
      </span>
    </>
  );
  if (!loaded)
    return (
      <blockquote className="quoted" data-testid="quoted">
        {content}
      </blockquote>
    );
  const jump = () => {
    const target = document.getElementById(messageDomId(quoted.id));
    if (!target) return;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
    target.classList.add('flash');
    setTimeout(() => target.classList.remove('flash'), 1500);
  };
  return (
    <button type="button" className="quoted" data-testid="quoted" title={t('messages.jumpToQuoted')} onClick={jump}>
      {content}
    </button>
  );
}

function Media({ message: m }: { message: Message }) {
  const { t } = useTranslation();
  // A contact's file still on its way, or given up on.
  if (m.media?.status) return <InboundMediaState media={m.media} />;
  if (!m.mediaUrl) return null;
  const kind = m.mediaType;
  if (kind === 'image') return <img className="media" src={m.mediaUrl} alt={m.body || ''} loading="lazy" />;
  // A contact's recordings come without captions; a transcript, once made, shows under the audio.
  // biome-ignore lint/a11y/useMediaCaption: no captions exist for a contact's recording
  if (kind === 'audio') return <audio className="media" src={m.mediaUrl} controls preload="none" />;
  // biome-ignore lint/a11y/useMediaCaption: no captions exist for a contact's video
  if (kind === 'video') return <video className="media" src={m.mediaUrl} controls preload="none" />;
  return (
    <a className="file" href={m.mediaUrl} download target="_blank" rel="noreferrer">
      <PaperclipIcon /> {m.media?.filename ?? t('messages.download')}
    </a>
  );
}
