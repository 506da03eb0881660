import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Tabs } from 'radix-ui';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices, useSession } from '../services.js';
import { relativeTime } from '../ui/format.js';
import { Conversation } from './conversation.js';

type Ticket = Schema<'TicketDetails'>;
type Tab = 'open' | 'pending' | 'closed' | 'group' | 'search';
const TABS: Tab[] = ['open', 'pending', 'closed', 'group', 'search'];

interface Filters {
  readonly status: Tab;
  readonly searchParam: string;
  readonly queueId: number | null;
  readonly onlyMine: boolean;
}

/** The ticket lists (virtualised, paged, live) beside the open conversation. */
export function Inbox({ ticketId }: { ticketId: number | null }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const session = useSession();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Filters>({ status: 'open', searchParam: '', queueId: null, onlyMine: false });
  const searchRef = useRef<HTMLInputElement>(null);
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;

  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')) });

  const query = useMemo(
    () => ({
      status: filters.status,
      ...(filters.searchParam ? { searchParam: filters.searchParam } : {}),
      ...(filters.queueId ? { queueIds: [filters.queueId] } : {}),
      ...(filters.onlyMine && session ? { users: [session.user.id] } : {}),
      ...(isAdmin && !filters.onlyMine ? { showAll: 'true' as const } : {}),
    }),
    [filters, session, isAdmin],
  );

  // The counts beside the open and pending tabs, with the same filters (refreshed with the lists).
  const counted: Tab[] = ['open', 'pending'];
  const counts = useQueries({
    queries: counted.map((status) => {
      const { status: _status, ...rest } = query;
      const q = { ...rest, status };
      return { queryKey: ['tickets', 'count', q], queryFn: () => must(api.GET('/tickets/count', { params: { query: q } })) };
    }),
  });
  const countOf = (tab: Tab) => counts[counted.indexOf(tab)]?.data?.count;

  const list = useInfiniteQuery({
    queryKey: keys.ticketList(query),
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/tickets', { params: { query: { ...query, pageNumber: pageParam } } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const tickets = useMemo(() => dedupe(list.data?.pages.flatMap((p) => p.tickets) ?? []), [list.data]);
  const total = list.data?.pages[0]?.count ?? 0;

  // Alt+↓ / Alt+↑: the next or previous conversation; `/`: the search.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = !!target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
      if (e.altKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        e.preventDefault();
        const at = tickets.findIndex((x) => x.id === ticketId);
        const next = tickets[e.key === 'ArrowDown' ? at + 1 : Math.max(0, at - 1)];
        if (next) void navigate({ to: '/tickets/$ticketId', params: { ticketId: String(next.id) } });
      } else if (e.key === '/' && !typing) {
        e.preventDefault();
        setFilters((f) => ({ ...f, status: 'search' }));
        setTimeout(() => searchRef.current?.focus(), 0);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [tickets, ticketId, navigate]);

  return (
    <div className={`inbox ${ticketId ? 'has-conversation' : ''}`}>
      <section className="ticket-pane" aria-labelledby="inbox-title">
        <h1 id="inbox-title" className="pane-title">
          {t('inbox.title')}
        </h1>
        <Tabs.Root value={filters.status} onValueChange={(v) => setFilters((f) => ({ ...f, status: v as Tab }))}>
          <Tabs.List className="tabs" aria-label={t('inbox.tabs')}>
            {TABS.map((tab) => (
              <Tabs.Trigger key={tab} value={tab} className="tab" data-testid={`tab-${tab}`}>
                {t(`inbox.${tab === 'group' ? 'groups' : tab}`)}
                {countOf(tab) !== undefined && (
                  <span className="tab-count" data-testid={`count-${tab}`}>
                    {countOf(tab)}
                  </span>
                )}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
        <div className="filters">
          {filters.status === 'search' && (
            <label>
              <span className="visually-hidden">{t('inbox.searchLabel')}</span>
              <input
                ref={searchRef}
                type="search"
                placeholder={t('inbox.searchLabel')}
                value={filters.searchParam}
                onChange={(e) => setFilters((f) => ({ ...f, searchParam: e.target.value }))}
              />
            </label>
          )}
          <label>
            <span className="visually-hidden">{t('inbox.queue')}</span>
            <select value={filters.queueId ?? ''} onChange={(e) => setFilters((f) => ({ ...f, queueId: e.target.value ? Number(e.target.value) : null }))}>
              <option value="">{t('inbox.allQueues')}</option>
              {(queues.data ?? []).map((q) => (
                <option key={q.id} value={q.id}>
                  {q.name}
                </option>
              ))}
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={filters.onlyMine} onChange={(e) => setFilters((f) => ({ ...f, onlyMine: e.target.checked }))} />
            {t('inbox.onlyMine')}
          </label>
        </div>
        <p className="list-count" aria-live="polite">
          {t('inbox.count', { count: total })}
        </p>
        <TicketList
          tickets={tickets}
          selected={ticketId}
          loading={list.isLoading}
          hasMore={!!list.hasNextPage}
          loadMore={() => !list.isFetchingNextPage && void list.fetchNextPage()}
        />
      </section>
      <section className="conversation-pane" aria-label={t('messages.log')}>
        {ticketId ? <Conversation key={ticketId} ticketId={ticketId} /> : <p className="placeholder">{t('inbox.pick')}</p>}
      </section>
    </div>
  );
}

function dedupe(tickets: Ticket[]): Ticket[] {
  const seen = new Set<number>();
  return tickets.filter((x) => !seen.has(x.id) && seen.add(x.id));
}

const ROW_HEIGHT = 72;

function TicketList(props: { tickets: Ticket[]; selected: number | null; loading: boolean; hasMore: boolean; loadMore: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const parent = useRef<HTMLDivElement>(null);
  const count = props.tickets.length + (props.hasMore ? 1 : 0);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => parent.current, estimateSize: () => ROW_HEIGHT, overscan: 8 });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1);

  useEffect(() => {
    if (last && last.index >= props.tickets.length - 1 && props.hasMore) props.loadMore();
  }, [last, props]);

  if (!props.loading && props.tickets.length === 0) return <p className="placeholder">{t('inbox.empty')}</p>;
  const open = (id: number) => void navigate({ to: '/tickets/$ticketId', params: { ticketId: String(id) } });

  return (
    <div ref={parent} className="ticket-list" data-testid="ticket-list">
      <ul style={{ height: virtualizer.getTotalSize(), position: 'relative' }} aria-busy={props.loading}>
        {items.map((row) => {
          const ticket = props.tickets[row.index];
          if (!ticket)
            return (
              <li key="more" className="ticket-row more" style={{ transform: `translateY(${row.start}px)` }}>
                {t('inbox.loadMore')}
              </li>
            );
          const selected = ticket.id === props.selected;
          return (
            <li key={ticket.id} className="ticket-row-wrap" style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}>
              <button
                type="button"
                className={`ticket-row ${selected ? 'selected' : ''}`}
                aria-current={selected ? 'true' : undefined}
                data-testid={`ticket-${ticket.id}`}
                onClick={() => open(ticket.id)}
              >
                <span className="avatar" aria-hidden="true">
                  {initials(ticket.contact?.name ?? '?')}
                </span>
                <span className="ticket-main">
                  <span className="ticket-name">{ticket.contact?.name ?? ticket.contact?.number}</span>
                  <span className="ticket-last">{ticket.lastMessage || t('inbox.noMessage')}</span>
                </span>
                <span className="ticket-meta">
                  <time dateTime={ticket.updatedAt}>{relativeTime(ticket.updatedAt, i18n.language)}</time>
                  {ticket.unreadMessages > 0 && (
                    <span className="badge">
                      <span aria-hidden="true">{ticket.unreadMessages}</span>
                      <span className="visually-hidden">{t('inbox.unread', { count: ticket.unreadMessages })}</span>
                    </span>
                  )}
                  {ticket.queue && (
                    <span className="queue-chip" style={{ borderColor: ticket.queue.color }}>
                      {ticket.queue.name}
                    </span>
                  )}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?'
  );
}
