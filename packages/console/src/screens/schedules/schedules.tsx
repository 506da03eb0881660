import type { TFunction } from 'i18next';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Dialog } from 'radix-ui';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText, failureText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { localMoment, useCompanyTimeZone } from '../ticket-actions.js';
import { addDays, addMonths, dayKeyOf, monthGrid, moveByKey, noonOf, stateOf, type View, weekOf } from './calendar.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './schedules.css';

type Schedule = Schema<'Schedule'>;
type Connection = Schema<'Connection'>;

/** Under `schedules`: the `schedule` frames (src/realtime/apply-frame.ts) refetch every read of this screen. */
const SCHEDULES = ['schedules'] as const;
/** The calendar reads at most this many pages of 20 (the route has no date range: newest first). */
const CALENDAR_PAGES = 10;

/** The refusals of the schedule routes that name a field of the form. */
const FIELD_OF = {
  ERR_SCHEDULE_IN_PAST: 'sendAt',
  ERR_SCHEDULE_INVALID_TIME: 'sendAt',
  ERR_SCHEDULE_INVALID_BODY: 'body',
  ERR_SCHEDULE_INVALID_RECURRENCE: 'valorIntervalo',
  ERR_NO_CONTACT_FOUND: 'contactId',
} as const;
type ScheduleField = (typeof FIELD_OF)[keyof typeof FIELD_OF] | 'chatappId' | 'enviarQuantasVezes' | 'file';

const VARIABLES = '{{firstName}}, {{name}}, {{ms}}, {{date}}, {{hour}}, {{protocol}}';

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `/schedules`: the company's contact schedules as a month, week or day calendar or a list, live; created from a day, edited, deleted after asking. */
export function Schedules() {
  const { t, i18n } = useScreenStrings('schedules', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const zone = useCompanyTimeZone() ?? browserZone();
  const [view, setView] = useState<View>('month');
  const [focused, setFocused] = useState(() => dayKeyOf(new Date(), zone));
  const [editing, setEditing] = useState<Schedule | { day: string } | null>(null);
  const [notice, setNotice] = useState('');
  const lang = i18n.language;
  const when = useMemo(() => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }), [lang, zone]);
  const time = useMemo(() => new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', timeZone: zone }), [lang, zone]);

  const list = useInfiniteQuery({
    queryKey: [...SCHEDULES, 'page'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/schedules', { params: { query: { pageNumber: pageParam } } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const schedules = list.data?.pages.flatMap((p) => p.schedules) ?? [];
  const total = list.data?.pages[0]?.count ?? 0;
  const pages = list.data?.pages.length ?? 0;
  // The calendar needs the schedules of the days it shows: it reads on, up to its limit.
  useEffect(() => {
    if (view !== 'list' && list.hasNextPage && !list.isFetchingNextPage && pages < CALENDAR_PAGES) void list.fetchNextPage();
  }, [view, list.hasNextPage, list.isFetchingNextPage, pages, list.fetchNextPage]);

  const byDay = useMemo(() => {
    const out = new Map<string, Schedule[]>();
    for (const s of schedules) {
      const day = dayKeyOf(new Date(s.sendAt), zone);
      out.set(day, [...(out.get(day) ?? []), s]);
    }
    for (const v of out.values()) v.sort((a, b) => a.sendAt.localeCompare(b.sendAt));
    return out;
  }, [schedules, zone]);

  const remove = useMutation({
    mutationFn: (s: Schedule) => must(api.DELETE('/schedules/{scheduleId}', { params: { path: { scheduleId: s.id } } })),
    onSuccess: (_, s) => {
      setNotice(t('deleted', { name: nameOf(s) }));
      void client.invalidateQueries({ queryKey: SCHEDULES });
    },
  });

  const dayName = (key: string, style: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(lang, { ...style, timeZone: 'UTC' }).format(noonOf(key));
  const period =
    view === 'month'
      ? dayName(focused, { month: 'long', year: 'numeric' })
      : view === 'week'
        ? `${dayName(weekOf(focused)[0]!, { day: 'numeric', month: 'short' })} – ${dayName(weekOf(focused)[6]!, { day: 'numeric', month: 'short', year: 'numeric' })}`
        : dayName(focused, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  const step = (n: number) => setFocused((d) => (view === 'month' ? addMonths(d, n) : view === 'week' ? addDays(d, 7 * n) : addDays(d, n)));
  const openDay = (day: string) => {
    setFocused(day);
    setView('day');
  };
  const itemProps = { t, time, when, onEdit: (s: Schedule) => setEditing(s) };

  return (
    <section className="admin-screen schedules" aria-labelledby="schedules-title">
      <header className="admin-header">
        <h1 id="schedules-title">{t('title')}</h1>
        <p className="muted">{t('intro', { zone })}</p>
        <div className="admin-tools">
          <fieldset className="schedule-views">
            <legend className="visually-hidden">{t('views.label')}</legend>
            {(['month', 'week', 'day', 'list'] as const).map((v) => (
              <button key={v} type="button" aria-pressed={view === v} className={view === v ? 'primary' : undefined} onClick={() => setView(v)}>
                {t(`views.${v}`)}
              </button>
            ))}
          </fieldset>
          <button type="button" className="primary" onClick={() => setEditing({ day: view === 'list' ? dayKeyOf(new Date(), zone) : focused })}>
            {view === 'list' ? t('add') : t('addOn', { day: dayName(focused, { day: 'numeric', month: 'long' }) })}
          </button>
        </div>
      </header>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      {list.error && <FormError text={errorText(t, list.error)} />}

      {view !== 'list' && (
        <div className="calendar-nav">
          <button type="button" onClick={() => step(-1)}>
            <span aria-hidden="true">‹ </span>
            {t('previous')}
          </button>
          <button type="button" onClick={() => setFocused(dayKeyOf(new Date(), zone))}>
            {t('today')}
          </button>
          <button type="button" onClick={() => step(1)}>
            {t('next')}
            <span aria-hidden="true"> ›</span>
          </button>
          <h2 id="calendar-period" aria-live="polite">
            {period}
          </h2>
        </div>
      )}
      {view !== 'list' && list.hasNextPage && pages >= CALENDAR_PAGES && <p className="muted small-text">{t('partial', { count: schedules.length })}</p>}

      {(view === 'month' || view === 'week') && (
        <CalendarGrid
          weeks={view === 'month' ? monthGrid(focused) : [weekOf(focused)]}
          month={view === 'month' ? focused.slice(0, 7) : null}
          focused={focused}
          today={dayKeyOf(new Date(), zone)}
          setFocused={setFocused}
          openDay={openDay}
          byDay={byDay}
          label={t('calendar', { period })}
          dayName={dayName}
          {...itemProps}
        />
      )}

      {view === 'day' && (
        <div className="schedule-day">
          {(byDay.get(focused) ?? []).length === 0 ? (
            <p className="placeholder">{t('noneThatDay')}</p>
          ) : (
            <ul className="schedule-cards">
              {(byDay.get(focused) ?? []).map((s) => (
                <li key={s.id}>
                  <ScheduleCard schedule={s} remove={() => remove.mutate(s)} {...itemProps} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}

      {view === 'list' && (
        <>
          <p className="list-count" aria-live="polite">
            {list.isSuccess && t('count', { count: total })}
          </p>
          {list.isSuccess && schedules.length === 0 ? (
            <p className="placeholder">{t('empty')}</p>
          ) : (
            <table className="admin-table" aria-labelledby="schedules-title" aria-busy={list.isLoading}>
              <thead>
                <tr>
                  <th scope="col">{t('columns.when')}</th>
                  <th scope="col">{t('columns.contact')}</th>
                  <th scope="col">{t('columns.message')}</th>
                  <th scope="col">{t('columns.connection')}</th>
                  <th scope="col">{t('columns.state')}</th>
                  <th scope="col">{t('columns.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {schedules.map((s) => (
                  <tr key={s.id} data-testid={`schedule-${s.id}`}>
                    <td data-label={t('columns.when')}>
                      {when.format(new Date(s.sendAt))}
                      {s.valorIntervalo > 0 && <span className="muted small-text"> · {t('recurring')}</span>}
                    </td>
                    <th scope="row" data-label={t('columns.contact')}>
                      {nameOf(s)}
                    </th>
                    <td data-label={t('columns.message')} className="schedule-body">
                      {s.body}
                    </td>
                    <td data-label={t('columns.connection')}>{s.chatapp?.name ?? t('defaultConnection')}</td>
                    <td data-label={t('columns.state')}>
                      <StateBadge t={t} schedule={s} />
                    </td>
                    <td className="row-actions">
                      <RowActions t={t} when={when} schedule={s} onEdit={() => setEditing(s)} remove={() => remove.mutate(s)} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {list.hasNextPage && (
            <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {t('more')}
            </button>
          )}
        </>
      )}

      {editing && (
        <ScheduleDialog
          schedule={'id' in editing ? editing : null}
          day={'day' in editing ? editing.day : null}
          zone={zone}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: nameOf(saved), when: when.format(new Date(saved.sendAt)) }));
          }}
        />
      )}
    </section>
  );
}

type T = TFunction;
const nameOf = (s: Schedule) => s.contact?.name || s.contact?.number || `#${s.contactId ?? ''}`;

function StateBadge({ t, schedule }: { t: T; schedule: Schedule }) {
  const state = stateOf(schedule.status);
  return (
    <span className={`schedule-state state-${state}`}>
      {t(`state.${state}`)}
      {state === 'failed' && schedule.lastError && <span className="schedule-reason">: {failureText(t, schedule.lastError)}</span>}
    </span>
  );
}

function RowActions({ t, when, schedule, onEdit, remove }: { t: T; when: Intl.DateTimeFormat; schedule: Schedule; onEdit: () => void; remove: () => void }) {
  const name = nameOf(schedule);
  return (
    <>
      {schedule.ticketId && (
        <Link className="schedule-link" to="/tickets/$ticketId" params={{ ticketId: String(schedule.ticketId) }} aria-label={t('openConversation', { name })}>
          {t('conversation')}
        </Link>
      )}
      <button type="button" className="small" aria-label={t('editLabel', { name, when: when.format(new Date(schedule.sendAt)) })} onClick={onEdit}>
        {t('edit')}
      </button>
      <ConfirmButton
        className="small"
        label={t('delete')}
        title={t('deleteTitle', { name })}
        description={t('deleteBody')}
        confirmLabel={t('delete')}
        onConfirm={remove}
      />
    </>
  );
}

/** One schedule in the day view: its time, contact, message, state and actions. */
function ScheduleCard(props: {
  t: T;
  time: Intl.DateTimeFormat;
  when: Intl.DateTimeFormat;
  schedule: Schedule;
  onEdit: (s: Schedule) => void;
  remove: () => void;
}) {
  const { t, schedule: s } = props;
  return (
    <article
      className="schedule-card"
      aria-label={t('itemLabel', { time: props.time.format(new Date(s.sendAt)), contact: nameOf(s), state: t(`state.${stateOf(s.status)}`) })}
    >
      <p>
        <strong>{props.time.format(new Date(s.sendAt))}</strong> {nameOf(s)} · {s.chatapp?.name ?? t('defaultConnection')}
        {s.valorIntervalo > 0 && <span className="muted small-text"> · {t('recurring')}</span>}
      </p>
      <p className="schedule-body">{s.body}</p>
      <p>
        <StateBadge t={t} schedule={s} />
      </p>
      <div className="row-actions">
        <RowActions t={t} when={props.when} schedule={s} onEdit={() => props.onEdit(s)} remove={props.remove} />
      </div>
    </article>
  );
}

/**
 * The month or week as an ARIA grid: one day cell in the tab order (the focused one), arrow keys,
 * Home/End and Page Up/Down move between days, Enter or a click on the day's number opens the day.
 */
function CalendarGrid(props: {
  t: T;
  time: Intl.DateTimeFormat;
  weeks: string[][];
  month: string | null;
  focused: string;
  today: string;
  setFocused: (day: string) => void;
  openDay: (day: string) => void;
  byDay: Map<string, Schedule[]>;
  label: string;
  dayName: (key: string, style: Intl.DateTimeFormatOptions) => string;
  onEdit: (s: Schedule) => void;
}) {
  const { t } = props;
  const grid = useRef<HTMLTableElement>(null);
  const moved = useRef(false);
  const hintId = useId();
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLElement>(`[data-day="${props.focused}"]`)?.focus();
  }, [props.focused]);
  const onKeyDown = (e: KeyboardEvent, day: string) => {
    if (e.key === 'Enter' || e.key === ' ') {
      if (e.target !== e.currentTarget) return;
      e.preventDefault();
      props.openDay(day);
      return;
    }
    const next = moveByKey(day, e.key);
    if (!next) return;
    e.preventDefault();
    moved.current = true;
    props.setFocused(next);
  };
  return (
    <>
      <p id={hintId} className="visually-hidden">
        {t('calendarHint')}
      </p>
      <table
        ref={grid}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA data grid pattern keeps the table's semantics and adds the keyboard
        role="grid"
        className={`calendar ${props.weeks.length === 1 ? 'calendar-week' : 'calendar-month'}`}
        aria-label={props.label}
        aria-describedby={hintId}
      >
        <thead>
          <tr>
            {props.weeks[0]!.map((d) => (
              <th key={d} scope="col" abbr={props.dayName(d, { weekday: 'long' })}>
                {props.dayName(d, { weekday: 'short' })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((day) => {
                const items = props.byDay.get(day) ?? [];
                const outside = props.month !== null && day.slice(0, 7) !== props.month;
                return (
                  <td
                    key={day}
                    // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a cell of the ARIA data grid, its day focused by the arrow keys
                    role="gridcell"
                    data-day={day}
                    tabIndex={day === props.focused ? 0 : -1}
                    aria-selected={day === props.focused}
                    aria-current={day === props.today ? 'date' : undefined}
                    className={['calendar-day', outside ? 'outside' : '', day === props.today ? 'today' : ''].filter(Boolean).join(' ')}
                    onKeyDown={(e) => onKeyDown(e, day)}
                    onClick={() => props.setFocused(day)}
                    onDoubleClick={() => props.openDay(day)}
                  >
                    <span className="visually-hidden">
                      {t('dayCell', { day: props.dayName(day, { weekday: 'long', day: 'numeric', month: 'long' }), count: items.length })}
                    </span>
                    <span className="calendar-date" aria-hidden="true">
                      {Number(day.slice(8))}
                    </span>
                    {items.length > 0 && (
                      <span className="calendar-count" aria-hidden="true">
                        {items.length}
                      </span>
                    )}
                    <ul className="calendar-items" aria-hidden="true">
                      {items.slice(0, 3).map((s) => (
                        <li key={s.id} className={`state-${stateOf(s.status)}`}>
                          <button
                            type="button"
                            tabIndex={-1}
                            onClick={(e) => {
                              e.stopPropagation();
                              props.onEdit(s);
                            }}
                          >
                            {props.time.format(new Date(s.sendAt))} {nameOf(s)} · {t(`state.${stateOf(s.status)}`)}
                          </button>
                        </li>
                      ))}
                      {items.length > 3 && <li className="muted">+{items.length - 3}</li>}
                    </ul>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Creating (from a day: the date prefilled) or editing one schedule; refusals at their fields, nothing typed lost. */
function ScheduleDialog({
  schedule,
  day,
  zone,
  close,
}: {
  schedule: Schedule | null;
  day: string | null;
  zone: string;
  close: (saved: Schedule | null) => void;
}) {
  const { t, i18n } = useScreenStrings('schedules', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const [contact, setContact] = useState<{ id: number; name: string } | null>(
    schedule?.contact ? { id: schedule.contact.id, name: schedule.contact.name || schedule.contact.number } : null,
  );
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [chatappId, setChatappId] = useState(schedule?.chatappId ? String(schedule.chatappId) : '');
  const [body, setBody] = useState(schedule?.body ?? '');
  const [sendAt, setSendAt] = useState(() => {
    if (schedule) return localMoment(new Date(schedule.sendAt), zone);
    const today = dayKeyOf(new Date(), zone);
    // Today: the next full hour; another day: 09:00.
    if (!day || day === today) return localMoment(new Date(Date.now() + 3_600_000), zone).replace(/\d\d$/, '00');
    return `${day}T09:00`;
  });
  const [intervalo, setIntervalo] = useState(schedule && schedule.valorIntervalo > 0 ? String(schedule.intervalo) : 'once');
  const [valorIntervalo, setValorIntervalo] = useState(String(schedule && schedule.valorIntervalo > 0 ? schedule.valorIntervalo : 1));
  const [enviarQuantasVezes, setEnviarQuantasVezes] = useState(String(schedule?.enviarQuantasVezes ?? 0));
  const [tipoDias, setTipoDias] = useState(String(schedule?.tipoDias ?? 4));
  const [assinar, setAssinar] = useState(schedule?.assinar ?? false);
  const [file, setFile] = useState<File | null>(null);
  const [attached, setAttached] = useState(schedule?.mediaName ?? null);
  // After a create whose upload then failed, the retry edits what was created.
  const [savedId, setSavedId] = useState<number | null>(schedule?.id ?? null);

  const contacts = useQuery({
    queryKey: [...keys.contacts, 'schedule-picker', searchParam],
    queryFn: () => must(api.GET('/contacts', { params: { query: { searchParam, pageNumber: 1 } } })),
    enabled: searchParam.length > 0,
  });
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) as Promise<Connection[]> });

  const save = useMutation({
    mutationFn: async () => {
      const once = intervalo === 'once';
      const fields = {
        body,
        sendAt,
        contactId: contact?.id ?? null,
        chatappId: chatappId ? Number(chatappId) : null,
        openTicket: 'disabled' as const,
        assinar,
        intervalo: once ? 1 : Number(intervalo),
        valorIntervalo: once ? 0 : Number(valorIntervalo),
        enviarQuantasVezes: once ? 1 : Number(enviarQuantasVezes),
        tipoDias: Number(tipoDias),
      };
      let saved: Schedule = savedId
        ? await must(api.PUT('/schedules/{scheduleId}', { params: { path: { scheduleId: savedId } }, body: fields }))
        : await must(api.POST('/schedules', { body: fields }));
      setSavedId(saved.id);
      if (file) {
        const form = new FormData();
        form.set('file', file, file.name);
        const answer = await must(
          api.POST('/schedules/{id}/media-upload', { params: { path: { id: saved.id } }, body: form as never, bodySerializer: (b: unknown) => b as FormData }),
        );
        const { mensagem: _, ...rest } = answer;
        saved = rest as Schedule;
      }
      return saved;
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: SCHEDULES });
      close(saved);
    },
  });
  const detach = useMutation({
    mutationFn: (id: number) => must(api.DELETE('/schedules/{id}/media-upload', { params: { path: { id } } })),
    onSuccess: () => {
      setAttached(null);
      void client.invalidateQueries({ queryKey: SCHEDULES });
    },
  });
  const refusal = refusalOf<ScheduleField>(t, save.error, FIELD_OF);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const isOwnerOrAdmin = !schedule || session?.user.profile === 'admin' || session?.user.super === true || schedule.userId === session?.user.id;
  const title = schedule ? t('editTitle', { name: nameOf(schedule) }) : t('addTitle');
  const recurring = intervalo !== 'once';
  const occurrences = useQuery({
    queryKey: [...SCHEDULES, 'one', schedule?.id],
    queryFn: () => must(api.GET('/schedules/{scheduleId}', { params: { path: { scheduleId: schedule!.id } } })),
    enabled: Boolean(schedule),
  });
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short', timeZone: zone });

  return (
    <Dialog.Root open onOpenChange={(open) => !open && close(null)}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog schedule-dialog">
          <Dialog.Title>{title}</Dialog.Title>
          <Dialog.Description className="visually-hidden">{t('intro', { zone })}</Dialog.Description>
          <form className="form" onSubmit={submit} noValidate>
            <Field label={t('contact')} error={refusal.byField.contactId} hint={contact ? contact.name : t('contactHint')}>
              {(p) => (
                <input
                  {...p}
                  type="search"
                  value={search}
                  placeholder={contact ? contact.name : t('contactSearch')}
                  onChange={(e) => setSearch(e.target.value)}
                  autoComplete="off"
                />
              )}
            </Field>
            {searchParam && contacts.data && (
              <ul className="contact-choices" aria-label={t('chooseContact')}>
                {contacts.data.contacts.slice(0, 8).map((c) => (
                  <li key={c.id}>
                    <button
                      type="button"
                      className="small"
                      aria-pressed={contact?.id === c.id}
                      onClick={() => {
                        setContact({ id: c.id, name: c.name || c.number });
                        setSearch('');
                      }}
                    >
                      {c.name} <span className="muted">{c.number}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <Field label={t('connection')} error={refusal.byField.chatappId}>
              {(p) => (
                <select {...p} value={chatappId} onChange={(e) => setChatappId(e.target.value)}>
                  <option value="">{t('defaultConnection')}</option>
                  {(connections.data ?? []).map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('message')} error={refusal.byField.body} hint={t('messageHint', { vars: VARIABLES, interpolation: { escapeValue: false } })}>
              {(p) => <textarea {...p} value={body} rows={4} maxLength={4096} onChange={(e) => setBody(e.target.value)} />}
            </Field>
            <Field label={t('sendAt')} error={refusal.byField.sendAt} hint={t('sendAtHint', { zone })}>
              {(p) => <input {...p} type="datetime-local" value={sendAt} onChange={(e) => setSendAt(e.target.value)} />}
            </Field>
            <div className="schedule-recurrence">
              <Field label={t('interval')}>
                {(p) => (
                  <select {...p} value={intervalo} onChange={(e) => setIntervalo(e.target.value)}>
                    {(['once', '1', '2', '3', '4', '5'] as const).map((v) => (
                      <option key={v} value={v}>
                        {t(`intervalOptions.${v}`)}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              {recurring && (
                <>
                  <Field label={t('every')} error={refusal.byField.valorIntervalo}>
                    {(p) => <input {...p} type="number" min={1} max={1000} value={valorIntervalo} onChange={(e) => setValorIntervalo(e.target.value)} />}
                  </Field>
                  <Field label={t('times')} error={refusal.byField.enviarQuantasVezes}>
                    {(p) => (
                      <input {...p} type="number" min={0} max={10000} value={enviarQuantasVezes} onChange={(e) => setEnviarQuantasVezes(e.target.value)} />
                    )}
                  </Field>
                  <Field label={t('weekend')}>
                    {(p) => (
                      <select {...p} value={tipoDias} onChange={(e) => setTipoDias(e.target.value)}>
                        {(['4', '5', '6'] as const).map((v) => (
                          <option key={v} value={v}>
                            {t(`weekendOptions.${v}`)}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                </>
              )}
            </div>
            <label className="check">
              <input type="checkbox" checked={assinar} onChange={(e) => setAssinar(e.target.checked)} />
              {t('sign')}
            </label>
            {attached && savedId && (
              <p>
                {t('currentFile', { name: attached })}{' '}
                <button type="button" className="small" onClick={() => detach.mutate(savedId)} disabled={detach.isPending}>
                  {t('removeFile')}
                </button>
              </p>
            )}
            <Field label={t('file')} error={refusal.byField.file} hint={t('fileHint')}>
              {(p) => <input {...p} type="file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />}
            </Field>
            {occurrences.data && occurrences.data.occurrences.length > 0 && (
              <section aria-label={t('occurrences')}>
                <h3>{t('occurrences')}</h3>
                <ul className="schedule-occurrences">
                  {occurrences.data.occurrences.map((o) => (
                    <li key={o.id}>
                      {when.format(new Date(o.dueAt))}: {t(`state.${o.status === 'sending' ? 'pending' : o.status}`)}
                      {o.status === 'failed' && o.failureReason && ` (${failureText(t, o.failureReason)})`}
                    </li>
                  ))}
                </ul>
              </section>
            )}
            <FormError text={refusal.form} />
            {detach.error && <FormError text={errorText(t, detach.error)} />}
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('actions.cancel')}</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={save.isPending || !isOwnerOrAdmin}>
                {t('save')}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
