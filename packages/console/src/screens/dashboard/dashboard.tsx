import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { type Services, useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { Field, FormError, refusalOf } from '../../ui/form.js';
import { Chart } from './chart.js';
import { chartQuery, chartSummary, type DashboardFilter, daysBetween, durationText, lastDays, rangeQuery, retryAfterSeconds } from './figures.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './dashboard.css';

type Counters = Schema<'DashboardCounters'>;
type Ticket = Schema<'TicketDetails'>;

/** The dashboard's own cache key: its figures are pre-aggregated, so no frame follows them. */
const DASHBOARD = ['dashboard'] as const;

/** The range refusals, each shown at the date field it concerns. */
const FIELD_OF = {
  ERR_INVALID_DATE: 'from',
  ERR_INVALID_DATE_RANGE: 'to',
  ERR_DATE_RANGE_TOO_LONG: 'from',
  ERR_QUEUE_NOT_FOUND: 'queue',
  ERR_NO_USER_FOUND: 'user',
  ERR_NO_PERMISSION: 'user',
} as const;
type FilterField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** A refresh refused because the last one was less than 30 s ago: when it may be asked again. */
class TooSoon extends Error {
  constructor(readonly at: number) {
    super('ERR_DASHBOARD_REFRESH_TOO_SOON');
  }
}

type Api = Services['api'];

/** What the screen asks first: the last 30 days, every queue and operator. */
const initialFilter = (): DashboardFilter => ({ ...lastDays(30), queueId: null, userId: null });

/** One's own record, which says whether an operator reads the company's figures (`showDashboard`). */
const ownQuery = (api: Api, userId: number) => ({
  queryKey: [...keys.users, 'me', userId],
  queryFn: () => must(api.GET('/users/{userId}', { params: { path: { userId } } })),
});
/** The period's counters and attendants. */
const summaryQuery = (api: Api, filter: DashboardFilter) => ({
  queryKey: [...DASHBOARD, 'summary', filter],
  queryFn: () => must(api.GET('/dashboard', { params: { query: rangeQuery(filter) } })),
  retry: false,
});
/** The first chart's figures: tickets by day (or by hour for one day). */
const perDayQuery = (api: Api, filter: DashboardFilter) => ({
  queryKey: [...DASHBOARD, 'day', filter],
  queryFn: () => must(api.GET('/dashboard/ticketsDay', { params: { query: chartQuery(filter) } })),
  retry: false,
});

/**
 * Asks what the screen shows first (its figures and first chart, and an operator's own record)
 * as soon as the session is known, when the console is opened on the dashboard: they are then
 * on their way while the rest of the app renders, and ahead of the shell's own requests, which
 * the server would otherwise answer first. The screen finds them in the cache (30 s fresh).
 */
export function prefetchDashboard({ api, session, queryClient }: Services): void {
  const me = session.current?.user;
  if (!me) return;
  const filter = initialFilter();
  if (me.profile !== 'admin' && me.super !== true) void queryClient.prefetchQuery(ownQuery(api, me.id));
  // The chart first: the server answers in the order asked.
  void queryClient.prefetchQuery(perDayQuery(api, filter));
  void queryClient.prefetchQuery(summaryQuery(api, filter));
}

/**
 * `/dashboard`: a period's figures (counters, tickets per day or hour and per operator, times,
 * ratings, top contacts) and the attendance panel of now. Admins and operators with the dashboard
 * read the company's, anyone else their own, as the server scopes every route.
 */
export function Dashboard() {
  const { t, i18n } = useScreenStrings('dashboard', strings);
  const language = i18n.language;
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const me = session?.user;
  const isAdmin = me?.profile === 'admin' || me?.super === true;
  // `showDashboard` is not in the session: one's own record says it (anyone may read themself).
  const own = useQuery({ ...ownQuery(api, me?.id ?? 0), enabled: !!me && !isAdmin });
  const companyWide = isAdmin || own.data?.showDashboard === 'enabled';
  const seesEveryTicket = isAdmin || me?.allTicket === 'enable';

  const [filter, setFilter] = useState<DashboardFilter>(initialFilter);
  const [draft, setDraft] = useState({ from: filter.from, to: filter.to });
  const [granularity, setGranularity] = useState<'day' | 'week' | 'month'>('day');
  const ready = !!me && (isAdmin || own.isSuccess);

  const summary = useQuery({ ...summaryQuery(api, filter), enabled: ready });
  // The first chart is asked beside the figures, not after them: opening the screen waits for one round trip, not two.
  const perDay = useQuery({ ...perDayQuery(api, filter), enabled: ready });
  const perUser = useQuery({
    queryKey: [...DASHBOARD, 'users', filter],
    queryFn: () => must(api.GET('/dashboard/ticketsUsers', { params: { query: chartQuery(filter) } })),
    enabled: ready && summary.isSuccess && companyWide,
  });
  const extended = useQuery({
    queryKey: [...DASHBOARD, 'extended', filter, granularity],
    queryFn: () => must(api.GET('/dashboard/extended-metrics', { params: { query: { ...rangeQuery(filter), granularity } } })),
    enabled: ready && summary.isSuccess,
  });
  // `/messages-allMe` counts on the company's days too, and scopes an operator without the dashboard to their tickets.
  const messages = useQuery({
    queryKey: [...DASHBOARD, 'messages', filter.from, filter.to],
    queryFn: async () => {
      const count = (fromMe: 'true' | 'false') =>
        must(api.GET('/messages-allMe', { params: { query: { fromMe, dateStart: filter.from, dateEnd: filter.to } } })).then((r) => r.count[0]?.count ?? 0);
      const [sent, received] = await Promise.all([count('true'), count('false')]);
      return { sent, received };
    },
    enabled: ready && summary.isSuccess,
  });
  const top = useQuery({
    queryKey: [...DASHBOARD, 'top', filter],
    queryFn: () => must(api.GET('/dashboard/top-contacts', { params: { query: { ...rangeQuery(filter), limit: 10 } } })),
    enabled: ready && summary.isSuccess,
  });
  // Under `tickets`: every ticket frame refetches the panel, so it follows the desk live. Asked once the
  // first chart's figures are in: its answer is the screen's heaviest (every open ticket with its parts),
  // and on the embedded database the server's one thread would make the first chart wait behind it.
  const moments = useQuery({
    queryKey: [...keys.tickets, 'moments', filter.queueId, filter.userId, seesEveryTicket],
    queryFn: () =>
      must(
        api.GET('/usersMoments', {
          params: {
            query: {
              ...(seesEveryTicket ? { showAll: true } : {}),
              ...(filter.queueId !== null ? { queueIds: [filter.queueId] } : {}),
              ...(filter.userId !== null ? { userId: filter.userId } : {}),
            },
          },
        }),
      ),
    enabled: ready && !perDay.isPending,
  });
  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')), enabled: ready });
  const users = useQuery({
    queryKey: [...keys.users, 'names'],
    queryFn: () => must(api.GET('/users/list', { params: { query: {} } })),
    enabled: ready && companyWide,
  });

  const [refreshNote, setRefreshNote] = useState('');
  const [blockedUntil, setBlockedUntil] = useState(0);
  const refresh = useMutation({
    mutationFn: async () => {
      const answer = await api.POST('/dashboard/refresh-views');
      if (answer.response.status === 429) throw new TooSoon(Date.now() + retryAfterSeconds(answer.response.headers.get('retry-after')) * 1000);
      return must(Promise.resolve(answer));
    },
    onSuccess: (done) => {
      setRefreshNote(t('refresh.done', { count: done.days }));
      void client.invalidateQueries({ queryKey: DASHBOARD });
    },
    onError: (err) => {
      if (err instanceof TooSoon) {
        setBlockedUntil(err.at);
        const seconds = Math.max(1, Math.round((err.at - Date.now()) / 1000));
        setRefreshNote(t('refresh.tooSoon', { count: seconds, time: new Date(err.at).toLocaleTimeString(language) }));
      } else setRefreshNote(errorText(t, err));
    },
  });
  // The button comes back once the server's window has passed.
  useEffect(() => {
    if (blockedUntil <= Date.now()) return;
    const timer = setTimeout(() => setBlockedUntil(0), blockedUntil - Date.now());
    return () => clearTimeout(timer);
  }, [blockedUntil]);

  // The age of the figures, said again each half minute.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  const refusal = refusalOf<FilterField>(t, summary.error, FIELD_OF);
  const draftError = draft.from && draft.to && draft.to < draft.from ? t('errors.codes.ERR_INVALID_DATE_RANGE') : undefined;
  const applyDates = (next: { from: string; to: string }) => {
    setDraft(next);
    if (next.from && next.to && next.from <= next.to) setFilter((f) => ({ ...f, from: next.from, to: next.to }));
  };
  const preset = (days: number) => applyDates(lastDays(days));

  const units = { none: t('units.none'), seconds: t('units.seconds'), minutes: t('units.minutes'), hours: t('units.hours') };
  const minutes = (n: number) => durationText(n, language, units);
  const number = (n: number) => new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(n);
  const percent = (n: number) => `${number(n)} %`;

  if (!me) return null;
  const c = summary.data?.counters;
  const refreshedAt = summary.data?.refreshedAt ?? null;
  const period = summary.data?.period;

  return (
    <section className="admin-screen dashboard" aria-labelledby="dashboard-title">
      <header className="admin-header">
        <h1 id="dashboard-title">{t('title')}</h1>
        <p className="muted">{companyWide ? t('introCompany') : t('introOwn')}</p>
        <form className="dashboard-filters" aria-label={t('filters')} onSubmit={(e) => e.preventDefault()}>
          <Field label={t('from')} error={refusal.byField.from}>
            {(p) => (
              <input {...p} type="date" value={draft.from} max={draft.to || undefined} onChange={(e) => applyDates({ ...draft, from: e.target.value })} />
            )}
          </Field>
          <Field label={t('to')} error={draftError ?? refusal.byField.to}>
            {(p) => <input {...p} type="date" value={draft.to} min={draft.from || undefined} onChange={(e) => applyDates({ ...draft, to: e.target.value })} />}
          </Field>
          <fieldset className="dashboard-presets">
            <legend className="visually-hidden">{t('presets')}</legend>
            {[1, 7, 30].map((n) => (
              <button key={n} type="button" className="small" onClick={() => preset(n)}>
                {n === 1 ? t('today') : t('lastDays', { count: n })}
              </button>
            ))}
          </fieldset>
          <Field label={t('queue')} error={refusal.byField.queue}>
            {(p) => (
              <select
                {...p}
                value={filter.queueId ?? ''}
                onChange={(e) => setFilter((f) => ({ ...f, queueId: e.target.value ? Number(e.target.value) : null }))}
              >
                <option value="">{t('allQueues')}</option>
                {(queues.data ?? []).map((q) => (
                  <option key={q.id} value={q.id}>
                    {q.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {companyWide && (
            <Field label={t('user')} error={refusal.byField.user}>
              {(p) => (
                <select
                  {...p}
                  value={filter.userId ?? ''}
                  onChange={(e) => setFilter((f) => ({ ...f, userId: e.target.value ? Number(e.target.value) : null }))}
                >
                  <option value="">{t('everyone')}</option>
                  {(users.data ?? []).map((u) => (
                    <option key={u.id} value={u.id}>
                      {u.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
        </form>
        <div className="admin-tools dashboard-freshness">
          <p className="muted small-text" data-testid="figures-age">
            {summary.isSuccess && (refreshedAt ? t('refreshedAt', { ago: ago(refreshedAt, now, language) }) : t('neverRefreshed'))}
            {period && ` ${t('period', { from: shortDay(period.dateFrom, language), to: shortDay(period.dateTo, language), zone: period.timeZone })}`}
          </p>
          {isAdmin && (
            <button type="button" onClick={() => refresh.mutate()} disabled={refresh.isPending || blockedUntil > now}>
              {t('refresh.button')}
            </button>
          )}
          <p role="status" className="small-text" data-testid="refresh-note">
            {refreshNote}
          </p>
        </div>
      </header>

      <FormError text={refusal.form} />
      {!companyWide && own.isSuccess && <p className="notice">{t('ownOnly')}</p>}

      {c && <CounterCards c={c} minutes={minutes} number={number} percent={percent} t={t} />}
      {messages.data && (
        <section aria-label={t('groups.messages')} className="dashboard-block">
          <h2>{t('groups.messages')}</h2>
          <p className="muted small-text">{t('messagesNote')}</p>
          <dl className="dashboard-cards">
            <div className="dashboard-card" data-testid="counter-messagesReceived">
              <dt>{t('messagesReceived')}</dt>
              <dd>{number(messages.data.received)}</dd>
            </div>
            <div className="dashboard-card" data-testid="counter-messagesSent">
              <dt>{t('messagesSent')}</dt>
              <dd>{number(messages.data.sent)}</dd>
            </div>
          </dl>
        </section>
      )}

      <div className="dashboard-charts">
        {perDay.data && <DayChart data={perDay.data} oneDay={daysBetween(filter.from, filter.to) === 1} language={language} t={t} />}
        {companyWide && perUser.data && (
          <Chart
            title={t('charts.perUser')}
            kind="bars"
            labels={perUser.data.data.map((u) => u.nome)}
            series={[{ name: t('charts.tickets'), values: perUser.data.data.map((u) => u.quantidade) }]}
            summary={summaryText(
              t,
              perUser.data.data.map((u) => ({ label: u.nome, value: u.quantidade })),
              'charts.userSummary',
            )}
            tableLabel={t('charts.asTable')}
            labelHeader={t('columns.user')}
            testId="chart-users"
          />
        )}
        {extended.data && (
          <div className="dashboard-times">
            <Field label={t('granularity')}>
              {(p) => (
                <select {...p} value={granularity} onChange={(e) => setGranularity(e.target.value as typeof granularity)}>
                  <option value="day">{t('byDay')}</option>
                  <option value="week">{t('byWeek')}</option>
                  <option value="month">{t('byMonth')}</option>
                </select>
              )}
            </Field>
            <Chart
              title={t('charts.times')}
              kind="lines"
              labels={extended.data.series.map((s) => shortDay(s.period, language))}
              series={[
                { name: t('counters.avgWaitTime'), values: extended.data.series.map((s) => s.avgWaitTime) },
                { name: t('counters.avgFirstResponseTime'), values: extended.data.series.map((s) => s.avgFirstResponseTime) },
                { name: t('counters.avgSupportTime'), values: extended.data.series.map((s) => s.avgSupportTime) },
              ]}
              summary={t('charts.timesSummary', {
                wait: minutes(extended.data.totals.avgWaitTime),
                first: minutes(extended.data.totals.avgFirstResponseTime),
                handling: minutes(extended.data.totals.avgSupportTime),
                rate: percent(extended.data.totals.resolutionRate),
              })}
              tableLabel={t('charts.asTable')}
              labelHeader={t('columns.period')}
              format={(n) => number(n)}
              testId="chart-times"
            />
          </div>
        )}
      </div>

      {summary.data && (
        <section aria-labelledby="attendants-title" className="dashboard-block">
          <h2 id="attendants-title">{t('attendants')}</h2>
          <table className="admin-table" aria-labelledby="attendants-title">
            <thead>
              <tr>
                <th scope="col">{t('columns.user')}</th>
                <th scope="col">{t('columns.online')}</th>
                <th scope="col" className="number">
                  {t('columns.tickets')}
                </th>
                <th scope="col" className="number">
                  {t('columns.closed')}
                </th>
                <th scope="col">{t('counters.avgWaitTime')}</th>
                <th scope="col">{t('counters.avgFirstResponseTime')}</th>
                <th scope="col">{t('counters.avgSupportTime')}</th>
                <th scope="col">{t('columns.rating')}</th>
              </tr>
            </thead>
            <tbody>
              {summary.data.attendants.map((a) => (
                <tr key={a.id} data-testid={`attendant-${a.id}`}>
                  <th scope="row">{a.name}</th>
                  <td data-label={t('columns.online')}>{a.online ? t('online') : t('offline')}</td>
                  <td className="number" data-label={t('columns.tickets')}>
                    {a.tickets}
                  </td>
                  <td className="number" data-label={t('columns.closed')}>
                    {a.closed}
                  </td>
                  <td data-label={t('counters.avgWaitTime')}>{minutes(a.avgWaitTime)}</td>
                  <td data-label={t('counters.avgFirstResponseTime')}>{minutes(a.avgFirstResponseTime)}</td>
                  <td data-label={t('counters.avgSupportTime')}>{minutes(a.avgSupportTime)}</td>
                  <td data-label={t('columns.rating')}>
                    {a.countRating ? t('ratingOf', { rating: number(a.rating), count: a.countRating }) : t('units.none')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      {top.data && (
        <section aria-labelledby="top-title" className="dashboard-block">
          <h2 id="top-title">{t('topContacts')}</h2>
          {top.data.length === 0 ? (
            <p className="placeholder">{t('noTickets')}</p>
          ) : (
            <table className="admin-table" aria-labelledby="top-title">
              <thead>
                <tr>
                  <th scope="col">{t('columns.contact')}</th>
                  <th scope="col">{t('columns.number')}</th>
                  <th scope="col" className="number">
                    {t('columns.tickets')}
                  </th>
                  <th scope="col">{t('columns.last')}</th>
                </tr>
              </thead>
              <tbody>
                {top.data.map((x) => (
                  <tr key={x.contactId}>
                    <th scope="row">{x.name}</th>
                    <td data-label={t('columns.number')}>{x.number}</td>
                    <td className="number" data-label={t('columns.tickets')}>
                      {x.tickets}
                    </td>
                    <td data-label={t('columns.last')}>{new Date(x.lastInteractionAt).toLocaleString(language)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}

      <MomentsBoard tickets={moments.data ?? null} error={moments.error} language={language} t={t} />
    </section>
  );
}

type T = ReturnType<typeof useScreenStrings>['t'];

function summaryText(t: T, points: Array<{ label: string; value: number }>, key: string): string {
  const s = chartSummary(points);
  return s.top ? t(key, { total: s.total, top: s.top.label, topCount: s.top.value, count: s.total }) : t('charts.empty');
}

/** `2026-03-01` as a short date in the reader's language (the day itself, whatever the clock's zone). */
function shortDay(iso: string, language: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  if (!y || !m || !d) return iso;
  return new Date(y, m - 1, d).toLocaleDateString(language, { day: '2-digit', month: '2-digit' });
}

function ago(iso: string, now: number, language: string): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  if (Math.abs(seconds) < 60) return rtf.format(Math.min(0, seconds), 'second');
  if (Math.abs(seconds) < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (Math.abs(seconds) < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86_400), 'day');
}

function DayChart({ data, oneDay, language, t }: { data: Schema<'DashboardTicketsByDay'>; oneDay: boolean; language: string; t: T }) {
  const points = useMemo(
    () =>
      data.data.map((x) => ({
        label: 'horario' in x ? t('hour', { hour: x.horario }) : shortDay(x.day, language),
        value: x.total,
      })),
    [data, language, t],
  );
  const labels = useMemo(() => points.map((p) => p.label), [points]);
  const series = useMemo(() => [{ name: t('charts.tickets'), values: points.map((p) => p.value) }], [points, t]);
  return (
    <Chart
      title={oneDay ? t('charts.perHour') : t('charts.perDay')}
      kind="bars"
      labels={labels}
      series={series}
      summary={summaryText(t, points, oneDay ? 'charts.hourSummary' : 'charts.daySummary')}
      tableLabel={t('charts.asTable')}
      labelHeader={oneDay ? t('columns.hour') : t('columns.day')}
      testId="chart-days"
    />
  );
}

function CounterCards({
  c,
  minutes,
  number,
  percent,
  t,
}: {
  c: Counters;
  minutes: (n: number) => string;
  number: (n: number) => string;
  percent: (n: number) => string;
  t: T;
}) {
  const groups: Array<{ title: string; items: Array<[keyof Counters, string]> }> = [
    {
      title: t('groups.tickets'),
      items: [
        ['tickets', number(c.tickets)],
        ['supportPending', number(c.supportPending)],
        ['supportHappening', number(c.supportHappening)],
        ['supportFinished', number(c.supportFinished)],
        ['leads', number(c.leads)],
        ['passiveTickets', number(c.passiveTickets)],
        ['activeTickets', number(c.activeTickets)],
        ['reopened', number(c.reopened)],
        ['transfers', number(c.transfers)],
        ['unattendedClosed', number(c.unattendedClosed)],
      ],
    },
    {
      title: t('groups.times'),
      items: [
        ['avgWaitTime', minutes(c.avgWaitTime)],
        ['avgFirstResponseTime', minutes(c.avgFirstResponseTime)],
        ['avgSupportTime', minutes(c.avgSupportTime)],
        ['avgResolutionTime', minutes(c.avgResolutionTime)],
      ],
    },
    {
      title: t('groups.ratings'),
      items: [
        ['avgRating', c.withRating ? number(c.avgRating) : t('units.none')],
        ['withRating', number(c.withRating)],
        ['withoutRating', number(c.withoutRating)],
        ['percRating', percent(c.percRating)],
        ['npsScore', c.withRating ? number(c.npsScore) : t('units.none')],
        ['npsPromotersPerc', percent(c.npsPromotersPerc)],
        ['npsPassivePerc', percent(c.npsPassivePerc)],
        ['npsDetractorsPerc', percent(c.npsDetractorsPerc)],
      ],
    },
  ];
  return (
    <div className="dashboard-groups">
      {groups.map((g) => (
        <section key={g.title} aria-label={g.title} className="dashboard-block">
          <h2>{g.title}</h2>
          <dl className="dashboard-cards">
            {g.items.map(([key, value]) => (
              <div key={key} className="dashboard-card" data-testid={`counter-${key}`}>
                <dt>{t(`counters.${key}`)}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

/** How many tickets of a group show before "Show all". */
const FIRST = 5;

/** Who is attending what, now: the waiting tickets, then each operator's, live from the ticket frames. */
function MomentsBoard({ tickets, error, language, t }: { tickets: Ticket[] | null; error: unknown; language: string; t: T }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const groups = useMemo(() => {
    const waiting: Ticket[] = [];
    const byUser = new Map<number, { name: string; tickets: Ticket[] }>();
    for (const ticket of tickets ?? []) {
      if (ticket.status === 'pending' || !ticket.user) waiting.push(ticket);
      else {
        const g = byUser.get(ticket.user.id) ?? { name: ticket.user.name, tickets: [] };
        g.tickets.push(ticket);
        byUser.set(ticket.user.id, g);
      }
    }
    return [
      { key: 'waiting', title: t('moments.waiting', { count: waiting.length }), tickets: waiting },
      ...[...byUser.entries()]
        .sort((a, b) => a[1].name.localeCompare(b[1].name))
        .map(([id, g]) => ({ key: `user-${id}`, title: t('moments.attending', { name: g.name, count: g.tickets.length }), tickets: g.tickets })),
    ];
  }, [tickets, t]);
  return (
    <section aria-labelledby="moments-title" className="dashboard-block">
      <h2 id="moments-title">{t('moments.title')}</h2>
      <p className="muted small-text">{t('moments.intro')}</p>
      {error ? <FormError text={errorText(t, error)} /> : null}
      {tickets && (
        <div className="moments">
          {groups.map((g) => {
            const all = open.has(g.key);
            const shown = all ? g.tickets : g.tickets.slice(0, FIRST);
            return (
              <section key={g.key} className="moments-group" aria-labelledby={`moments-${g.key}`} data-testid={`moments-${g.key}`}>
                <h3 id={`moments-${g.key}`}>{g.title}</h3>
                {g.tickets.length === 0 ? (
                  <p className="muted small-text">{t('moments.none')}</p>
                ) : (
                  <ul>
                    {shown.map((ticket) => (
                      <li key={ticket.id}>
                        <Link to="/tickets/$ticketId" params={{ ticketId: String(ticket.id) }}>
                          {ticket.contact?.name ?? `#${ticket.id}`}
                        </Link>
                        <span className="muted small-text">
                          {ticket.queue ? ticket.queue.name : t('moments.noQueue')} ·{' '}
                          {t('moments.since', { time: new Date(ticket.updatedAt).toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' }) })}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
                {g.tickets.length > FIRST && (
                  <button
                    type="button"
                    className="small"
                    aria-expanded={all}
                    onClick={() =>
                      setOpen((s) => {
                        const next = new Set(s);
                        if (all) next.delete(g.key);
                        else next.add(g.key);
                        return next;
                      })
                    }
                  >
                    {all ? t('moments.fewer') : t('moments.all', { count: g.tickets.length })}
                  </button>
                )}
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}
