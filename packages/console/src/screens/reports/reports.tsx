import { keepPreviousData, type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog, Tabs } from 'radix-ui';
import { useState } from 'react';
import { type Api, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { Field, FormError, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { toCsv } from '../contacts/csv.js';
import { dddsOf, download, PAGE_SIZE, readAllPages } from './pages.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './reports.css';

type TicketRow = Schema<'TicketReportRow'>;
type Status = Schema<'TicketStatus'>;
type T = ReturnType<typeof useScreenStrings>['t'];

const STATUSES: readonly Status[] = ['open', 'pending', 'closed'];

/** The range refusals, at the date field they concern. */
const FIELD_OF = { ERR_INVALID_DATE: 'from', ERR_INVALID_DATE_RANGE: 'to', ERR_DATE_RANGE_TOO_LONG: 'from', ERR_NO_TAG_FOUND: 'tag' } as const;
type ReportField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/**
 * `/reports`: the tickets report (admins: `/ticketreport/reports`) and the contacts report
 * (admins and operators with the dashboard: `/contacts-report`), each filtered, paged by 20, and
 * exported whole as CSV; a ticket's history opens in a dialog.
 */
export function Reports() {
  const { t } = useScreenStrings('reports', strings);
  const { api } = useServices();
  const session = useSession();
  const me = session?.user;
  const isAdmin = me?.profile === 'admin' || me?.super === true;
  const own = useQuery({
    queryKey: [...keys.users, 'me', me?.id],
    queryFn: () => must(api.GET('/users/{userId}', { params: { path: { userId: me!.id } } })),
    enabled: !!me && !isAdmin,
  });
  const contactsAllowed = isAdmin || own.data?.showDashboard === 'enabled';
  const [tab, setTab] = useState<'tickets' | 'contacts'>(isAdmin ? 'tickets' : 'contacts');
  if (!me) return null;

  return (
    <section className="admin-screen reports" aria-labelledby="reports-title">
      <header className="admin-header">
        <h1 id="reports-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
      </header>
      {!isAdmin && own.isSuccess && !contactsAllowed && <p className="placeholder">{t('notAllowed')}</p>}
      {own.error ? <FormError text={errorText(t, own.error)} /> : null}
      {(isAdmin || contactsAllowed) && (
        <Tabs.Root className="reports-tabs" value={isAdmin ? tab : 'contacts'} onValueChange={(v) => setTab(v as typeof tab)}>
          <Tabs.List className="tabs" aria-label={t('which')}>
            {isAdmin && <Tabs.Trigger value="tickets">{t('tickets.tab')}</Tabs.Trigger>}
            <Tabs.Trigger value="contacts">{t('contacts.tab')}</Tabs.Trigger>
          </Tabs.List>
          {isAdmin && (
            <Tabs.Content value="tickets" className="reports-panel">
              <TicketsReport />
            </Tabs.Content>
          )}
          <Tabs.Content value="contacts" className="reports-panel">
            <ContactsReport />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </section>
  );
}

interface TicketFilter {
  readonly dateFrom: string;
  readonly dateTo: string;
  readonly userId: number | null;
  readonly statuses: readonly Status[];
}

function ticketPageQuery(api: Api, f: TicketFilter, page: number) {
  return {
    // Under `tickets`: a ticket frame refetches the page shown.
    queryKey: [...keys.tickets, 'report', f, page] as const,
    queryFn: () =>
      must(
        api.GET('/ticketreport/reports', {
          params: {
            query: {
              pageNumber: page,
              ...(f.dateFrom ? { dateFrom: f.dateFrom } : {}),
              ...(f.dateTo ? { dateTo: f.dateTo } : {}),
              ...(f.userId !== null ? { userId: f.userId } : {}),
              ...(f.statuses.length ? { status: [...f.statuses] } : {}),
            },
          },
        }),
      ),
  };
}

function TicketsReport() {
  const { t, i18n } = useScreenStrings('reports', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [filter, setFilter] = useState<TicketFilter>({ dateFrom: '', dateTo: '', userId: null, statuses: [] });
  const [page, setPage] = useState(1);
  const [history, setHistory] = useState<TicketRow | null>(null);
  const change = (next: Partial<TicketFilter>) => {
    setFilter((f) => ({ ...f, ...next }));
    setPage(1);
  };
  const report = useQuery({ ...ticketPageQuery(api, filter, page), placeholderData: keepPreviousData, retry: false });
  const users = useQuery({ queryKey: [...keys.users, 'names'], queryFn: () => must(api.GET('/users/list', { params: { query: {} } })) });
  const refusal = refusalOf<ReportField>(t, report.error, FIELD_OF);
  const total = report.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '—');

  const exportCsv = async () => {
    const rows = await readAllPages(async (n) => {
      const p = await client.fetchQuery(ticketPageQuery(api, filter, n));
      return { rows: p.tickets, count: p.count };
    });
    const csv = toCsv(
      [
        t('tickets.csv.id'),
        t('tickets.csv.contact'),
        t('tickets.csv.number'),
        t('tickets.csv.connection'),
        t('tickets.csv.status'),
        t('tickets.csv.user'),
        t('tickets.csv.createdAt'),
        t('tickets.csv.closedAt'),
        t('tickets.csv.messages'),
      ],
      rows.map((r) => [
        r.id,
        r.contact?.name ?? '',
        r.contact?.number ?? '',
        r.chatapp?.name ?? '',
        t(`status.${r.status}`),
        r.user?.name ?? '',
        r.createdAt,
        r.closedAt ?? '',
        r.messages,
      ]),
    );
    download(csv, `tickets-report-${new Date().toISOString().slice(0, 10)}.csv`);
    return rows.length;
  };

  return (
    <>
      <form className="reports-filters" aria-label={t('filters')} onSubmit={(e) => e.preventDefault()}>
        <Field label={t('from')} error={refusal.byField.from} hint={t('tickets.utc')}>
          {(p) => <input {...p} type="date" value={filter.dateFrom} onChange={(e) => change({ dateFrom: e.target.value })} />}
        </Field>
        <Field label={t('to')} error={refusal.byField.to}>
          {(p) => <input {...p} type="date" value={filter.dateTo} onChange={(e) => change({ dateTo: e.target.value })} />}
        </Field>
        <Field label={t('tickets.user')}>
          {(p) => (
            <select {...p} value={filter.userId ?? ''} onChange={(e) => change({ userId: e.target.value ? Number(e.target.value) : null })}>
              <option value="">{t('tickets.everyone')}</option>
              {(users.data ?? []).map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset className="reports-statuses">
          <legend>{t('tickets.statuses')}</legend>
          {STATUSES.map((s) => (
            <label key={s} className="check">
              <input
                type="checkbox"
                checked={filter.statuses.includes(s)}
                onChange={(e) => change({ statuses: e.target.checked ? [...filter.statuses, s] : filter.statuses.filter((x) => x !== s) })}
              />
              {t(`status.${s}`)}
            </label>
          ))}
        </fieldset>
      </form>
      <FormError text={refusal.form} />
      <div className="admin-tools">
        <p className="list-count" aria-live="polite">
          {report.isSuccess && t('tickets.count', { count: total })}
        </p>
        <ExportButton total={total} run={exportCsv} t={t} />
      </div>
      {report.isSuccess && total === 0 ? (
        <p className="placeholder">{t('tickets.empty')}</p>
      ) : (
        <table className="admin-table" aria-label={t('tickets.tab')} aria-busy={report.isFetching}>
          <thead>
            <tr>
              <th scope="col">{t('tickets.columns.ticket')}</th>
              <th scope="col">{t('tickets.columns.contact')}</th>
              <th scope="col">{t('tickets.columns.connection')}</th>
              <th scope="col">{t('tickets.columns.status')}</th>
              <th scope="col">{t('tickets.columns.user')}</th>
              <th scope="col">{t('tickets.columns.createdAt')}</th>
              <th scope="col">{t('tickets.columns.closedAt')}</th>
              <th scope="col" className="number">
                {t('tickets.columns.messages')}
              </th>
              <th scope="col">{t('tickets.columns.history')}</th>
            </tr>
          </thead>
          <tbody>
            {(report.data?.tickets ?? []).map((r) => (
              <tr key={r.id} data-testid={`report-ticket-${r.id}`}>
                <th scope="row">#{r.id}</th>
                <td data-label={t('tickets.columns.contact')}>
                  {r.contact ? (
                    <>
                      {r.contact.name} <span className="muted small-text">{r.contact.number}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label={t('tickets.columns.connection')}>{r.chatapp?.name ?? '—'}</td>
                <td data-label={t('tickets.columns.status')}>{t(`status.${r.status}`)}</td>
                <td data-label={t('tickets.columns.user')}>{r.user?.name ?? '—'}</td>
                <td data-label={t('tickets.columns.createdAt')}>{when(r.createdAt)}</td>
                <td data-label={t('tickets.columns.closedAt')}>{when(r.closedAt)}</td>
                <td className="number" data-label={t('tickets.columns.messages')}>
                  {r.messages}
                </td>
                <td>
                  <button type="button" className="small" aria-label={t('tickets.historyOf', { id: r.id })} onClick={() => setHistory(r)}>
                    {t('tickets.history')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pages={pages} setPage={setPage} t={t} />
      {history && <TicketHistory ticket={history} close={() => setHistory(null)} />}
    </>
  );
}

function Pager({ page, pages, setPage, t }: { page: number; pages: number; setPage: (n: number) => void; t: T }) {
  if (pages <= 1) return null;
  return (
    <nav className="reports-pager" aria-label={t('pages')}>
      <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
        {t('previous')}
      </button>
      <span aria-live="polite">{t('pageOf', { page, pages })}</span>
      <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
        {t('next')}
      </button>
    </nav>
  );
}

/** "Export CSV": every row of the filter, read page by page, with its progress and outcome in a status region. */
function ExportButton({ total, run, t }: { total: number; run: () => Promise<number>; t: T }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<unknown>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    setMessage(t('exporting', { count: total }));
    try {
      setMessage(t('exported', { count: await run() }));
    } catch (err) {
      setMessage('');
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" disabled={busy || total === 0} onClick={() => void go()}>
        {t('exportCsv')}
      </button>
      <span role="status" className="muted small-text">
        {message}
      </span>
      {error !== null && <FormError text={errorText(t, error)} />}
    </>
  );
}

/** A ticket's history (`/tickets-log/:ticketId`), oldest first, in a dialog. */
function TicketHistory({ ticket, close }: { ticket: TicketRow; close: () => void }) {
  const { t, i18n } = useScreenStrings('reports', strings);
  const { api } = useServices();
  const log = useQuery({
    queryKey: [...keys.tickets, 'log', ticket.id],
    queryFn: () => must(api.GET('/tickets-log/{ticketId}', { params: { path: { ticketId: ticket.id } } })),
  });
  return (
    <Dialog.Root open onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog reports-history">
          <Dialog.Title>{t('history.title', { id: ticket.id, name: ticket.contact?.name ?? '—' })}</Dialog.Title>
          <Dialog.Description className="muted">{t('history.intro')}</Dialog.Description>
          {log.isLoading && <p role="status">{t('loading')}</p>}
          {log.error ? <FormError text={errorText(t, log.error)} /> : null}
          {log.data && log.data.length === 0 && <p className="placeholder">{t('history.empty')}</p>}
          {log.data && log.data.length > 0 && (
            <ol className="history-list">
              {log.data.map((entry) => (
                <li key={entry.id}>
                  <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString(i18n.language)}</time>
                  <span>
                    {t(`history.types.${entry.type}`)}
                    {historyDetail(t, entry.payload)}
                  </span>
                  <span className="muted small-text">{entry.user ? t('history.by', { name: entry.user.name }) : t('history.bySystem')}</span>
                </li>
              ))}
            </ol>
          )}
          <div className="dialog-buttons">
            <Dialog.Close asChild>
              <button type="button">{t('close')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** What a history entry's payload adds in words: the state it left, the rating given. */
function historyDetail(t: T, payload: Record<string, unknown>): string {
  const parts: string[] = [];
  const from = payload.from as { status?: unknown } | undefined;
  if (from && typeof from.status === 'string' && STATUSES.includes(from.status as Status))
    parts.push(t('history.from', { status: t(`status.${from.status}`) }));
  if (typeof payload.rating === 'number') parts.push(t('history.rating', { rating: payload.rating }));
  return parts.length ? ` (${parts.join('; ')})` : '';
}

interface ContactFilter {
  readonly startDate: string;
  readonly endDate: string;
  readonly searchParam: string;
  readonly tagId: number | null;
  readonly ddds: readonly string[];
}

function contactPageQuery(api: Api, f: ContactFilter, page: number) {
  return {
    // Under `contacts`: a contact frame refetches the page shown.
    queryKey: [...keys.contacts, 'report', f, page] as const,
    queryFn: () =>
      must(
        api.GET('/contacts-report', {
          params: {
            query: {
              pageNumber: page,
              ...(f.startDate ? { startDate: f.startDate } : {}),
              ...(f.endDate ? { endDate: f.endDate } : {}),
              ...(f.searchParam ? { searchParam: f.searchParam } : {}),
              ...(f.tagId !== null ? { tags: [f.tagId] } : {}),
              ...(f.ddds.length ? { ddds: [...f.ddds] } : {}),
            },
          },
        }),
      ),
  };
}

function ContactsReport() {
  const { t, i18n } = useScreenStrings('reports', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [dates, setDates] = useState({ startDate: '', endDate: '' });
  const [search, setSearch] = useState('');
  const [dddText, setDddText] = useState('');
  const [tagId, setTagId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const searchParam = useDebounced(search.trim(), 300);
  const ddds = useDebounced(dddText, 400);
  const filter: ContactFilter = { ...dates, searchParam, tagId, ddds: dddsOf(ddds) };
  const report = useQuery({ ...contactPageQuery(api, filter, page), placeholderData: keepPreviousData, retry: false });
  const tags = useQuery({ queryKey: [...keys.tags, 'list'], queryFn: () => must(api.GET('/tags/list', { params: { query: {} } })) });
  const refusal = refusalOf<ReportField>(t, report.error, FIELD_OF);
  const total = report.data?.count ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const reset =
    <V,>(set: (v: V) => void) =>
    (v: V) => {
      set(v);
      setPage(1);
    };

  const exportCsv = () => exportContacts(client, api, filter, t);

  return (
    <>
      <form className="reports-filters" aria-label={t('filters')} onSubmit={(e) => e.preventDefault()}>
        <Field label={t('from')} error={refusal.byField.from} hint={t('contacts.companyDays')}>
          {(p) => <input {...p} type="date" value={dates.startDate} onChange={(e) => reset(setDates)({ ...dates, startDate: e.target.value })} />}
        </Field>
        <Field label={t('to')} error={refusal.byField.to}>
          {(p) => <input {...p} type="date" value={dates.endDate} onChange={(e) => reset(setDates)({ ...dates, endDate: e.target.value })} />}
        </Field>
        <Field label={t('contacts.search')}>{(p) => <input {...p} type="search" value={search} onChange={(e) => reset(setSearch)(e.target.value)} />}</Field>
        <Field label={t('contacts.tag')} error={refusal.byField.tag}>
          {(p) => (
            <select {...p} value={tagId ?? ''} onChange={(e) => reset(setTagId)(e.target.value ? Number(e.target.value) : null)}>
              <option value="">{t('contacts.anyTag')}</option>
              {(tags.data ?? []).map((tag) => (
                <option key={tag.id} value={tag.id}>
                  {tag.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('contacts.ddds')} hint={t('contacts.dddsHint')}>
          {(p) => <input {...p} value={dddText} onChange={(e) => reset(setDddText)(e.target.value)} autoComplete="off" />}
        </Field>
      </form>
      <FormError text={refusal.form} />
      <div className="admin-tools">
        <p className="list-count" aria-live="polite">
          {report.isSuccess && t('contacts.count', { count: total })}
        </p>
        <ExportButton total={total} run={exportCsv} t={t} />
      </div>
      {report.isSuccess && total === 0 ? (
        <p className="placeholder">{t('contacts.empty')}</p>
      ) : (
        <table className="admin-table" aria-label={t('contacts.tab')} aria-busy={report.isFetching}>
          <thead>
            <tr>
              <th scope="col">{t('contacts.columns.name')}</th>
              <th scope="col">{t('contacts.columns.number')}</th>
              <th scope="col">{t('contacts.columns.email')}</th>
              <th scope="col">{t('contacts.columns.createdAt')}</th>
            </tr>
          </thead>
          <tbody>
            {(report.data?.contacts ?? []).map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.name}</th>
                <td data-label={t('contacts.columns.number')}>{c.number}</td>
                <td data-label={t('contacts.columns.email')}>{c.email || '—'}</td>
                <td data-label={t('contacts.columns.createdAt')}>{new Date(c.createdAt).toLocaleString(i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pages={pages} setPage={setPage} t={t} />
    </>
  );
}

async function exportContacts(client: QueryClient, api: Api, filter: ContactFilter, t: T): Promise<number> {
  const rows = await readAllPages(async (n) => {
    const p = await client.fetchQuery(contactPageQuery(api, filter, n));
    return { rows: p.contacts, count: p.count };
  });
  const csv = toCsv(
    [t('contacts.columns.name'), t('contacts.columns.number'), t('contacts.columns.email'), t('contacts.columns.createdAt')],
    rows.map((c) => [c.name, c.number, c.email, c.createdAt]),
  );
  download(csv, `contacts-report-${new Date().toISOString().slice(0, 10)}.csv`);
  return rows.length;
}
