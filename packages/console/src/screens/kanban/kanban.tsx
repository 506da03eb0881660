import {
  type Announcements,
  type CollisionDetection,
  DndContext,
  type DragEndEvent,
  type DragStartEvent,
  DragOverlay,
  KeyboardSensor,
  type KeyboardCoordinateGetter,
  MouseSensor,
  pointerWithin,
  rectIntersection,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { useMutation, useMutationState, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TFunction } from 'i18next';
import { DropdownMenu } from 'radix-ui';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { initials, relativeTime } from '../../ui/format.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { seesAllTickets } from '../inbox-filters.js';
import { BOARD_KEY, type KanbanPage, LANES_KEY, type LaneKey, laneKeyOf, laneOfPage, laneRows, type Move, PAGE_SIZE, type Tag, type Ticket } from './board.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './kanban.css';

type Api = ReturnType<typeof useServices>['api'];
type BoardQuery = {
  searchParam?: string;
  queueIds?: number[];
  users?: number[];
  dateFrom?: string;
  dateTo?: string;
  showAll?: 'true';
};
/** A move as asked, with the names of its lanes for what is said of it afterwards. */
type MoveRequest = Move & { readonly toName: string; readonly fromName: string };
interface Lane {
  readonly key: LaneKey;
  readonly tag: Tag | null;
  readonly name: string;
  readonly color: string | null;
}

const MOVE_KEY = ['kanbanMove'] as const;
const CARD_HEIGHT = 124;

function boardPageQuery(api: Api, query: BoardQuery, pageNumber: number) {
  return {
    queryKey: [...BOARD_KEY, query, pageNumber] as const,
    queryFn: () => must(api.GET('/ticket/kanban', { params: { query: { ...query, pageNumber } } })),
  };
}

const nameOf = (ticket: Ticket) => ticket.contact?.name || ticket.contact?.number || `#${ticket.id}`;

/** Pointer first (the lane under the mouse), else the lane the card overlaps most (the keyboard's moves). */
const collision: CollisionDetection = (args) => {
  const under = pointerWithin(args);
  return under.length ? under : rectIntersection(args);
};

/** ← and → carry a picked-up card to the previous or next lane shown (a lane hidden at a phone's width is skipped). */
const laneCoordinates: KeyboardCoordinateGetter = (event, { context: { collisionRect, droppableContainers } }) => {
  if (event.code !== 'ArrowRight' && event.code !== 'ArrowLeft') return undefined;
  event.preventDefault();
  if (!collisionRect) return undefined;
  const centre = collisionRect.left + collisionRect.width / 2;
  const rects = droppableContainers
    .getEnabled()
    .map((c) => c.rect.current)
    .filter((r): r is NonNullable<typeof r> => !!r && r.width > 0)
    .sort((a, b) => a.left - b.left);
  const target = event.code === 'ArrowRight' ? rects.find((r) => r.left > centre) : rects.filter((r) => r.left + r.width < centre).at(-1);
  if (!target) return undefined;
  return { x: target.left + Math.max(0, (target.width - collisionRect.width) / 2), y: target.top + 64 };
};

/**
 * `/kanban`: the open and pending tickets the caller may see, in a first lane of those in no lane
 * and one lane per kanban tag, filtered by search, queue, person (for those who see every ticket)
 * and creation days. A card moves by mouse, touch or keyboard drag, or its "Move to…" menu: at once
 * on the board, back with the server's reason if refused. Other operators' moves arrive as ticket
 * frames; each lane is a virtualised list whose pages are fetched as they come into view.
 */
export function Kanban() {
  const { t, i18n } = useScreenStrings('kanban', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const seesAll = seesAllTickets(session?.user);

  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [queueId, setQueueId] = useState<number | null>(null);
  const [userId, setUserId] = useState<number | null>(null);
  const [dateFrom, setDateFrom] = useState('');
  const [dateTo, setDateTo] = useState('');
  const [picked, setPicked] = useState<LaneKey>('open');
  const [notice, setNotice] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragging, setDragging] = useState<{ ticket: Ticket; from: LaneKey } | null>(null);

  const query = useMemo<BoardQuery>(
    () => ({
      ...(searchParam ? { searchParam } : {}),
      ...(queueId ? { queueIds: [queueId] } : {}),
      ...(seesAll && userId ? { users: [userId] } : {}),
      ...(dateFrom ? { dateFrom } : {}),
      ...(dateTo ? { dateTo } : {}),
      // Those who see every ticket ask for all of them; the server gives anyone else what their profile may see.
      ...(seesAll ? { showAll: 'true' as const } : {}),
    }),
    [searchParam, queueId, userId, dateFrom, dateTo, seesAll],
  );
  const filtered = !!(search || queueId || userId || dateFrom || dateTo);

  const queues = useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')) });
  const users = useQuery({ queryKey: keys.users, queryFn: () => must(api.GET('/users/list')), enabled: seesAll });
  const laneTags = useQuery({ queryKey: LANES_KEY, queryFn: () => must(api.GET('/tag/kanban')) });
  // While another filter's first page loads, the board keeps the one shown.
  const first = useQuery({ ...boardPageQuery(api, query, 1), placeholderData: (previous) => previous });

  const lanes = useMemo<Lane[]>(
    () => [
      { key: 'open', tag: null, name: t('openLane'), color: null },
      ...(laneTags.data?.lista ?? []).map((tag) => ({ key: laneKeyOf(tag.id), tag, name: tag.name, color: tag.color })),
    ],
    [laneTags.data, t],
  );
  const laneName = (key: LaneKey | undefined | null) => lanes.find((l) => l.key === key)?.name ?? '';

  // The moves asked and not yet settled: laid over what the server last said until its answer and the refetch after it.
  const moves = useMutationState({ filters: { mutationKey: MOVE_KEY, status: 'pending' }, select: (m) => m.state.variables as Move });
  const move = useMutation({
    mutationKey: MOVE_KEY,
    mutationFn: (m: MoveRequest) =>
      m.tag
        ? must(api.PUT('/ticket-tags/{ticketId}/{tagId}', { params: { path: { ticketId: m.ticket.id, tagId: m.tag.id } } }))
        : must(api.DELETE('/ticket-tags/{ticketId}', { params: { path: { ticketId: m.ticket.id }, query: { lanesOnly: 'true' } } })),
    onSuccess: (_, m) => {
      setRefusal(null);
      setNotice(t('moved', { name: nameOf(m.ticket), lane: m.toName }));
      // Settled only once the board is fetched again: the card never flickers back to where it was.
      return client.invalidateQueries({ queryKey: BOARD_KEY });
    },
    onError: (err, m) => {
      focusNext.current = { ticketId: m.ticket.id, lane: m.from };
      setRefusal(t('refused', { name: nameOf(m.ticket), lane: m.toName, reason: errorText(t, err), from: m.fromName }));
      void client.invalidateQueries({ queryKey: BOARD_KEY });
    },
  });
  // Where the keyboard's focus goes once a card moved (or came back): its handle in the lane it now shows in.
  const focusNext = useRef<{ ticketId: number; lane: LaneKey } | null>(null);
  const claimFocus = (ticketId: number, lane: LaneKey) => {
    const next = focusNext.current;
    if (next?.ticketId !== ticketId || next.lane !== lane) return false;
    focusNext.current = null;
    return true;
  };
  const requestMove = (ticket: Ticket, from: LaneKey, to: LaneKey) => {
    if (from === to) return;
    const lane = lanes.find((l) => l.key === to);
    if (!lane) return;
    setRefusal(null);
    focusNext.current = { ticketId: ticket.id, lane: to };
    // The lanes' names as asked: a lane deleted meanwhile is gone from the board by the time the refusal arrives.
    move.mutate({ ticket, from, to, tag: lane.tag, toName: lane.name, fromName: laneName(from) });
  };

  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: laneCoordinates }),
  );
  const dragged = (data: unknown) => data as { ticket: Ticket; from: LaneKey } | undefined;
  // The lane last announced: the card is over its own lane as it is picked up, which needs no second sentence.
  const announcedOver = useRef<string | null>(null);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      const d = dragged(active.data.current);
      announcedOver.current = d?.from ?? null;
      return d && t('announce.start', { name: nameOf(d.ticket), lane: laneName(d.from) });
    },
    onDragOver: ({ active, over }) => {
      const d = dragged(active.data.current);
      const overId = over ? String(over.id) : null;
      if (!d || overId === announcedOver.current) return undefined;
      announcedOver.current = overId;
      return over ? t('announce.over', { name: nameOf(d.ticket), lane: laneName(over.id as LaneKey) }) : t('announce.notOver', { name: nameOf(d.ticket) });
    },
    onDragEnd: ({ active, over }) => {
      const d = dragged(active.data.current);
      if (!d) return undefined;
      return over
        ? t('announce.drop', { name: nameOf(d.ticket), lane: laneName(over.id as LaneKey) })
        : t('announce.dropNowhere', { name: nameOf(d.ticket), lane: laneName(d.from) });
    },
    onDragCancel: ({ active }) => {
      const d = dragged(active.data.current);
      return d && t('announce.cancel', { name: nameOf(d.ticket), lane: laneName(d.from) });
    },
  };
  const onDragStart = ({ active }: DragStartEvent) => setDragging(dragged(active.data.current) ?? null);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragging(null);
    const d = dragged(active.data.current);
    if (d && over) requestMove(d.ticket, d.from, over.id as LaneKey);
  };

  const counts = new Map(lanes.map((l) => [l.key, laneOfPage(first.data, l.key)?.count ?? 0]));
  const shownPicked = lanes.some((l) => l.key === picked) ? picked : 'open';

  return (
    <section className="admin-screen kanban-screen" aria-labelledby="kanban-title">
      <header className="admin-header">
        <h1 id="kanban-title">{t('title')}</h1>
        <p className="muted">{t('intro')}</p>
        <div className="admin-tools kanban-filters">
          <label>
            <span className="visually-hidden">{t('search')}</span>
            <input type="search" placeholder={t('search')} value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          <label>
            <span className="visually-hidden">{t('queue')}</span>
            <select value={queueId ?? ''} onChange={(e) => setQueueId(e.target.value ? Number(e.target.value) : null)}>
              <option value="">{t('allQueues')}</option>
              {(queues.data ?? []).map((q) => (
                <option key={q.id} value={q.id}>
                  {q.name}
                </option>
              ))}
            </select>
          </label>
          {seesAll && (
            <label>
              <span className="visually-hidden">{t('user')}</span>
              <select value={userId ?? ''} onChange={(e) => setUserId(e.target.value ? Number(e.target.value) : null)}>
                <option value="">{t('allUsers')}</option>
                {(users.data ?? []).map((u) => (
                  <option key={u.id} value={u.id}>
                    {u.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="inline-label">
            {t('from')}
            <input type="date" value={dateFrom} max={dateTo || undefined} onChange={(e) => setDateFrom(e.target.value)} />
          </label>
          <label className="inline-label">
            {t('to')}
            <input type="date" value={dateTo} min={dateFrom || undefined} onChange={(e) => setDateTo(e.target.value)} />
          </label>
          {filtered && (
            <button
              type="button"
              className="link-button"
              onClick={() => {
                setSearch('');
                setQueueId(null);
                setUserId(null);
                setDateFrom('');
                setDateTo('');
              }}
            >
              {t('clear')}
            </button>
          )}
        </div>
        <label className="kanban-picker">
          {t('lanePicker')}
          <select value={shownPicked} onChange={(e) => setPicked(e.target.value as LaneKey)}>
            {lanes.map((l) => (
              <option key={l.key} value={l.key}>
                {t('laneOption', { lane: l.name, count: counts.get(l.key) ?? 0 })}
              </option>
            ))}
          </select>
        </label>
      </header>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {refusal && (
        <div className="kanban-refusal" role="alert">
          <span>{refusal}</span>
          <button type="button" className="small" onClick={() => setRefusal(null)}>
            {t('dismiss')}
          </button>
        </div>
      )}
      {first.error && <FormError text={errorText(t, first.error)} />}
      {laneTags.error && !first.error && <FormError text={errorText(t, laneTags.error)} />}
      {laneTags.isSuccess && lanes.length === 1 && <p className="muted">{t('noLanes')}</p>}
      <DndContext
        sensors={sensors}
        collisionDetection={collision}
        accessibility={{ announcements, screenReaderInstructions: { draggable: t('instructions') } }}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragging(null)}
      >
        <div className="kanban-board" data-testid="kanban-board">
          {lanes.map((lane) => (
            <LaneColumn
              key={lane.key}
              lane={lane}
              lanes={lanes}
              picked={lane.key === shownPicked}
              api={api}
              query={query}
              first={first.data}
              loading={first.isLoading}
              moves={moves}
              language={i18n.language}
              onMove={requestMove}
              claimFocus={claimFocus}
              t={t}
            />
          ))}
        </div>
        <DragOverlay dropAnimation={null}>
          {dragging && (
            <div className="kanban-card overlay" style={{ borderLeftColor: dragging.ticket.queue?.color ?? 'transparent' }}>
              <span className="kanban-handle" aria-hidden="true">
                ⠿
              </span>
              <div className="kanban-card-link">
                <CardBody ticket={dragging.ticket} language={i18n.language} t={t} />
              </div>
            </div>
          )}
        </DragOverlay>
      </DndContext>
    </section>
  );
}

/** One lane: a labelled, virtualised list whose pages of 20 are fetched once their rows come into view. */
function LaneColumn(props: {
  lane: Lane;
  lanes: Lane[];
  picked: boolean;
  api: Api;
  query: BoardQuery;
  first: KanbanPage | undefined;
  loading: boolean;
  moves: Move[];
  language: string;
  onMove: (ticket: Ticket, from: LaneKey, to: LaneKey) => void;
  claimFocus: (ticketId: number, lane: LaneKey) => boolean;
  t: TFunction;
}) {
  const { lane, t } = props;
  const titleId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const { setNodeRef, isOver } = useDroppable({ id: lane.key });
  const count = laneOfPage(props.first, lane.key)?.count ?? 0;

  // The pages of the rows last in view (kept as state: the virtualizer that tells them needs the rows first).
  const [wantedPages, setWantedPages] = useState<number[]>([]);
  const pageQueries = useQueries({ queries: wantedPages.map((p) => boardPageQuery(props.api, props.query, p)) });
  const pages = new Map<number, KanbanPage>();
  if (props.first) pages.set(1, props.first);
  wantedPages.forEach((p, i) => {
    const data = pageQueries[i]?.data;
    if (data) pages.set(p, data);
  });
  // A few thousand places at most: cheap enough to lay out again on each render.
  const rows = laneRows(lane.key, count, pages, props.moves);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_HEIGHT,
    overscan: 6,
    getItemKey: (i) => rows[i]?.id ?? `row-${i}`,
  });
  const items = virtualizer.getVirtualItems();
  // The pages the rows in view fall on, asked once the scrolling pauses (a fling does not fetch every page it passes).
  const inView = useDebounced([...new Set(items.map((i) => Math.floor(i.index / PAGE_SIZE) + 1))].filter((p) => p > 1).join(','), 120);
  const wantedKey = wantedPages.join(',');
  if (inView !== wantedKey) setWantedPages(inView ? inView.split(',').map(Number) : []);

  return (
    <section
      ref={setNodeRef}
      className={`kanban-lane ${props.picked ? 'picked' : ''} ${isOver ? 'over' : ''}`}
      aria-labelledby={titleId}
      data-testid={`lane-${lane.key}`}
    >
      <header className="kanban-lane-header">
        <h2 id={titleId}>
          {lane.color && <span className="swatch" style={{ background: lane.color }} aria-hidden="true" />}
          {lane.name}
        </h2>
        <span className="muted small-text" data-testid={`lane-count-${lane.key}`}>
          {t('laneCount', { count: rows.length })}
        </span>
      </header>
      <div ref={scroller} className="kanban-lane-scroll">
        {!props.loading && rows.length === 0 ? (
          <p className="placeholder">{t('emptyLane')}</p>
        ) : (
          <ul aria-labelledby={titleId} aria-busy={props.loading} style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const ticket = rows[item.index];
              return (
                <li
                  key={item.key}
                  aria-setsize={rows.length}
                  aria-posinset={item.index + 1}
                  style={{ transform: `translateY(${item.start}px)`, height: CARD_HEIGHT }}
                >
                  {ticket ? (
                    <Card ticket={ticket} lane={lane} lanes={props.lanes} language={props.language} onMove={props.onMove} claimFocus={props.claimFocus} t={t} />
                  ) : (
                    <div className="kanban-card loading">{t('loadingCard')}</div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </div>
    </section>
  );
}

/** A card: a drag handle, the link to the conversation, and the "Move to…" menu (the plain keyboard path). */
function Card(props: {
  ticket: Ticket;
  lane: Lane;
  lanes: Lane[];
  language: string;
  onMove: (ticket: Ticket, from: LaneKey, to: LaneKey) => void;
  claimFocus: (ticketId: number, lane: LaneKey) => boolean;
  t: TFunction;
}) {
  const { ticket, lane, lanes, onMove, claimFocus, t } = props;
  const handle = useRef<HTMLButtonElement | null>(null);
  const movedByMenu = useRef(false);
  // A card that has just moved here (or come back) takes the focus its old place had.
  useEffect(() => {
    if (claimFocus(ticket.id, lane.key)) handle.current?.focus();
  }, [claimFocus, ticket.id, lane.key]);
  const name = nameOf(ticket);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: `${lane.key}:${ticket.id}`,
    data: { ticket, from: lane.key },
    attributes: { roleDescription: t('roleDescription') },
  });
  return (
    <article
      ref={setNodeRef}
      {...listeners}
      className={`kanban-card ${isDragging ? 'dragging' : ''}`}
      style={{ borderLeftColor: ticket.queue?.color ?? 'transparent' }}
      data-testid={`card-${ticket.id}`}
      aria-label={name}
    >
      <button
        ref={(el) => {
          setActivatorNodeRef(el);
          handle.current = el;
        }}
        {...attributes}
        type="button"
        className="kanban-handle"
        aria-label={t('dragHandle', { name })}
      >
        <span aria-hidden="true">⠿</span>
      </button>
      <Link to="/tickets/$ticketId" params={{ ticketId: String(ticket.id) }} className="kanban-card-link" draggable={false}>
        <CardBody ticket={ticket} language={props.language} t={t} />
      </Link>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger asChild>
          <button type="button" className="small kanban-move">
            {t('moveTo')}
            <span className="visually-hidden"> {name}</span>
          </button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            className="menu"
            align="end"
            sideOffset={4}
            onCloseAutoFocus={(e) => {
              // After a move the focus goes to the card in its new lane, not back to this menu's button (gone with it).
              if (movedByMenu.current) e.preventDefault();
              movedByMenu.current = false;
            }}
          >
            {lanes
              .filter((l) => l.key !== lane.key)
              .map((l) => (
                <DropdownMenu.Item
                  key={l.key}
                  className="menu-item"
                  onSelect={() => {
                    movedByMenu.current = true;
                    onMove(ticket, lane.key, l.key);
                  }}
                >
                  {l.name}
                </DropdownMenu.Item>
              ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </article>
  );
}

/** What a card shows of its conversation: the contact, the last message and its time, the unread count, the queue, the assignee. */
function CardBody({ ticket, language, t }: { ticket: Ticket; language: string; t: TFunction }) {
  const name = nameOf(ticket);
  const picture = ticket.contact?.urlPicture;
  return (
    <>
      <span className="avatar" aria-hidden="true">
        {picture ? <img src={picture} alt="" draggable={false} /> : initials(name)}
      </span>
      <span className="kanban-card-main">
        <span className="ticket-name">{name}</span>
        <span className="ticket-last">{ticket.lastMessage || t('noMessage')}</span>
      </span>
      <span className="kanban-card-meta">
        <time dateTime={ticket.updatedAt}>{relativeTime(ticket.updatedAt, language)}</time>
        {ticket.unreadMessages > 0 && (
          <span className="badge">
            <span aria-hidden="true">{ticket.unreadMessages}</span>
            <span className="visually-hidden">{t('unread', { count: ticket.unreadMessages })}</span>
          </span>
        )}
      </span>
      <span className="kanban-card-foot">
        {ticket.queue && (
          <span className="queue-chip" style={{ borderColor: ticket.queue.color }}>
            {ticket.queue.name}
          </span>
        )}
        <span className="kanban-assignee">{ticket.user ? t('assignee', { name: ticket.user.name }) : t('unassigned')}</span>
      </span>
    </>
  );
}
