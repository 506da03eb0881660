import { type QueryClient, useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Dialog, Popover } from 'radix-ui';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices, useSession } from '../services.js';
import { errorText } from '../ui/errors.js';
import { ConfirmDialog } from '../ui/form.js';
import { useScreenStrings } from '../i18n/screen-strings.js';
import { PRESENCE_NS, presenceStrings } from './presence-strings.js';
import { useMessageActionStrings } from './message-actions.js';

type Ticket = Schema<'TicketDetails'>;
type TagSummary = Schema<'TagSummary'>;

/** The ticket the server answered replaces the one shown, and the lists refresh. */
function showTicket(queryClient: QueryClient, next: Ticket) {
  queryClient.setQueryData(keys.ticket(next.id), next);
  void queryClient.invalidateQueries({ queryKey: keys.tickets });
}

/** At a phone's width the list and the conversation take turns: this link goes back to the list (hidden on wider screens). */
export function BackToList() {
  const { t } = useTranslation();
  return (
    <Link to="/tickets" className="back-link" data-testid="back-to-list">
      <span aria-hidden="true">←</span> {t('ticket.back')}
    </Link>
  );
}

/** A dialog opened by a button of the header; `children` is its body. */
function ActionDialog(props: { label: string; title: string; description: string; open: boolean; setOpen: (open: boolean) => void; children: ReactNode }) {
  return (
    <Dialog.Root open={props.open} onOpenChange={props.setOpen}>
      <Dialog.Trigger asChild>
        <button type="button">{props.label}</button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{props.title}</Dialog.Title>
          <Dialog.Description className="muted">{props.description}</Dialog.Description>
          {props.children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function DialogButtons({ submit, busy }: { submit: string; busy: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="dialog-buttons">
      <Dialog.Close asChild>
        <button type="button">{t('actions.cancel')}</button>
      </Dialog.Close>
      <button type="submit" className="primary" disabled={busy}>
        {submit}
      </button>
    </div>
  );
}

/**
 * Transfer to a queue and/or a person (`PUT /tickets/:id` with `queueId` and `userId`). The people
 * offered are the chosen queue's members (everyone without a queue); nobody leaves the ticket
 * pending in the queue.
 */
export function TransferDialog({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { api, queryClient } = useServices();
  const [open, setOpen] = useState(false);
  const [queueId, setQueueId] = useState('');
  const [userId, setUserId] = useState('');
  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')), enabled: open });
  const users = useQuery({ queryKey: keys.users, queryFn: () => must(api.GET('/users/list')), enabled: open });
  const transfer = useMutation({
    mutationFn: (body: { queueId: number | null; userId: number | null }) =>
      must(api.PUT('/tickets/{ticketId}', { params: { path: { ticketId: ticket.id } }, body })),
    onSuccess: (next) => {
      showTicket(queryClient, next);
      setOpen(false);
    },
  });
  const onOpen = (next: boolean) => {
    if (next) {
      setQueueId(ticket.queueId ? String(ticket.queueId) : '');
      setUserId(ticket.userId ? String(ticket.userId) : '');
      transfer.reset();
    }
    setOpen(next);
  };
  const queue = queues.data?.find((q) => String(q.id) === queueId);
  const members = queue ? new Set(queue.users.map((u) => u.id)) : null;
  const people = (users.data ?? []).filter((u) => !members || members.has(u.id));
  const chooseQueue = (value: string) => {
    setQueueId(value);
    const chosen = queues.data?.find((q) => String(q.id) === value);
    if (chosen && userId && !chosen.users.some((u) => String(u.id) === userId)) setUserId('');
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    transfer.mutate({ queueId: queueId ? Number(queueId) : null, userId: userId ? Number(userId) : null });
  };
  const errorId = useId();
  const formId = useId();
  return (
    <ActionDialog label={t('ticket.transfer')} title={t('actions.transferTitle')} description={t('actions.transferIntro')} open={open} setOpen={onOpen}>
      <form className="form" onSubmit={submit} aria-describedby={transfer.error ? errorId : undefined}>
        <label htmlFor={`${formId}-queue`}>{t('actions.queue')}</label>
        <select id={`${formId}-queue`} value={queueId} onChange={(e) => chooseQueue(e.target.value)}>
          <option value="">{t('actions.noQueue')}</option>
          {(queues.data ?? []).map((q) => (
            <option key={q.id} value={q.id}>
              {q.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${formId}-user`}>{t('actions.user')}</label>
        <select id={`${formId}-user`} value={userId} onChange={(e) => setUserId(e.target.value)}>
          <option value="">{t('actions.anyone')}</option>
          {people.map((u) => (
            <option key={u.id} value={u.id}>
              {u.online ? t('actions.online', { name: u.name }) : u.name}
            </option>
          ))}
        </select>
        {transfer.error && (
          <p id={errorId} className="form-error" role="alert">
            {errorText(t, transfer.error)}
          </p>
        )}
        <DialogButtons submit={t('actions.confirmTransfer')} busy={transfer.isPending} />
      </form>
    </ActionDialog>
  );
}

/** The ticket's tags as chips, and a popover of the company's tags to set them (`POST /tags/sync`). */
export function TicketTags({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { api, queryClient } = useServices();
  const [open, setOpen] = useState(false);
  // While the popover is open the boxes show what the operator chose at once; the sends go out in order.
  const [picked, setPicked] = useState<number[] | null>(null);
  const tags = useQuery({ queryKey: keys.tags, queryFn: () => must(api.GET('/tags/list', { params: { query: {} } })), enabled: open });
  const sync = useMutation({
    scope: { id: `ticket-tags-${ticket.id}` },
    mutationFn: (tagIds: number[]) => must(api.POST('/tags/sync', { body: { ticketId: ticket.id, tagIds } })),
    onSuccess: (result) => {
      queryClient.setQueryData<Ticket>(keys.ticket(ticket.id), (current) => (current ? { ...current, tags: result.tags } : current));
      void queryClient.invalidateQueries({ queryKey: keys.tickets });
    },
    onError: () => setPicked(null),
  });
  const chosen = new Set(picked ?? ticket.tags.map((tag) => tag.id));
  const toggle = (id: number, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setPicked([...next]);
    sync.mutate([...next]);
  };
  const onOpen = (next: boolean) => {
    if (next) sync.reset();
    setPicked(null);
    setOpen(next);
  };
  return (
    <div className="ticket-tags">
      <TagChips tags={ticket.tags} label={t('actions.tags')} />
      <Popover.Root open={open} onOpenChange={onOpen}>
        <Popover.Trigger asChild>
          <button type="button" className="small" title={t('actions.editTags')}>
            {ticket.tags.length ? t('actions.tags') : t('actions.addTags')}
          </button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="popover" align="start" sideOffset={4}>
            <fieldset className="tag-picker" aria-busy={sync.isPending}>
              <legend>{t('actions.tags')}</legend>
              {tags.isLoading && <p className="muted">{t('app.loading')}</p>}
              {tags.data?.length === 0 && <p className="muted">{t('actions.noTagsYet')}</p>}
              {tags.data?.map((tag) => (
                <label key={tag.id} className="check">
                  <input type="checkbox" checked={chosen.has(tag.id)} onChange={(e) => toggle(tag.id, e.target.checked)} />
                  <span className="chip-dot" style={{ background: tag.color }} aria-hidden="true" />
                  {tag.name}
                </label>
              ))}
            </fieldset>
            {(sync.error || tags.error) && (
              <p className="form-error" role="alert">
                {errorText(t, sync.error ?? tags.error)}
              </p>
            )}
            <Popover.Close asChild>
              <button type="button" className="small">
                {t('actions.done')}
              </button>
            </Popover.Close>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </div>
  );
}

/** Tags as coloured chips, in a list named `label`. */
export function TagChips({ tags, label }: { tags: readonly TagSummary[]; label: string }) {
  if (!tags.length) return null;
  return (
    <ul className="chips" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag.id} className="chip" style={{ borderColor: tag.color }} data-testid="tag-chip">
          <span className="chip-dot" style={{ background: tag.color }} aria-hidden="true" />
          {tag.name}
        </li>
      ))}
    </ul>
  );
}

/** `YYYY-MM-DDTHH:mm` of a moment on the clock of `timeZone` (what a datetime-local field shows and the route reads). */
export function localMoment(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The company's time zone (setting `timezone`), which schedules are written in. */
export function useCompanyTimeZone(): string | undefined {
  const { api } = useServices();
  const setting = useQuery({
    queryKey: keys.setting('timezone'),
    queryFn: () => must(api.GET('/settings/{settingKey}', { params: { path: { settingKey: 'timezone' } } })),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return setting.data?.value || undefined;
}

/** Schedule a message to the ticket's contact, on its connection, at a moment on the company's clock (`POST /schedules`). */
export function ScheduleDialog({ ticket }: { ticket: Ticket }) {
  const { t, i18n } = useTranslation();
  const { api } = useServices();
  const [open, setOpen] = useState(false);
  const [body, setBody] = useState('');
  const [sendAt, setSendAt] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const zone = useCompanyTimeZone();
  const schedule = useMutation({
    mutationFn: () =>
      must(
        api.POST('/schedules', {
          body: { contactId: ticket.contactId, chatappId: ticket.chatappId, body, sendAt: sendAt || suggested, openTicket: 'disabled' },
        }),
      ),
    onSuccess: (created) => {
      setDone(new Date(created.sendAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short', ...(zone ? { timeZone: zone } : {}) }));
      setBody('');
    },
  });
  // Until the operator picks a moment: the next full hour on the company's clock.
  const [openedAt, setOpenedAt] = useState(() => Date.now());
  const suggested = useMemo(
    () => localMoment(new Date(openedAt + 3_600_000), zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone).replace(/\d\d$/, '00'),
    [openedAt, zone],
  );
  const onOpen = (next: boolean) => {
    if (next) {
      setDone(null);
      setOpenedAt(Date.now());
      schedule.reset();
    }
    setOpen(next);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    schedule.mutate();
  };
  const name = ticket.contact?.name ?? ticket.contact?.number ?? '';
  const errorId = useId();
  const zoneId = useId();
  return (
    <ActionDialog
      label={t('actions.schedule')}
      title={t('actions.scheduleTitle', { name })}
      description={t('actions.scheduleIntro')}
      open={open}
      setOpen={onOpen}
    >
      <form className="form" onSubmit={submit}>
        <label>
          {t('actions.message')}
          <textarea
            value={body}
            required
            maxLength={4096}
            rows={4}
            onChange={(e) => setBody(e.target.value)}
            aria-invalid={schedule.error ? true : undefined}
            aria-describedby={schedule.error ? errorId : undefined}
          />
        </label>
        <label>
          {t('actions.sendAt')}
          <input type="datetime-local" required value={sendAt || suggested} onChange={(e) => setSendAt(e.target.value)} aria-describedby={zoneId} />
        </label>
        <p id={zoneId} className="muted small-text">
          {t('actions.timeZone', { zone: zone ?? '…' })}
        </p>
        {schedule.error && (
          <p id={errorId} className="form-error" role="alert">
            {errorText(t, schedule.error)}
          </p>
        )}
        {done && (
          <p className="form-ok" role="status">
            {t('actions.scheduled', { when: done })}
          </p>
        )}
        <DialogButtons submit={t('actions.confirmSchedule')} busy={schedule.isPending} />
      </form>
    </ActionDialog>
  );
}

/**
 * Close: the connection's farewell goes out (as before). When the company records ratings (setting
 * `userRating`), a prompt first asks the operator for the contact's rating, sent with the close.
 */
export function CloseTicketButton({ busy, close }: { busy: boolean; close: (rating?: number) => void }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const [open, setOpen] = useState(false);
  const [rating, setRating] = useState(0);
  const setting = useQuery({
    queryKey: keys.setting('userRating'),
    queryFn: () => must(api.GET('/settings/{settingKey}', { params: { path: { settingKey: 'userRating' } } })),
  });
  if (setting.data?.value !== 'enabled') {
    return (
      <button type="button" disabled={busy} onClick={() => close()}>
        {t('ticket.close')}
      </button>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    close(rating || undefined);
    setOpen(false);
  };
  return (
    <ActionDialog
      label={t('ticket.close')}
      title={t('actions.closeTitle')}
      description={t('actions.closeIntro')}
      open={open}
      setOpen={(next) => {
        if (next) setRating(0);
        setOpen(next);
      }}
    >
      <form className="form" onSubmit={submit}>
        <fieldset className="rating">
          <legend>{t('actions.rating')}</legend>
          {[0, 1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="check">
              <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} />
              {n === 0 ? t('actions.noRating') : t('actions.stars', { count: n })}
            </label>
          ))}
        </fieldset>
        <DialogButtons submit={t('actions.confirmClose')} busy={busy} />
      </form>
    </ActionDialog>
  );
}

/**
 * Shows the conversation as unread again (`markUnread`, also on the `u` key): its badge comes back
 * for every operator, and the console leaves it for the list, since opening it is what reads it. The
 * conversation's loaded messages are dropped so that reopening it fetches them (and reads it) again.
 */
export function MarkUnreadButton({ ticket }: { ticket: Ticket }) {
  const { t } = useScreenStrings(PRESENCE_NS, presenceStrings);
  const { api, queryClient } = useServices();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const mark = useMutation({
    mutationFn: () => must(api.PUT('/tickets/{ticketId}', { params: { path: { ticketId: ticket.id } }, body: { markUnread: true } })),
    onSuccess: async (next) => {
      setError(null);
      showTicket(queryClient, next);
      await navigate({ to: '/tickets' });
      queryClient.removeQueries({ queryKey: keys.messages(ticket.id) });
    },
    onError: (err) => setError(err),
  });
  const { mutate, isPending } = mark;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.key !== 'u' || e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      // Not while a dialog (transfer, schedule…) is open over the conversation.
      if (document.querySelector('[role="dialog"]')) return;
      e.preventDefault();
      if (!isPending) mutate();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [mutate, isPending]);
  return (
    <>
      <button type="button" aria-keyshortcuts="u" disabled={isPending} onClick={() => mutate()} data-testid="mark-unread">
        {t('markUnread')}
      </button>
      {error !== null && (
        <p className="form-error" role="alert">
          {errorText(t, error)}
        </p>
      )}
    </>
  );
}

/**
 * Ignore (`PUT /tickets/:id/ignore`), for spam or a stray group: the ticket closes without the
 * farewell and its history says it was ignored. Offered to whoever the route lets change the
 * ticket: admins, its operator, anyone while it is unassigned.
 */
export function IgnoreTicketButton({ ticket }: { ticket: Ticket }) {
  const { t } = useMessageActionStrings();
  const { api, queryClient } = useServices();
  const session = useSession();
  const [asking, setAsking] = useState(false);
  const ignore = useMutation({
    mutationFn: () => must(api.PUT('/tickets/{ticketId}/ignore', { params: { path: { ticketId: ticket.id } } })),
    onSuccess: (next) => {
      showTicket(queryClient, next);
      setAsking(false);
    },
  });
  const user = session?.user;
  if (!user || !(user.profile === 'admin' || ticket.userId === null || ticket.userId === user.id)) return null;
  return (
    <>
      <button
        type="button"
        onClick={() => {
          ignore.reset();
          setAsking(true);
        }}
      >
        {t('ignore')}
      </button>
      {asking && (
        <ConfirmDialog
          stayOpen
          title={t('ignoreTitle')}
          description={t('ignoreIntro')}
          confirmLabel={t('confirmIgnore')}
          onConfirm={() => ignore.mutate()}
          onClose={() => setAsking(false)}
          pending={ignore.isPending}
          error={ignore.error ? errorText(t, ignore.error) : null}
        />
      )}
    </>
  );
}

/** Delete the ticket and its messages (`DELETE /tickets/:id`, admins), after asking; the console goes back to the list. */
export function DeleteTicketButton({ ticket }: { ticket: Ticket }) {
  const { t } = useMessageActionStrings();
  const { api, queryClient } = useServices();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/tickets/{ticketId}', { params: { path: { ticketId: ticket.id } } })),
    onSuccess: async () => {
      setAsking(false);
      await navigate({ to: '/tickets' });
      queryClient.removeQueries({ queryKey: keys.ticket(ticket.id) });
      queryClient.removeQueries({ queryKey: keys.messages(ticket.id) });
      void queryClient.invalidateQueries({ queryKey: keys.tickets });
    },
  });
  return (
    <>
      <button
        type="button"
        className="danger"
        onClick={() => {
          remove.reset();
          setAsking(true);
        }}
      >
        {t('deleteTicket')}
      </button>
      {asking && (
        <ConfirmDialog
          stayOpen
          title={t('deleteTicketTitle')}
          description={t('deleteTicketIntro')}
          confirmLabel={t('confirmDeleteTicket')}
          onConfirm={() => remove.mutate()}
          onClose={() => setAsking(false)}
          pending={remove.isPending}
          error={remove.error ? errorText(t, remove.error) : null}
        />
      )}
    </>
  );
}

/**
 * The contact's answer to the privacy policy (`POST /lgpd-response`), where the company asks for
 * consent (settings `enableLGPD` and `lgpdConsent`): the operator records what the contact replied.
 * An acceptance is only logged; a refusal, asked first, closes the conversation without farewell.
 */
export function LgpdConsent({ ticket }: { ticket: Ticket }) {
  const { t } = useMessageActionStrings();
  const { api, queryClient } = useServices();
  const setting = (key: 'enableLGPD' | 'lgpdConsent') => ({
    queryKey: keys.setting(key),
    queryFn: () => must(api.GET('/settings/{settingKey}', { params: { path: { settingKey: key } } })),
  });
  const enabled = useQuery(setting('enableLGPD')).data?.value === 'enabled';
  const consent = useQuery(setting('lgpdConsent')).data?.value === 'enabled';
  const [asking, setAsking] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const record = useMutation({
    mutationFn: (answer: boolean) => must(api.POST('/lgpd-response', { body: { ticketId: ticket.id, accepted: answer } })),
    onSuccess: (next, answer) => {
      showTicket(queryClient, next);
      setAsking(false);
      setAccepted(answer);
    },
  });
  if (!enabled || !consent || ticket.status === 'closed') return null;
  const titleId = `lgpd-${ticket.id}`;
  return (
    <fieldset className="lgpd-consent" aria-labelledby={titleId}>
      <span id={titleId} title={t('lgpdIntro')}>
        {t('lgpd')}
      </span>{' '}
      <button type="button" className="small" disabled={record.isPending} onClick={() => record.mutate(true)}>
        {t('lgpdAccepted')}
      </button>{' '}
      <button
        type="button"
        className="small"
        onClick={() => {
          record.reset();
          setAsking(true);
        }}
      >
        {t('lgpdRefused')}
      </button>
      <span role="status" className="muted small-text">
        {accepted ? ` ${t('lgpdRecorded')}` : ''}
      </span>
      {record.error && !asking && (
        <span className="form-error" role="alert">
          {errorText(t, record.error)}
        </span>
      )}
      {asking && (
        <ConfirmDialog
          stayOpen
          title={t('lgpdRefuseTitle')}
          description={t('lgpdRefuseIntro')}
          confirmLabel={t('confirmLgpdRefuse')}
          onConfirm={() => record.mutate(false)}
          onClose={() => setAsking(false)}
          pending={record.isPending}
          error={record.error ? errorText(t, record.error) : null}
        />
      )}
    </fieldset>
  );
}
