import { useInfiniteQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Tabs } from 'radix-ui';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { must, type Schema } from '../api/client.js';
import { keys } from '../realtime/apply-frame.js';
import { useServices, useSession } from '../services.js';
import { initials, relativeTime } from '../ui/format.js';
import { Conversation } from './conversation.js';
import { CloseAllButton } from './inbox-close-all.js';
import { FILTERS_KEY, type Filters, savedFilters, searchRequested, seesAllTickets, TABS, type Tab } from './inbox-filters.js';

type Ticket = Schema<'TicketDetails'>;
/** The ticket lists (virtualised, paged, live) beside the open conversation. */
export function Inbox({ ticketId }: { ticketId: number | null }) {
  const { t } = useTranslation();
  const { api } = useServices();
  const session = useSession();
  const navigate = useNavigate();
  const me = session?.user.id ?? 0;
  const [filters, setFilters] = useState<Filters>(() => savedFilters(me));
  const searchRef = useRef<HTMLInputElement>(null);
  const seesAll = seesAllTickets(session?.user);

  useEffect(() => {
    sessionStorage.setItem(FILTERS_KEY(me), JSON.stringify(filters));
  }, [filters, me]);
  useEffect(() => {
    if (searchRequested()) searchRef.current?.focus();
  }, []);

  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')) });
  const tags = useQuery({ queryKey: keys.tags, queryFn: () => must(api.GET('/tags/list', { params: { query: {} } })) });
  const connections = useQuery({ queryKey: keys.connections, queryFn: () => must(api.GET('/chatapp/')) });
  const users = useQuery({ queryKey: keys.users, queryFn: () => must(api.GET('/users/list')), enabled: seesAll });

  const query = useMemo(() => {
    // A user filter is offered only to those who see every ticket; a stale one is never sent.
    const user = filters.onlyMine && me ? me : seesAll ? filters.userId : null;
    return {
      status: filters.status,
      ...(filters.searchParam ? { searchParam: filters.searchParam } : {}),
      ...(filters.queueId ? { queueIds: [filters.queueId] } : {}),
      ...(filters.tagId ? { tags: [filters.tagId] } : {}),
      ...(filters.chatappId ? { chatapps: [filters.chatappId] } : {}),
      ...(user ? { users: [user] } : {}),
      ...(seesAll && !filters.onlyMine ? { showAll: 'true' as const } : {}),
    };
  }, [filters, me, seesAll]);
  const filtered = !!(filters.queueId || filters.tagId || filters.chatappId || (seesAll && filters.userId));
  const active = [filters.queueId, filters.tagId, filters.chatappId, seesAll && !filters.onlyMine ? filters.userId : null, filters.onlyMine || null].filter(
    Boolean,
  ).length;
  // At a phone's width the filters fold behind a button (always shown on wider screens).
  const [showFilters, setShowFilters] = useState(false);
  const filtersId = useId();

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
        <Tabs.Root className="tabs-root" value={filters.status} onValueChange={(v) => setFilters((f) => ({ ...f, status: v as Tab }))}>
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
          {/* The tab's panel: the filters and the list the tab chose (a tab must control something that exists). */}
          <Tabs.Content value={filters.status} className="tab-panel">
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
              <button type="button" className="filters-toggle" aria-expanded={showFilters} aria-controls={filtersId} onClick={() => setShowFilters((v) => !v)}>
                {active > 0 ? t('inbox.filtersActive', { count: active }) : t('inbox.filters')}
              </button>
              <div id={filtersId} className={`filter-controls ${showFilters ? 'open' : ''}`}>
                <FilterSelect
                  label={t('inbox.queue')}
                  any={t('inbox.allQueues')}
                  testId="filter-queue"
                  value={filters.queueId}
                  options={queues.data}
                  onChange={(queueId) => setFilters((f) => ({ ...f, queueId }))}
                />
                <FilterSelect
                  label={t('inbox.tag')}
                  any={t('inbox.allTags')}
                  testId="filter-tag"
                  value={filters.tagId}
                  options={tags.data}
                  onChange={(tagId) => setFilters((f) => ({ ...f, tagId }))}
                />
                {seesAll && (
                  <FilterSelect
                    label={t('inbox.user')}
                    any={t('inbox.allUsers')}
                    testId="filter-user"
                    value={filters.onlyMine ? null : filters.userId}
                    disabled={filters.onlyMine}
                    options={users.data}
                    onChange={(userId) => setFilters((f) => ({ ...f, userId }))}
                  />
                )}
                <FilterSelect
                  label={t('inbox.connection')}
                  any={t('inbox.allConnections')}
                  testId="filter-connection"
                  value={filters.chatappId}
                  options={connections.data}
                  onChange={(chatappId) => setFilters((f) => ({ ...f, chatappId }))}
                />
                <label className="check">
                  <input type="checkbox" checked={filters.onlyMine} onChange={(e) => setFilters((f) => ({ ...f, onlyMine: e.target.checked }))} />
                  {t('inbox.onlyMine')}
                </label>
                {filtered && (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setFilters((f) => ({ ...f, queueId: null, tagId: null, userId: null, chatappId: null }))}
                  >
                    {t('inbox.clearFilters')}
                  </button>
                )}
              </div>
            </div>
            <div className="list-count-row">
              <p className="list-count" aria-live="polite">
                {t('inbox.count', { count: total })}
              </p>
              {(filters.status === 'open' || filters.status === 'pending' || filters.status === 'group') && <CloseAllButton tab={filters.status} />}
            </div>
            <TicketList
              tickets={tickets}
              selected={ticketId}
              loading={list.isLoading}
              hasMore={!!list.hasNextPage}
              loadMore={() => !list.isFetchingNextPage && void list.fetchNextPage()}
            />
          </Tabs.Content>
        </Tabs.Root>
      </section>
      <section className="conversation-pane" aria-label={t('messages.log')}>
        {ticketId ? <Conversation key={ticketId} ticketId={ticketId} /> : <p className="placeholder">{t('inbox.pick')}</p>}
      </section>
    </div>
  );
}

/** One filter of the list: a labelled select whose empty choice is "any". */
function FilterSelect(props: {
  label: string;
  any: string;
  testId: string;
  value: number | null;
  disabled?: boolean;
  options: ReadonlyArray<{ id: number; name: string }> | undefined;
  onChange: (id: number | null) => void;
}) {
  return (
    <label className="filter">
      <span className="visually-hidden">{props.label}</span>
      <select
        data-testid={props.testId}
        value={props.value ?? ''}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">{props.any}</option>
        {(props.options ?? []).map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
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
