import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyFrame, reloadEverything } from '../src/realtime/apply-frame.js';
import {
  BOARD_KEY,
  type KanbanPage,
  LANES_KEY,
  laneKeyOf,
  laneRows,
  type Move,
  movedTicket,
  PAGE_SIZE,
  type Tag,
  type Ticket,
  tagIdOf,
} from '../src/screens/kanban/board.js';

const tag = (id: number, name: string): Tag => ({
  id,
  companyId: 1,
  name,
  color: '#112233',
  kanban: true,
  laneOrder: id,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const TODO = tag(7, 'To do');
const DONE = tag(9, 'Done');
const VIP = { id: 3, name: 'VIP', color: '#ffaa00', kanban: false };

const ticket = (id: number, tags: Ticket['tags'] = []): Ticket => ({ id, tags }) as Ticket;

/** One page of the board: the given tickets in the open lane and in "To do", with their lanes' totals. */
function page(open: Ticket[], todo: Ticket[], counts = { open: open.length, todo: todo.length }): KanbanPage {
  return {
    tickets: [...open, ...todo],
    lanes: [
      { tag: null, tickets: open, count: counts.open, hasMore: false },
      { tag: TODO, tickets: todo, count: counts.todo, hasMore: false },
      { tag: DONE, tickets: [], count: 0, hasMore: false },
    ],
  };
}

const ids = (rows: Array<Ticket | undefined>) => rows.map((t) => t?.id ?? null);

describe('console: the kanban board’s lanes', () => {
  it('names the lanes by their tag, the open lane apart', () => {
    expect(laneKeyOf(null)).to.equal('open');
    expect(laneKeyOf(7)).to.equal('tag-7');
    expect(tagIdOf('open')).to.equal(null);
    expect(tagIdOf('tag-7')).to.equal(7);
  });

  it('places each fetched page at its rows, the rest waiting as empty places up to the lane’s total', () => {
    const first = Array.from({ length: PAGE_SIZE }, (_, i) => ticket(i + 1));
    const third = [ticket(100), ticket(101)];
    const pages = new Map([
      [1, page(first, [], { open: 2 * PAGE_SIZE + 2, todo: 0 })],
      [3, page(third, [], { open: 2 * PAGE_SIZE + 2, todo: 0 })],
    ]);
    const rows = laneRows('open', 2 * PAGE_SIZE + 2, pages, []);
    expect(rows).to.have.length(42);
    expect(rows[0]?.id).to.equal(1);
    expect(rows[19]?.id).to.equal(20);
    expect(rows.slice(20, 40).every((r) => r === undefined)).to.equal(true);
    expect(ids(rows.slice(40))).to.deep.equal([100, 101]);
  });

  it('lays a pending move over the pages: the card leaves its lane at once and shows first in the other', () => {
    const a = ticket(1, [VIP]);
    const b = ticket(2);
    const pages = new Map([[1, page([a, b], [ticket(5)])]]);
    const move: Move = { ticket: a, from: 'open', to: 'tag-7', tag: TODO };
    expect(ids(laneRows('open', 2, pages, [move]))).to.deep.equal([2]);
    const todo = laneRows('tag-7', 1, pages, [move]);
    expect(ids(todo)).to.deep.equal([1, 5]);
    // Its plain tags kept, its lanes replaced by the target's.
    expect(todo[0]!.tags.map((t) => t.id)).to.deep.equal([7, 3]);
    expect(ids(laneRows('tag-9', 0, pages, [move]))).to.deep.equal([]);
  });

  it('with two moves of one ticket pending, the last asked wins; back to the open lane drops its lanes', () => {
    const a = ticket(1, [{ id: TODO.id, name: TODO.name, color: TODO.color, kanban: true }, VIP]);
    const pages = new Map([[1, page([], [a])]]);
    const moves: Move[] = [
      { ticket: a, from: 'tag-7', to: 'tag-9', tag: DONE },
      { ticket: a, from: 'tag-9', to: 'open', tag: null },
    ];
    expect(ids(laneRows('tag-7', 1, pages, moves))).to.deep.equal([]);
    expect(ids(laneRows('tag-9', 0, pages, moves))).to.deep.equal([]);
    const open = laneRows('open', 0, pages, moves);
    expect(ids(open)).to.deep.equal([1]);
    expect(open[0]!.tags).to.deep.equal([VIP]);
    expect(movedTicket(moves[0]!).tags.map((t) => t.id)).to.deep.equal([9, 3]);
  });

  it('a ticket already in the target lane (it was in two) is not shown twice', () => {
    const a = ticket(1);
    const pages = new Map([[1, page([], [a])]]);
    expect(ids(laneRows('tag-7', 1, pages, [{ ticket: a, from: 'tag-9', to: 'tag-7', tag: TODO }]))).to.deep.equal([1]);
  });

  it('is fetched again on a ticket frame (another operator’s move), a tag frame (a lane changed) and a resync, its pages left as they were', () => {
    const pageKey = [...BOARD_KEY, { showAll: 'true' }, 1];
    const fill = () => {
      const client = new QueryClient();
      const board = page([ticket(1)], []);
      client.setQueryData(pageKey, board);
      client.setQueryData(LANES_KEY, { lista: [TODO, DONE] });
      return { client, board };
    };
    const stale = (client: QueryClient, key: readonly unknown[]) => client.getQueryState(key)!.isInvalidated;

    const moved = fill();
    applyFrame(moved.client, { seq: 1, event: 'company-1-ticket', data: { action: 'update', ticket: { ...ticket(1), tags: [], status: 'pending' } } });
    expect(stale(moved.client, pageKey)).to.equal(true);
    // The lists' placing of a frame's ticket is for the inbox's pages; the board's are refetched whole.
    expect(moved.client.getQueryData(pageKey)).to.equal(moved.board);

    const lane = fill();
    applyFrame(lane.client, { seq: 2, event: 'company-1-tag', data: { action: 'delete', tagId: DONE.id } });
    expect(stale(lane.client, LANES_KEY)).to.equal(true);
    expect(stale(lane.client, pageKey)).to.equal(true);

    const resync = fill();
    reloadEverything(resync.client);
    expect(stale(resync.client, LANES_KEY)).to.equal(true);
    expect(stale(resync.client, pageKey)).to.equal(true);
  });
});
